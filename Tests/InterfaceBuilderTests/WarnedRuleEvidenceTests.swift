import Foundation
import Interface
import TestSupport
import Testing

@testable import InterfaceBuilder

/// The rules that rest on the public Python clone (viraptor/ibtool) re-checked against every
/// Apple-compiled NIBArchive nib of the corpus: where the corpus has samples the rule must agree
/// with each of them; the counts record how much evidence there is (a rule with no sample stays
/// reported as unverified by `--compile`, and `Docs/ibtool.md` lists it).
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct WarnedRuleEvidenceTests {
  /// Every Apple-made NIBArchive nib of the corpus (the ibtool pairs, storyboards' nibs among
  /// them), as graphs with their file names.
  static let appleNibs: [(name: String, graph: NibGraph)] = Corpus.files(in: "nib").compactMap { file in
    guard file.path.hasSuffix(".nib"), let bytes = try? file.bytes(), NIBArchive.isNIBArchive(bytes), let nib = try? NIBArchive(bytes: bytes) else {
      return nil
    }
    return (file.name, NibGraph(nib))
  }

  static func objects(_ className: String) -> [(name: String, graph: NibGraph, object: NibGraph.Object)] {
    appleNibs.flatMap { nib in nib.graph.objects.filter { $0.className == className }.map { (nib.name, nib.graph, $0) } }
  }

  static func integer(_ payload: NIBArchive.Payload?) -> Int? {
    payload?.integerValue
  }

  @Test func theCorpusHasAppleNibs() {
    #expect(Self.appleNibs.count >= 150)
  }

  /// NSButtonFlags2 0x10000000 for a key equivalent without a modifier mask (clone's
  /// HAS_KEY_EQUIVALENT): no corpus button cell has a non-empty key equivalent, and none of the
  /// 60-odd cells without one has the bit — consistent, the bit itself still unverified.
  @Test func aKeyEquivalentsFlagAgreesWithEveryButtonCell() {
    let cells = Self.objects("NSButtonCell")
    var withKey = 0
    for (name, graph, cell) in cells {
      let key = graph.text(of: cell, forKey: "NSKeyEquivalent") ?? ""
      let flags2 = Self.integer(cell["NSButtonFlags2"]) ?? 0
      if !key.isEmpty { withKey += 1 }
      if key.isEmpty { #expect(flags2 & 0x1000_0000 == 0, "\(name): a cell without a key equivalent has the bit") }
    }
    #expect(cells.count >= 40)
    #expect(withKey == 0, "a corpus sample now exists: check the rule against it and drop its warning")
  }

  /// NSTextBezelStyle 1 right after NSControlView for `bezelStyle="round"` (taken from search
  /// field cells for text field cells): both corpus samples are search field cells so placed;
  /// no text field cell in the corpus has the key.
  @Test func theTextBezelKeyAgreesWithEverySample() {
    for className in ["NSSearchFieldCell", "NSTextFieldCell", "NSSecureTextFieldCell", "NSTokenFieldCell", "NSComboBoxCell"] {
      for (name, _, cell) in Self.objects(className) {
        guard let position = cell.entries.firstIndex(where: { $0.key == "NSTextBezelStyle" }) else { continue }
        #expect(className == "NSSearchFieldCell", "\(name): a \(className) with NSTextBezelStyle")
        #expect(Self.integer(cell.entries[position].value) == 1)
        #expect(position > 0 && cell.entries[position - 1].key == "NSControlView", "\(name)")
      }
    }
    #expect(Self.objects("NSSearchFieldCell").filter { $0.object["NSTextBezelStyle"] != nil }.count == 2)
  }

  /// NSCellFlags 0x00800000 for a text field cell's `borderStyle="border"` (the clone's
  /// BORDERED): no corpus text field cell has the bit, and no corpus pair's xib asks for a plain
  /// border — no sample either way.
  @Test func noTextFieldCellHasTheBorderedBit() throws {
    let cells = Self.objects("NSTextFieldCell")
    for (name, _, cell) in cells { #expect((Self.integer(cell["NSCellFlags"]) ?? 0) & 0x0080_0000 == 0, "\(name)") }
    #expect(cells.count >= 100)
    var bordered = 0
    for file in Corpus.files(in: "xib/ibtool_pairs") where file.pathExtension == "xib" {
      let document = try InterfaceDocument(contentsOfFile: file.path)
      func count(_ element: InterfaceDocument.Element) {
        if element.name == "textFieldCell", element["borderStyle"] == "border" { bordered += 1 }
        element.children.forEach(count)
      }
      count(document.root)
    }
    #expect(bordered == 0, "a corpus sample now exists: check the rule against it")
  }

  /// NSControlWritingDirection: -1 (natural, an int64) on every control with a cell, 0 (an
  /// int8) on every one without and on matrices (whose NSCell is a plain NSActionCell); the
  /// other two directions (0 and 1 on a cell's control) rest on AppKit's NSWritingDirection and
  /// the clone's map.
  @Test func everyControlsWritingDirectionIsNatural() {
    var withCell = 0, without = 0
    for nib in Self.appleNibs {
      for object in nib.graph.objects where object["NSControlWritingDirection"] != nil {
        if object["NSCell"] != nil && object.className != "NSMatrix" {
          #expect(object["NSControlWritingDirection"] == .int64(-1), "\(nib.name): \(object.className)")
          withCell += 1
        } else {
          #expect(object["NSControlWritingDirection"] == .int8(0), "\(nib.name): \(object.className)")
          without += 1
        }
      }
    }
    #expect(withCell >= 100 && without >= 100)
  }

  /// A progress indicator archives no value (the clone writes none for `doubleValue`; AppKit's
  /// decoder reads none): the corpus's one progress indicator (blocklist_big) has no value key.
  @Test func progressIndicatorsArchiveNoValue() {
    let indicators = Self.objects("NSProgressIndicator")
    for (name, _, indicator) in indicators {
      #expect(!indicator.entries.contains { ["NSValue", "NSCurValue", "NSDoubleValue"].contains($0.key) }, "\(name)")
    }
    #expect(indicators.count == 1)
  }

  /// The families no corpus nib shows, whose keys rest on the clone alone (window content
  /// borders, grid views, accessibility connectors, table styles' vignettes): still none.
  @Test func theCloneOnlyFamiliesHaveNoCorpusSample() {
    var contentBorders = 0, grids = 0, accessibility = 0
    for nib in Self.appleNibs {
      for object in nib.graph.objects {
        if object.entries.contains(where: { $0.key.hasPrefix("NSContentBorderThickness") }) { contentBorders += 1 }
        if object.className.hasPrefix("NSGrid") { grids += 1 }
        if object.className == "NSNibAXAttributeConnector" { accessibility += 1 }
      }
    }
    #expect(contentBorders == 0 && grids == 0 && accessibility == 0, "a corpus sample now exists: check the rule against it")
  }
}
