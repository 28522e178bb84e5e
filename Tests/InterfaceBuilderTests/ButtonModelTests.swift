import Interface
import Testing
import TestSupport

@testable import InterfaceBuilder

/// A button cell compiled from AppKit's model over the whole attribute space Interface Builder
/// writes (every bezel style, every standard behavior, key equivalents with and without
/// modifiers), each rule checked against every Apple-compiled button cell of the corpus.
@Suite struct ButtonModelTests {
  /// A push-in button whose cell carries `cellAttributes` and `cellChildren`.
  static func button(_ cellAttributes: String, children: String = "", button: String = "") -> String {
    """
                        <button \(button) id="b1">
                            <rect key="frame" x="20" y="20" width="90" height="32"/>
                            <buttonCell key="cell" title="Go" alignment="center" \(cellAttributes) id="c1">
                                \(children)
                                <font key="font" metaFont="system"/>
                            </buttonCell>
                        </button>
    """
  }

  static func cell(_ compilation: Compilation) throws -> NibGraph.Object {
    compilation.graph[try AppKitDecoderKeyTests.only(compilation.graph, "NSButtonCell")]
  }

  static func integer(_ object: NibGraph.Object, _ key: String) -> Int? { object[key]?.integerValue }

  // MARK: The bezel in NSButtonFlags2

  /// Every bezel name → NSBezelStyle and NSButtonFlags2's bezel field (`(b & 7) | (b & 8) << 2`),
  /// whatever the button's type: a bevel button with the rounded bezel is 0x1 (the clone's
  /// bevel_rounded_flags), a push button with the textured rounded one 0x23.
  @Test(arguments: CocoaNibCompiler.bezelStyles.sorted { $0.key < $1.key })
  func everyBezelStyleFillsTheBezelField(_ name: String, _ bezel: Int) throws {
    for type in ["push", "bevel", "square"] {
      let compilation = try AppKitDecoderKeyTests.compile(Self.button("type=\"\(type)\" bezelStyle=\"\(name)\""))
      let cell = try Self.cell(compilation)
      #expect(Self.integer(cell, "NSBezelStyle") == bezel)
      let field = (bezel & 0x7) | ((bezel & 0x8) << 2)
      #expect(Self.integer(cell, "NSButtonFlags2") == field, "\(type) \(name)")
    }
  }

