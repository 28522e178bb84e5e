import Foundation
import InterfaceObjects
import InterfaceRendering
import Testing
import TestSupport

/// The SVG back end: valid XML; each view's frame, text, font, colour and alignment where the
/// layout puts them; hidden subtrees left out; AppKit frames turned y down; clipping; images
/// embedded or a labelled placeholder.
@MainActor
@Suite("SVG rendering of view trees")
struct SVGRendererTests {
  nonisolated static let red = Color(colorSpaceCode: 2, components: [1, 0, 0, 1])
  nonisolated static let teal = Color(colorSpaceCode: 2, components: [0, 0.5, 0.5, 1])

  /// A phone-sized UIKit root with a centred red bold label, a teal box holding a field, a hidden
  /// label with a child, and an image view.
  func uiKitScene() -> (root: View, label: Label, box: View, field: TextField, image: ImageView) {
    let root = View(frame: CGRect(x: 0, y: 0, width: 375, height: 667))
    let label = Label(frame: CGRect(x: 20, y: 100, width: 200, height: 30))
    label.text = "Tom & <Jerry>"
    label.textColor = Self.red
    label.font = Font(name: "Helvetica-Bold", pointSize: 20)
    label.textAlignment = .center
    let box = View(frame: CGRect(x: 10, y: 200, width: 300, height: 100))
    box.backgroundColor = Self.teal
    let field = TextField(frame: CGRect(x: 15, y: 40, width: 150, height: 30))
    field.placeholder = "Name"
    field.borderStyle = 3
    box.addSubview(field)
    let hidden = Label(frame: CGRect(x: 0, y: 400, width: 100, height: 20))
    hidden.text = "never drawn"
    hidden.isHidden = true
    let child = Label(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
    child.text = "inside the hidden one"
    hidden.addSubview(child)
    let image = ImageView(frame: CGRect(x: 300, y: 20, width: 60, height: 60))
    image.image = Image(name: "missing-photo")
    for view in [label, box, hidden, image] as [View] { root.addSubview(view) }
    return (root, label, box, field, image)
  }

  func svg(_ root: View, platform: SceneLayout.Platform = .uiKit, appearance: Appearance = .light, layout configure: (inout SceneLayout) -> Void = { _ in }) throws -> SVGTree {
    var layout = SceneLayout(platform: platform, palette: Palette(appearance: appearance))
    configure(&layout)
    let scene = layout.scene(for: root, identifier: "root", caption: "root")
    return try SVGTree(SVGRenderer(palette: layout.palette).document(for: scene))
  }

  @Test("The document parses as XML; the label's text, frame, font, colour and alignment are the view's")
  func labelAppearsWhereTheViewIs() throws {
    let tree = try svg(uiKitScene().root)
    let svg = try #require(tree.elements.first)
    #expect(svg.name == "svg" && svg.attributes["viewBox"] == "0 0 375 667" && svg.attributes["width"] == "375")
    let text = try #require(tree.texts("Tom & <Jerry>").first)
    // Centred: x at the frame's middle (20 + 200 / 2), anchored in the middle.
    #expect(text.number("x") == 120 && text.attributes["text-anchor"] == "middle")
    let baseline = try #require(text.number("y"))
    #expect(baseline > 100 && baseline < 130, "the baseline lies inside the label's frame (y 100…130): \(baseline)")
    #expect(text.attributes["fill"] == "#ff0000")
    #expect(text.attributes["font-size"] == "20" && text.attributes["font-weight"] == "700")
    #expect(text.attributes["font-family"]?.hasPrefix("Helvetica, ") == true, "\(text.attributes["font-family"] ?? "")")
    #expect(text.attributes["font-family"]?.contains("sans-serif") == true, "system fallbacks follow the document's family")
  }

  @Test("Backgrounds fill their frames in scene coordinates; subviews are offset by their superview")
  func backgroundsAndNesting() throws {
    let tree = try svg(uiKitScene().root)
    let teal = tree.all("rect").filter { $0.attributes["fill"] == "#008080" }
    #expect(teal.count == 1)
    #expect(teal.first.map { [$0.number("x"), $0.number("y"), $0.number("width"), $0.number("height")] } == [10, 200, 300, 100])
    // The field is at (15, 40) in the box: (25, 240) in the scene, its placeholder inside it.
    let placeholder = try #require(tree.texts("Name").first)
    let x = try #require(placeholder.number("x")), y = try #require(placeholder.number("y"))
    #expect(x > 25 && x < 40 && y > 240 && y < 270, "\(x), \(y)")
    let fieldBox = tree.all("rect").first { $0.number("x") == 25.5 && $0.number("y") == 240.5 }
    #expect(fieldBox?.attributes["rx"] == "5", "a rounded-rect field (UIBorderStyle 3)")
  }

  @Test("A hidden view and everything in it are not drawn")
  func hiddenSubtreesAreLeftOut() throws {
    let tree = try svg(uiKitScene().root)
    #expect(tree.texts("never drawn").isEmpty && tree.texts("inside the hidden one").isEmpty)
    let scene = uiKitScene()
    scene.box.alpha = 0
    let faded = try svg(scene.root)
    #expect(faded.texts("Name").isEmpty, "alpha 0 hides the box's field too")
  }

  @Test("An image not found is a labelled placeholder; one found is embedded as data")
  func imagesEmbeddedOrPlaceholders() throws {
    let scene = uiKitScene()
    let missing = try svg(scene.root)
    #expect(missing.texts("missing-photo").count == 1)
    #expect(missing.all("image").isEmpty)
    try withScratchFolder("render-image") { folder in
      // A 1 × 1 PNG (signature, IHDR, IDAT, IEND), enough for the type check.
      let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 40)
      try folder.write(png, to: "photo.png")
      let path = folder.file("photo.png")
      let found = try svg(scene.root) { $0.imagePath = { $0 == "missing-photo" ? path : nil } }
      let image = try #require(found.all("image").first)
      #expect(image.attributes["xlink:href"]?.hasPrefix("data:image/png;base64,iVBORw0KGgo") == true)
      #expect([image.number("x"), image.number("y"), image.number("width")] == [300, 20, 60])
      #expect(found.texts("missing-photo").isEmpty)
    }
  }

