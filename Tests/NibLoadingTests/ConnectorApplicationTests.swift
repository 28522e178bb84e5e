import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// How the loader applies each kind of connector: tool tips (`NSIBHelpConnector`), accessibility
/// attributes (`NSNibAXAttributeConnector`), ordering-only `NSNibConnector`s, outlets AppKit's
/// classes have (a text field's, menu's, split and tab views' `delegate`), grid views; and that
/// lenient mode never drops a connection without a warning.
@MainActor
@Suite struct ConnectorApplicationTests {
  static func xib(_ objects: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa">
          <objects>
              <customObject id="-2" userLabel="File's Owner" customClass="NSObject"/>
              <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
              <customObject id="-3" userLabel="Application" customClass="NSObject"/>
      \(objects)
          </objects>
      </document>
      """.utf8)
  }

  static func nib(_ objects: String) throws -> Nib {
    Nib(graph: try CocoaNibCompiler.compile(InterfaceDocument(bytes: xib(objects), path: "t.xib")), name: "t.xib")
  }

  /// Evidence: Apple's tooltip_attr.nib and tooltip_child.nib hold NSIBHelpConnector {NSFile
  /// "NSToolTipHelpKey", NSMarker the text}: the marker is the tool tip, not the help key's name.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: [
    ("tooltip_attr", "Tooltip via attribute"), ("tooltip_child", "Tooltip via child element"),
  ])
  func toolTipsAreTheMarkersText(_ name: String, _ text: String) throws {
    let nib = try Nib(contentsOf: Corpus.file("nib/ibtool_pairs/correct/\(name).nib").path)
    let loaded = try nib.load(owner: AppObject(), options: .init(classes: AppClasses.registry(for: [nib.graph]), isStrict: true))
    let tips = loaded.objects.compactMap { ($0 as? View)?.toolTip }
    #expect(tips == [text])
    #expect(loaded.appliedConnections["NSIBHelpConnector"] == 1)
  }

  /// `<accessibility description help>` compiles to NSNibAXAttributeConnectors (AXDescription,
  /// AXHelp) in NSAccessibilityConnectors, which the loader applies as accessibilityLabel and
  /// accessibilityHelp.
  @Test func accessibilityConnectorsSetTheLabelAndHelp() throws {
    let nib = try Self.nib(
      """
              <customView id="5">
                  <rect key="frame" x="0" y="0" width="100" height="100"/>
                  <accessibility description="Feeds" help="The list of feeds"/>
              </customView>
      """)
    let loaded = try nib.load(owner: AppObject(), options: .init(isStrict: true))
    let view = try #require(loaded.topLevelObjects.first as? View)
    #expect(view.accessibilityLabel == "Feeds")
    #expect(view.accessibilityHelp == "The list of feeds")
    #expect(loaded.appliedConnections["NSNibAXAttributeConnector"] == 2)
  }

  /// A text field's `delegate` outlet is set (strictly: the model has the key).
  @Test func aTextFieldsDelegateOutletIsSet() throws {
    let nib = try Self.nib(
      """
              <textField id="5">
                  <rect key="frame" x="0" y="0" width="100" height="22"/>
                  <textFieldCell key="cell" title="x" id="6">
                      <font key="font" metaFont="system"/>
                  </textFieldCell>
                  <connections>
                      <outlet property="delegate" destination="-2" id="7"/>
                  </connections>
              </textField>
      """)
    let owner = AppObject()
    let loaded = try nib.load(owner: owner, options: .init(isStrict: true))
    let field = try #require(loaded.topLevelObjects.first as? TextField)
    #expect(field.delegate === owner)
    #expect(loaded.appliedConnections == ["NSNibOutletConnector": 1])
  }

  /// NetNewsWire's AccountsReaderAPI.xib: its grid view is live with rows, columns and cells whose
  /// content views are the grid's subviews, loaded strictly, without reference cycles.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func gridViewsAreLive() throws {
    let nib = try Nib(contentsOf: Corpus.file("xib/netnewswire/Mac_Preferences_Accounts_AccountsReaderAPI.xib").path)
    let loaded = try nib.load(owner: AppObject(), options: .init(classes: AppClasses.registry(for: [nib.graph]), isStrict: true))
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
    let grid = try #require(loaded.objects.compactMap { $0 as? GridView }.first)
    #expect(grid.numberOfRows > 1 && grid.numberOfColumns == 2)
    for row in grid.rows {
      #expect(row.gridView === grid)
      for cell in row.cells {
        #expect(cell.row === row && cell.column.map { column in grid.columns.contains { $0 === column } } == true)
        if let content = cell.contentView { #expect(content.superview === grid) }
      }
    }
    #expect(grid.cell(atColumnIndex: 1, rowIndex: 0)?.contentView != nil)
  }

  /// A connector whose class the loader does not know, and a help connector for a help file,
  /// are warnings in lenient mode (never silently dropped) and errors in strict mode; neither is
  /// counted as applied.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func lenientModeWarnsForEveryConnectionItSkips() throws {
    let apple = try Nib(contentsOf: Corpus.file("nib/ibtool_pairs/correct/tooltip_attr.nib").path)
    var graph = apple.graph
    let help = try #require(graph.objects.firstIndex { $0.className == "NSIBHelpConnector" })
    guard case .object(let file)? = graph.objects[help]["NSFile"] else { throw TestFailure("no NSFile") }
    graph.objects[file].entries = [.init("NS.bytes", .data(Array("Help.rtf".utf8)))]
    let helpFile = Nib(graph: graph, name: "help-file.nib")
    let lenient = try helpFile.load(owner: AppObject())
    #expect(lenient.warnings.contains { $0.contains("Help.rtf") }, "\(lenient.warnings)")
    #expect(lenient.appliedConnections["NSIBHelpConnector"] == nil)
    #expect(throws: NibLoadingError.self) { try helpFile.load(owner: AppObject(), options: .init(isStrict: true)) }

    var unknown = apple.graph
    let connector = try #require(unknown.objects.firstIndex { $0.className == "NSIBHelpConnector" })
    unknown.objects[connector] = NibGraph.Object(className: "NSNibFutureConnector", entries: unknown.objects[connector].entries)
    let loaded = try Nib(graph: unknown, name: "future.nib").load(owner: AppObject())
    #expect(loaded.warnings.contains { $0.contains("NSNibFutureConnector") && $0.contains("not applied") }, "\(loaded.warnings)")
    #expect(loaded.appliedConnections.isEmpty)
  }

  /// Apple's stack view nibs hold an NSNibConnector per stack view (a decoding-order note): it is
  /// applied (it establishes nothing) and counted.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func orderingConnectorsAreApplied() throws {
    let nib = try Nib(contentsOf: Corpus.file("nib/ibtool_pairs/correct/stackview_identifier.nib").path)
    let loaded = try nib.load(owner: AppObject(), options: .init(classes: AppClasses.registry(for: [nib.graph]), isStrict: true))
    #expect(loaded.appliedConnections["NSNibConnector"] == 1)
    #expect(loaded.warnings.isEmpty)
  }
}
