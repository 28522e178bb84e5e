import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Lenient compiling, on small documents: what the strict compiler refuses becomes a
/// best-effort object of its class (attributes kept, frame, subviews and outlets made) or is left
/// out, each with a warning naming the element and its line; strict compiling and strict loading
/// refuse the same document with the element and line.
@MainActor
@Suite struct LenientCompilingTests {
  /// A window whose content view holds a rule editor and a web view (neither of which the
  /// compiler knows how Apple compiles): the editor with a subview, the web view with attributes,
  /// a color, a size and an outlet to the File's Owner, which has outlets to all three.
  static let unsupportedElementsXib = LoaderStepTests.xib(
    ownerClass: "LenientOwner",
    owner: """
      <outlet property="editor" destination="pe1" id="c1"/>
      <outlet property="label" destination="tf1" id="c2"/>
      <outlet property="web" destination="wk1" id="c4"/>
      """,
    LoaderStepTests.window(
      id: "w1", content: "v1",
      subviews: """
        <ruleEditor verticalHuggingPriority="750" nestingMode="compound" canRemoveAllRows="YES" rowHeight="25" id="pe1">
            <rect key="frame" x="20" y="30" width="200" height="100"/>
            <autoresizingMask key="autoresizingMask" widthSizable="YES"/>
            <subviews>
                <textField id="tf1">
                    <rect key="frame" x="4" y="5" width="80" height="21"/>
                    <autoresizingMask key="autoresizingMask"/>
                    <textFieldCell key="cell" title="Rules" id="tf1c">
                        <font key="font" metaFont="system"/>
                    </textFieldCell>
                </textField>
            </subviews>
        </ruleEditor>
        <webView allowsBackForwardNavigationGestures="YES" customUserAgent="Stasis" id="wk1">
            <rect key="frame" x="0.0" y="140" width="300" height="60"/>
            <autoresizingMask key="autoresizingMask"/>
            <color key="underPageBackgroundColor" white="1" alpha="1" colorSpace="calibratedWhite"/>
            <size key="minimumSize" width="3" height="2"/>
            <connections>
                <outlet property="navigationDelegate" destination="-2" id="c3"/>
            </connections>
        </webView>
        """))

  static func line(of text: String, in document: String) throws -> Int {
    try #require(document.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }) + 1
  }

  nonisolated static var classes: ClassRegistry {
    var classes = ClassRegistry.interfaceObjects
    classes.register(LenientOwner.self, as: "LenientOwner", makeInstanceOnMainActor: { LenientOwner() })
    return classes
  }

