// The code of Sources/InterfaceRendering/InterfaceRendering.docc/InterfaceRendering.md (snippet
// `rendering-overview`), compiled and run on a window made here.
import Foundation
import InterfaceObjects
import InterfaceRendering
import Testing

@MainActor @Suite("InterfaceRendering's overview")
struct InterfaceRenderingOverview {
  @Test("A window drawn as SVG, dark, at twice its size")
  func windowAsSVG() {
    let window = Window()
    window.title = "Main"
    window.styleMask = 1
    let content = View(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
    let label = Label(frame: CGRect(x: 10, y: 60, width: 100, height: 20))
    label.text = "Hello"
    content.addSubview(label)
    window.contentView = content
    // snippet: rendering-overview
    let layout = SceneLayout(platform: .appKit, palette: Palette(appearance: .dark))
    let scene = layout.scene(for: window, identifier: "main", caption: window.title)
    let svg = SVGRenderer(scale: 2, palette: layout.palette).document(for: scene)
    // end-snippet
    #expect(svg.contains("width=\"400\" height=\"256\" viewBox=\"0 0 200 128\""))
    #expect(svg.contains(">Hello</text>") && svg.contains(">Main</text>"))
  }
}