  /// The recessed preset (and `showsBorderOnlyWhileMouseInside`) adds bit 0x8 (the corpus's
  /// recessed pair: 0x2D with NSBezelStyle 13); no bezel is no NSBezelStyle key and a zero field
  /// (test_matrix_flags' radio cells).
  @Test func recessedShowsItsBorderOnlyInsideAndNoBezelIsZero() throws {
    let recessed = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"recessed\" bezelStyle=\"recessed\"")))
    #expect(Self.integer(recessed, "NSButtonFlags2") == 0x2D)
    let hovering = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"texturedRounded\" showsBorderOnlyWhileMouseInside=\"YES\"")))
    #expect(Self.integer(hovering, "NSButtonFlags2") == 0x2B)
    let plain = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\"")))
    #expect(Self.integer(plain, "NSButtonFlags2") == 0)
    #expect(plain["NSBezelStyle"] == nil)
  }

  /// Unknown names and values are refused with the cell's line, never written as 0.
  @Test(arguments: [
    "type=\"levitating\" bezelStyle=\"rounded\"", "type=\"push\" bezelStyle=\"thickSquare\"",
    "type=\"push\" bezelStyle=\"rounded\" imageScaling=\"axesIndependently\"", "type=\"push\" bezelStyle=\"rounded\" imagePosition=\"sideways\"",
    "type=\"check\" bezelStyle=\"regularSquare\" state=\"mixed\"", "type=\"push\" bezelStyle=\"rounded\" sound=\"Basso\"",
    "type=\"push\" bezelStyle=\"rounded\" borderStyle=\"groove\"", "type=\"push\" bezelStyle=\"rounded\" lineBreakMode=\"hyphenating\"",
    "type=\"push\" bezelStyle=\"rounded\" controlSize=\"huge\"",
  ])
  func unknownStylesAreRefused(_ attributes: String) {
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try AppKitDecoderKeyTests.compile(Self.button(attributes)) }
    #expect(error?.line == 14, "\(error.map { "\($0)" } ?? "no error")")
  }

  /// The inset's two bits: 0 to 3 as written, past 3 held at 3 (the clone's clamp).
  @Test(arguments: [("0", 0), ("1", 0x2000), ("2", 0x4000), ("3", 0x6000), ("7", 0x6000)])
  func theInsetIsATwoBitField(_ inset: String, _ bits: Int) throws {
    let cell = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\" inset=\"\(inset)\"")))
    #expect((Self.integer(cell, "NSButtonFlags") ?? 0) & 0x6000 == bits)
  }

  // MARK: The button type

  /// Each standard behavior → its NSButtonType in NSAuxButtonType, whatever the preset (a push
  /// button that only lights its contents is a momentary change button, 5).
  @Test(arguments: [
    ("lightByBackground=\"YES\" lightByGray=\"YES\"", 0), ("pushIn=\"YES\" lightByBackground=\"YES\" lightByGray=\"YES\" changeBackground=\"YES\" changeGray=\"YES\"", 1),
    ("pushIn=\"YES\" lightByContents=\"YES\" changeContents=\"YES\"", 2), ("lightByContents=\"YES\" changeContents=\"YES\" doesNotDimImage=\"YES\"", 3),
    ("lightByContents=\"YES\"", 5), ("lightByBackground=\"YES\" lightByGray=\"YES\" changeBackground=\"YES\" changeGray=\"YES\"", 6),
    ("pushIn=\"YES\" lightByBackground=\"YES\" lightByGray=\"YES\"", 7),
  ])
  func everyStandardBehaviorIsItsButtonType(_ behavior: String, _ type: Int) throws {
    let cell = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\"", children: "<behavior key=\"behavior\" \(behavior)/>")))
    #expect(Self.integer(cell, "NSAuxButtonType") == type)
    let radio = try Self.cell(
      AppKitDecoderKeyTests.compile(Self.button("type=\"radio\" bezelStyle=\"regularSquare\"", children: "<behavior key=\"behavior\" \(behavior)/>")))
    #expect(Self.integer(radio, "NSAuxButtonType") == (type == 3 ? 4 : type))
  }

  /// A behavior that is none of the standard ones takes its preset's type (test16_buttons'
  /// disclosure triangle: a toggle, 2).
  @Test func aNonStandardBehaviorTakesItsPresetsType() throws {
    let behavior = "<behavior key=\"behavior\" pushIn=\"YES\" changeBackground=\"YES\" changeGray=\"YES\" lightByContents=\"YES\"/>"
    let triangle = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"disclosureTriangle\" bezelStyle=\"disclosure\"", children: behavior)))
    #expect(Self.integer(triangle, "NSAuxButtonType") == 2)
    let push = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\"", children: behavior)))
    #expect(Self.integer(push, "NSAuxButtonType") == 7)
  }

  // MARK: Key equivalents

  /// A Return key equivalent without a `<modifierMask>` has Interface Builder's default mask,
  /// Command (0x10000000); an empty mask element none; explicit modifiers shifted 8 bits up; an
  /// empty key equivalent nothing.
  @Test func keyEquivalentModifiers() throws {
    let returnKey = "<string key=\"keyEquivalent\" base64-UTF8=\"YES\">\nDQ\n</string>"
    let bare = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\"", children: returnKey)))
    #expect(Self.integer(bare, "NSButtonFlags2") == 0x1000_0001)
    #expect(bare.entries.first { $0.key == "NSKeyEquivalent" } != nil)
    let none = try Self.cell(
      AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\" keyEquivalent=\"a\"", children: "<modifierMask key=\"keyEquivalentModifierMask\"/>")))
    #expect(Self.integer(none, "NSButtonFlags2") == 0x1)
    let compilation = try AppKitDecoderKeyTests.compile(
      Self.button("type=\"push\" bezelStyle=\"rounded\" keyEquivalent=\"a\"", children: "<modifierMask key=\"keyEquivalentModifierMask\" shift=\"YES\" command=\"YES\"/>"))
    #expect(Self.integer(try Self.cell(compilation), "NSButtonFlags2") == 0x1200_0001)
    #expect(compilation.warnings.contains { $0.element == "modifierMask" })
    let empty = try Self.cell(AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\" keyEquivalent=\"\"")))
    #expect(Self.integer(empty, "NSButtonFlags2") == 0x1)
    _ = expectError(InterfaceBuilderError.self, .unsupported) {
      try AppKitDecoderKeyTests.compile(
        Self.button("type=\"push\" bezelStyle=\"rounded\" keyEquivalent=\"a\"", children: "<modifierMask key=\"keyEquivalentModifierMask\" hyper=\"YES\"/>"))
    }
  }

  // MARK: The view's flags and the image position

  /// A control with a cell keeps its focus ring type in the cell (NSCellFlags2 0x8000), its
  /// NSvFlags without 0x1000; a view without a cell sets it.
  @Test func aCellKeepsTheFocusRingType() throws {
    let compilation = try AppKitDecoderKeyTests.compile(
      Self.button("type=\"bevel\" bezelStyle=\"rounded\" focusRingType=\"none\"", button: "focusRingType=\"none\"")
        + "<customView focusRingType=\"none\" id=\"v9\"><rect key=\"frame\" x=\"0\" y=\"0\" width=\"10\" height=\"10\"/></customView>")
    let graph = compilation.graph
    let button = try AppKitDecoderKeyTests.only(graph, "NSButton")
    #expect((Self.integer(graph[button], "NSvFlags") ?? 0) & 0x3000 == 0)
    #expect((Self.integer(try Self.cell(compilation), "NSCellFlags2") ?? 0) & 0x8000 == 0x8000)
    let custom = try AppKitDecoderKeyTests.only(graph, "NSCustomView")
    #expect((Self.integer(graph[custom], "NSvFlags") ?? 0) & 0x3000 == 0x1000)
  }

  /// `leading` and `trailing` are written as a left-to-right layout's left and right, warned.
  @Test func leadingAndTrailingImagePositions() throws {
    for (name, bits) in [("leading", 0x38_0000), ("trailing", 0x28_0000)] {
      let compilation = try AppKitDecoderKeyTests.compile(Self.button("type=\"push\" bezelStyle=\"rounded\" imagePosition=\"\(name)\""))
      #expect((Self.integer(try Self.cell(compilation), "NSButtonFlags") ?? 0) & 0x78_0000 == bits)
      #expect(compilation.warnings.contains { $0.element == "buttonCell" && $0.detail.contains("imagePosition=\"\(name)\"") })
    }
  }
}