  @Test func anElementTheCompilerDoesNotKnowBecomesAnObjectOfItsClassWithItsAttributesSubviewsAndOutlets() throws {
    let folder = try ScratchFolder("lenient-unsupported-elements")
    defer { folder.remove() }
    let text = Self.unsupportedElementsXib
    let path = try LoaderStepTests.write(text, to: "Rules.xib", in: folder)
    let editorLine = try Self.line(of: "<ruleEditor", in: text)
    let webLine = try Self.line(of: "<webView", in: text)

    let nib = try Nib(contentsOf: path, lenient: true)
    #expect(nib.compileWarnings.count == 2)
    #expect(nib.compileWarnings.first?.hasPrefix("\(path):\(editorLine): <ruleEditor> compiled as a best-effort generic object: ") == true, "\(nib.compileWarnings)")
    #expect(nib.compileWarnings.last?.hasPrefix("\(path):\(webLine): <webView> compiled as a best-effort generic object: ") == true, "\(nib.compileWarnings)")
    // The compiled objects carry their class and every attribute.
    let archived = try #require(nib.graph.objects.first { $0.className == "NSRuleEditor" })
    #expect(nib.graph.text(of: archived, forKey: "nestingMode") == "compound")
    #expect(archived["canRemoveAllRows"] == .bool(true))

    let owner = LenientOwner()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes))
    #expect(Array(loaded.warnings.prefix(2)) == nib.compileWarnings, "the compile's warnings come first in the load's: \(loaded.warnings)")
    let window = try #require(loaded.topLevelObjects.compactMap { $0 as? Window }.first)

    // The rule editor: an object of its class (a control in the headless model) with its
    // frame, in its window's view hierarchy, its subview made the usual way and connected.
    let editor = try #require(owner.editor as? Control, "\(String(describing: owner.editor))")
    #expect(editor.frame == CGRect(x: 20, y: 30, width: 200, height: 100))
    #expect(editor.superview === window.contentView)
    let label = try #require(owner.label)
    #expect(label.text == "Rules")
    #expect(label.superview === editor)

    // The web view: a class the headless model lacks, so a generic object keeping every
    // attribute (YES/NO as booleans) and child (by key), its frame and its outlets.
    let web = try #require(owner.web as? GenericObject)
    #expect(web.className == "WebView")
    #expect(loaded.unknownClassNames == ["WebView"])
    #expect(web["customUserAgent"] as? String == "Stasis")
    #expect(web["allowsBackForwardNavigationGestures"] as? Bool == true)
    #expect(web["minimumSize"] as? String == "{3, 2}")
    #expect(web["underPageBackgroundColor"] is Color, "\(String(describing: web["underPageBackgroundColor"]))")
    #expect(web["NSFrame"] as? String == "{{0, 140}, {300, 60}}")
    let delegate = web["navigationDelegate"] as? LenientOwner
    #expect(delegate === owner)
    withExtendedLifetime(loaded) {}
  }

  @Test func strictCompilingAndStrictLoadingRefuseTheSameDocumentWithTheElementAndLine() throws {
    let folder = try ScratchFolder("lenient-strict")
    defer { folder.remove() }
    let text = Self.unsupportedElementsXib
    let path = try LoaderStepTests.write(text, to: "Rules.xib", in: folder)
    let line = try Self.line(of: "<ruleEditor", in: text)

    // Nib(contentsOf:) compiles strictly by default, as ibtool does.
    let refused = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: path) }
    let compilerError = try #require(refused?.underlying as? InterfaceBuilderError, "\(String(describing: refused))")
    #expect(compilerError.code == .unsupported)
    #expect(compilerError.line == line)
    #expect(compilerError.description.contains("\(path):\(line): <ruleEditor> is not compiled yet"), "\(compilerError)")

    // A strict load of the leniently compiled nib refuses it for the same element and line.
    let nib = try Nib(contentsOf: path, lenient: true)
    let strict = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in
      try nib.load(owner: LenientOwner(), options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    let strictCause = try #require(strict?.underlying as? InterfaceBuilderError, "\(String(describing: strict))")
    #expect(strictCause.line == line && strictCause.path == path)
    #expect(strictCause.description.contains("<ruleEditor>"), "\(strictCause)")

    // The compiler's own entry points: strict refuses, lenient warns.
    let document = try InterfaceDocument(contentsOfFile: path)
    var strictlyRefused = false
    do {
      _ = try CocoaNibCompiler.compile(document)
    } catch {
      strictlyRefused = error.code == .unsupported && error.line == line
    }
    #expect(strictlyRefused)
    let lenient = try CocoaNibCompiler.compileLeniently(document)
    #expect(lenient.warnings.map(\.element) == ["ruleEditor", "webView"])
    #expect(lenient.warnings.first?.line == line)
  }

  @Test func anAttributeOrAValueTheCompilerRefusesIsLeftOutAndTheElementCompiledAppleSWay() throws {
    let folder = try ScratchFolder("lenient-attribute")
    defer { folder.remove() }
    // A text color in a CMYK color space (refused) and an outlet to the File's Owner around it.
    let text = LoaderStepTests.xib(
      ownerClass: "LenientOwner",
      owner: #"<outlet property="label" destination="tf2" id="c1"/>"#,
      LoaderStepTests.window(
        id: "w1", content: "v1",
        subviews: """
          <textField translatesAutoresizingMaskIntoConstraints="NO" id="tf2">
              <rect key="frame" x="4" y="5" width="80" height="21"/>
              <textFieldCell key="cell" title="Name" id="tf2c">
                  <font key="font" metaFont="system"/>
                  <color key="textColor" cyan="0.5" magenta="0.1" yellow="0.4" black="0.6" alpha="1" colorSpace="custom" customColorSpace="genericCMYKColorSpace"/>
              </textFieldCell>
          </textField>
          """
      ))
    let path = try LoaderStepTests.write(text, to: "Form.xib", in: folder)
    let line = try Self.line(of: "genericCMYKColorSpace", in: text)
    let nib = try Nib(contentsOf: path, lenient: true)
    #expect(nib.compileWarnings == ["\(path):\(line): <color> left out: <color> in the custom color space \"genericCMYKColorSpace\" is not compiled yet"])
    let owner = LenientOwner()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes))
    #expect(owner.label?.text == "Name")
    #expect(owner.label?.superview != nil, "the text field is in its window's content view")
    withExtendedLifetime(loaded) {}
  }

  @Test func malformedAndDanglingDocumentsAreRefusedInLenientModeToo() throws {
    let folder = try ScratchFolder("lenient-malformed")
    defer { folder.remove() }
    let broken = try LoaderStepTests.write(LoaderStepTests.xib(#"<customObject id="o1">"#), to: "Broken.xib", in: folder)
    let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: broken, lenient: true) }
    #expect((error?.underlying as? InterfaceBuilderError)?.code == .malformedXML)
    let dangling = try LoaderStepTests.write(
      LoaderStepTests.xib(owner: #"<outlet property="label" destination="nowhere" id="c1"/>"#, ""), to: "Dangling.xib", in: folder)
    let danglingError = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: dangling, lenient: true) }
    #expect((danglingError?.underlying as? InterfaceBuilderError)?.code == .invalidDocument)
    // Many refused elements: each is a warning, and compiling stays bounded.
    let many = (0..<40).map { #"<frobnicator flavor="\#($0)" id="f\#($0)"/>"# }.joined(separator: "\n")
    let manyPath = try LoaderStepTests.write(LoaderStepTests.xib(many), to: "Many.xib", in: folder)
    let nib = try Nib(contentsOf: manyPath, lenient: true)
    #expect(nib.compileWarnings.count == 40)
    let loaded = try nib.load(owner: nil)
    #expect(loaded.topLevelObjects.compactMap { ($0 as? GenericObject)?["flavor"] as? String }.count == 40)
  }

  /// A connection from one scene's object to another scene's controller: Interface Builder does
  /// not make one (each scene is a nib of its own), so both compiles leave it out; the strict one
  /// (`ibtool --compile`'s) warns, naming its line, and the storyboard loads in either mode.
  @Test func aConnectionAcrossStoryboardScenesIsLeftOut() throws {
    let folder = try ScratchFolder("lenient-cross-scene")
    defer { folder.remove() }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" initialViewController="vcA">
          <dependencies>
              <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="22504"/>
          </dependencies>
          <scenes>
              <scene sceneID="sA">
                  <objects>
                      <viewController id="vcA" sceneMemberID="viewController">
                          <view key="view" contentMode="scaleToFill" id="viewA">
                              <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                              <subviews>
                                  <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="b1">
                                      <rect key="frame" x="10" y="10" width="80" height="30"/>
                                      <state key="normal" title="Go"/>
                                      <connections>
                                          <action selector="go:" destination="vcB" eventType="touchUpInside" id="a1"/>
                                      </connections>
                                  </button>
                              </subviews>
                          </view>
                      </viewController>
                      <placeholder placeholderIdentifier="IBFirstResponder" id="frA" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="sB">
                  <objects>
                      <viewController storyboardIdentifier="Second" id="vcB" sceneMemberID="viewController"/>
                      <placeholder placeholderIdentifier="IBFirstResponder" id="frB" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
          </scenes>
      </document>

      """
    let path = try LoaderStepTests.write(text, to: "Cross.storyboard", in: folder)
    let line = try Self.line(of: #"selector="go:""#, in: text)
    let compiled = try CocoaTouchStoryboardCompiler.compile(try InterfaceDocument(contentsOfFile: path))
    let warnings = compiled.warnings.values.flatMap { $0 }.map(\.description)
    #expect(warnings.count == 1)
    #expect(warnings.first?.hasPrefix("\(path):\(line): <action> go: to vcB, an object of another scene, left out") == true, "\(warnings)")
    // Apple's encoding: the warning names the connection, both objects and the other scene.
    let apple = try UIKitStoryboardCompiler.compile(try InterfaceDocument(contentsOfFile: path))
    #expect(apple.warnings.keys.sorted() == ["UIViewController-vcA"])
    let appleWarnings = apple.warnings.values.flatMap { $0 }.map(\.description)
    #expect(
      appleWarnings == [
        "\(path):\(line): <action> \"go:\" from \"button\" (b1) to \"viewController\" (vcB), an object of the scene Second: "
          + "left out, as a connection cannot join two scenes (each scene is a nib of its own)"
      ])
    for strict in [false, true] {
      let storyboard = try Storyboard(contentsOf: path, options: Nib.Options(isStrict: strict))
      #expect(storyboard.compileWarnings.isEmpty)
      let initial = try storyboard.instantiateInitialViewController()
      let controller = try #require(initial)
      try controller.loadViewIfNeeded()
      let button = try #require(controller.view?.subviews.first as? Button)
      #expect(button.eventActions.isEmpty, "the action to another scene is left out")
    }
  }
}

/// A File's Owner with outlets to a best-effort object and to its subview.
@MainActor final class LenientOwner: NibObject {
  var editor: AnyObject?
  var web: AnyObject?
  weak var label: TextField?

  required init() { super.init() }

  static let keys = KeyTable(for: LenientOwner.self, inheriting: NibObject.objectKeys) {
    $0.key("editor", \.editor)
    $0.key("label", \.label)
    $0.key("web", \.web)
  }
  override class var keyTable: KeyTable { keys }
}