  @Test("AppKit frames count from the superview's bottom edge and are drawn y down")
  func appKitFramesAreFlipped() throws {
    let root = View(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
    let label = Label(frame: CGRect(x: 20, y: 250, width: 100, height: 20))
    label.text = "Top"
    let inner = View(frame: CGRect(x: 100, y: 0, width: 200, height: 100))
    let bottom = Label(frame: CGRect(x: 10, y: 10, width: 100, height: 20))
    bottom.text = "Bottom"
    inner.addSubview(bottom)
    root.addSubview(label)
    root.addSubview(inner)
    let layout = SceneLayout(platform: .appKit)
    #expect(layout.sceneFrame(of: label) == CGRect(x: 20, y: 30, width: 100, height: 20))
    // inner: y 300 - 100 = 200; bottom inside it: 100 - 30 = 70 → 270.
    #expect(layout.sceneFrame(of: bottom) == CGRect(x: 110, y: 270, width: 100, height: 20))
    let tree = try svg(root, platform: .appKit)
    let top = try #require(tree.texts("Top").first?.number("y"))
    #expect(top > 30 && top < 50)
    let low = try #require(tree.texts("Bottom").first?.number("y"))
    #expect(low > 270 && low < 290)
  }

  @Test("AppKit clips a subview to its superview's bounds")
  func clipping() throws {
    let root = View(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
    let parent = View(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
    let child = Label(frame: CGRect(x: 0, y: 0, width: 180, height: 20))
    child.text = "Overflowing"
    parent.addSubview(child)
    root.addSubview(parent)
    let primitives = SceneLayout(platform: .appKit).primitives(for: root)
    let text = try #require(primitives.first { if case .text = $0.content { true } else { false } })
    #expect(text.clip == CGRect(x: 0, y: 150, width: 50, height: 50))
    let tree = try svg(root, platform: .appKit)
    #expect(tree.all("clipPath").count >= 2, "the ancestor's clip and the text's own frame")
  }

  @Test("Dark appearance changes the default text and background colours, not explicit ones")
  func appearance() throws {
    let scene = uiKitScene()
    let plain = Label(frame: CGRect(x: 20, y: 500, width: 200, height: 30))
    plain.text = "Default colour"
    scene.root.addSubview(plain)
    let light = try svg(scene.root), dark = try svg(scene.root, appearance: .dark)
    #expect(light.texts("Default colour").first?.attributes["fill"] == "#000000")
    #expect(dark.texts("Default colour").first?.attributes["fill"] == "#ffffff")
    #expect(dark.texts("Tom & <Jerry>").first?.attributes["fill"] == "#ff0000")
    // The scene's background: the first filled rectangle (clip paths' rectangles have no fill).
    let lightBackground = light.all("rect").first { $0.attributes["fill"] != nil }
    let darkBackground = dark.all("rect").first { $0.attributes["fill"] != nil }
    #expect(lightBackground?.attributes["fill"] == "#ffffff" && darkBackground?.attributes["fill"] == "#1e1e1e")
  }

  @Test("Text the XML forbids is dropped and markup escaped; numbers are short")
  func escaping() throws {
    let root = View(frame: CGRect(x: 0, y: 0, width: 100.25, height: 50))
    let label = Label(frame: CGRect(x: 0.333, y: 0, width: 300, height: 50))
    label.text = "a\u{1}b\"c'</text>"
    root.addSubview(label)
    let tree = try svg(root)
    #expect(tree.texts("ab\"c'</text>").count == 1)
    #expect(tree.elements.first?.attributes["width"] == "100.25")
  }

  @Test("A contact sheet places every scene with its caption and draws each link as an arrow")
  func contactSheet() throws {
    let layout = SceneLayout()
    let first = layout.scene(for: uiKitScene().root, identifier: "first", caption: "First")
    let second = layout.scene(for: uiKitScene().root, identifier: "second", caption: "Second")
    let links = [ContactSheet.Link(from: "first", to: "second", label: "show"), ContactSheet.Link(from: "first", to: "nowhere", label: "x")]
    let sheet = ContactSheet(scenes: [first, second], links: links).scene(identifier: "sheet", caption: "Sheet", palette: layout.palette)
    let tree = try SVGTree(SVGRenderer().document(for: sheet))
    #expect(tree.texts("First").count == 1 && tree.texts("Second").count == 1 && tree.texts("Tom & <Jerry>").count == 2)
    let arrows = tree.all("line").filter { $0.attributes["marker-end"] != nil }
    #expect(arrows.count == 1, "a link to a scene not on the sheet is not drawn")
    #expect(tree.texts("show").count == 1)
    // Side by side: from the first scene's right edge to the second's left edge.
    let arrow = try #require(arrows.first)
    #expect(arrow.number("x1") == 50 + 375 && arrow.number("x2") == 50 + 375 + 100 + 0)
  }

  @Test("Fonts: the document's family first with system fallbacks, weight from the style, text styles at their size")
  func fonts() {
    let neue = FontResolver.resolve(Font(name: "HelveticaNeue-Medium", pointSize: 14), defaultSize: 17)
    #expect(neue.families.prefix(2) == ["Helvetica Neue", "HelveticaNeue"] && neue.weight == 500 && neue.size == 14)
    #expect(neue.families.last == "sans-serif")
    let menlo = FontResolver.resolve(Font(name: "Menlo-Regular", pointSize: 11), defaultSize: 13)
    #expect(menlo.isMonospaced && menlo.families.first == "Menlo" && menlo.families.last == "monospace")
    let headline = FontResolver.resolve(Font(name: "UICTFontTextStyle:UICTFontTextStyleHeadline", pointSize: 0), defaultSize: 17)
    #expect(headline.families.first == "-apple-system" && headline.size == 17 && headline.weight == 600)
    let system = FontResolver.resolve(Font(name: ".AppleSystemUIFontBold", pointSize: 13), defaultSize: 13)
    #expect(system.families.first == "-apple-system" && system.weight == 700)
    #expect(FontResolver.resolve(nil, defaultSize: 13).size == 13)
  }

  @Test("A contact sheet places linked scenes column by column along the links, unlinked ones in rows below")
  func contactSheetGrid() {
    let layout = SceneLayout()
    let scenes = ["a", "b", "c", "d", "e", "f", "g", "h"].map { layout.scene(for: View(frame: CGRect(x: 0, y: 0, width: 10, height: 10)), identifier: $0, caption: $0) }
    let links = [ContactSheet.Link(from: "a", to: "c", label: ""), ContactSheet.Link(from: "c", to: "e", label: ""), ContactSheet.Link(from: "a", to: "b", label: "")]
    let places = ContactSheet(scenes: scenes, links: links).grid()
    // a → c → e and a → b: columns by depth; d, f, g, h on no link: rows below, 3 wide.
    #expect(places.map(\.column) == [0, 1, 1, 0, 2, 1, 2, 0])
    #expect(places.map(\.row) == [0, 0, 1, 2, 0, 2, 2, 3])
    let unlinked = ContactSheet(scenes: scenes, links: []).grid()
    #expect(unlinked.map(\.column) == [0, 1, 2, 0, 1, 2, 0, 1] && unlinked.map(\.row) == [0, 0, 0, 1, 1, 1, 2, 2])
  }
}