/// The button model checked against every Apple-compiled button and popup cell of the corpus.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct ButtonModelEvidenceTests {
  static var cells: [(name: String, graph: NibGraph, object: NibGraph.Object)] {
    WarnedRuleEvidenceTests.objects("NSButtonCell") + WarnedRuleEvidenceTests.objects("NSPopUpButtonCell")
  }

  /// NSButtonFlags2's bezel field is NSBezelStyle (0 without the key) in every cell.
  @Test func theBezelFieldIsTheBezelStyleInEveryCell() {
    var bezels = Set<Int>()
    for (name, _, cell) in Self.cells {
      let flags2 = cell["NSButtonFlags2"]?.integerValue ?? 0
      let bezel = cell["NSBezelStyle"]?.integerValue ?? 0
      #expect((flags2 & 0x7) | ((flags2 & 0x20) >> 2) == bezel, "\(name): 0x\(String(flags2, radix: 16)) with bezel \(bezel)")
      bezels.insert(bezel)
    }
    #expect(Self.cells.count >= 64)
    #expect(bezels.count >= 13, "twelve bezels and none: \(bezels.sorted())")
  }

  /// A control with a cell never has focus ring bits in NSvFlags (its focus ring type is its
  /// cell's); views without a cell do (tables and scroll views with focusRingType="none").
  @Test func controlsWithACellKeepNoFocusRingBits() {
    var withCell = 0, withoutCellSet = 0
    for nib in WarnedRuleEvidenceTests.appleNibs {
      for object in nib.graph.objects {
        guard let flags = object["NSvFlags"]?.integerValue else { continue }
        if case .object = object["NSCell"] {
          #expect(flags & 0x3000 == 0, "\(nib.name): a \(object.className) with a cell and NSvFlags 0x\(String(flags, radix: 16))")
          withCell += 1
        } else if flags & 0x3000 != 0 {
          withoutCellSet += 1
        }
      }
    }
    #expect(withCell >= 170)
    #expect(withoutCellSet >= 4)
  }

  /// NSAuxButtonType is the NSButtonType of the cell's behavior bits (NSButtonFlags' top byte:
  /// pushIn 0x80, changeContents 0x40, changeBackground 0x20, changeGray 0x10, lightByContents
  /// 0x08, lightByBackground 0x04, lightByGray 0x02) whenever they are a standard set; a radio
  /// button's switch behavior is 4.
  @Test func theButtonTypeFollowsTheBehaviorInEveryCell() {
    let names = [(0x80, "pushIn"), (0x40, "changeContents"), (0x20, "changeBackground"), (0x10, "changeGray"), (0x08, "lightByContents"),
      (0x04, "lightByBackground"), (0x02, "lightByGray")]
    var checked = 0
    var types = Set<Int>()
    for (name, graph, cell) in Self.cells {
      let flags = ((cell["NSButtonFlags"]?.integerValue ?? 0) >> 24) & 0xFF
      let behavior = Set(names.filter { flags & $0.0 != 0 }.map(\.1))
      // The predicate editor's own buttons, which AppKit makes, have NSAuxButtonType -1.
      guard (cell["NSAuxButtonType"]?.integerValue ?? -1) >= 0, var expected = CocoaNibCompiler.buttonTypeBehaviors.first(where: { $0.0 == behavior })?.1 else { continue }
      let image = cell["NSAlternateImage"].flatMap { payload -> String? in
        guard case .object(let source) = payload else { return nil }
        return graph.text(of: graph[source], forKey: "NSImageName")
      }
      if expected == 3 && image == "NSRadioButton" { expected = 4 }
      #expect(cell["NSAuxButtonType"]?.integerValue == expected, "\(name): behavior \(behavior.sorted())")
      checked += 1
      types.insert(expected)
    }
    #expect(checked >= 50)
    #expect(types.count == 8, "every standard button type: \(types.sorted())")
  }
}
