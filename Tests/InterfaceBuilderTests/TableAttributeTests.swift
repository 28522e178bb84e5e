import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// Table keys read off HSChooserWindow, on small documents.
@Suite struct TableAttributeTests {
  static func table(_ attributes: String, gridColor: String = "", clipExtra: String = "", prototypes: String = "") -> [UInt8] {
    CocoaNibCompilerUnitTests.xib(
      """
              <customView id="view">
                  <rect key="frame" x="0" y="0" width="300" height="200"/>
                  <subviews>
                      <scrollView borderType="none" autohidesScrollers="YES" id="sv">
                          <rect key="frame" x="0" y="0" width="300" height="200"/>
                          <clipView key="contentView" id="clip">
                              <rect key="frame" x="0" y="0" width="300" height="200"/>
                              <subviews>
                                  <tableView \(attributes) id="table">
                                      <rect key="frame" x="0.0" y="0.0" width="300" height="200"/>
                                      \(gridColor)
                                      <tableColumns>
                                          <tableColumn width="268" minWidth="40" maxWidth="1000" id="col">
                                              <tableHeaderCell key="headerCell" lineBreakMode="truncatingTail" borderStyle="border"/>
                                              <textFieldCell key="dataCell" title="Text" id="cell">
                                                  <font key="font" metaFont="system"/>
                                              </textFieldCell>
                                              \(prototypes)
                                          </tableColumn>
                                      </tableColumns>
                                  </tableView>
                              </subviews>
                              \(clipExtra)
                          </clipView>
                      </scrollView>
                  </subviews>
              </customView>
      """)
  }

  static func tableEntries(_ bytes: [UInt8]) throws -> [String: NIBArchive.Payload] {
    let graph = try TableColumnAutoresizingTests.compile(bytes)
    let table = try #require(graph.objects.firstIndex { $0.className == "NSTableView" })
    var entries: [String: NIBArchive.Payload] = [:]
    for entry in graph[table].entries { entries[entry.key] = entry.value }
    return entries
  }

  @Test func aSourceListWritesItsHighlightAndDraggingStyles() throws {
    let plain = try Self.tableEntries(Self.table(""))
    #expect(plain["NSTableViewSelectionHighlightStyle"] == nil)
    #expect(plain["NSTableViewDraggingDestinationStyle"] == .int8(0))
    let sourceList = try Self.tableEntries(Self.table(#"selectionHighlightStyle="sourceList""#))
    #expect(sourceList["NSTableViewSelectionHighlightStyle"] == .int8(1))
    #expect(sourceList["NSTableViewDraggingDestinationStyle"] == .int8(1))
  }

  @Test func automaticRowHeightsAreArchived() throws {
    #expect(try Self.tableEntries(Self.table(#"usesAutomaticRowHeights="YES""#))["NSTableViewUseARH"] == .bool(true))
    #expect(try Self.tableEntries(Self.table(""))["NSTableViewUseARH"] == nil)
  }

  @Test func aClipViewWithANilBackgroundHasNoBackgroundColor() throws {
    func clipKeys(_ bytes: [UInt8]) throws -> [String] {
      let graph = try TableColumnAutoresizingTests.compile(bytes)
      let clip = try #require(graph.objects.firstIndex { $0.className == "NSClipView" })
      return graph[clip].entries.map(\.key)
    }
    #expect(try clipKeys(Self.table("")).contains("NSBGColor"))
    #expect(try !clipKeys(Self.table("", clipExtra: #"<nil key="backgroundColor"/>"#)).contains("NSBGColor"))
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try clipKeys(Self.table("", clipExtra: #"<nil key="textColor"/>"#)) }
    #expect(error?.line != nil)
  }

  @Test func aPrototypeWithItsOwnIdentifierKeepsItInTheDocument() throws {
    func reuseIdentifiers(_ identifier: String) throws -> [String?] {
      let cell = """
        <prototypeCellViews>
            <tableCellView \(identifier) id="proto">
                <rect key="frame" x="11" y="1" width="277" height="17"/>
                <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
            </tableCellView>
        </prototypeCellViews>
        """
      let graph = try TableColumnAutoresizingTests.compile(Self.table(#"viewBased="YES""#, prototypes: cell))
      // The document's own copy (the reusable views' nibs are data).
      return graph.objects.indices.filter { graph[$0].className == "NSTableCellView" }.map { view in
        if case .object(let text)? = graph[view]["NSReuseIdentifierKey"] { return graph.text(of: text) }
        return nil
      }
    }
    #expect(try reuseIdentifiers(#"identifier="OwnCell""#) == ["OwnCell"])
    #expect(try reuseIdentifiers("") == [nil])
  }

  @Test func aDeviceWhiteColorIsColorSpace4() throws {
    let bytes = Self.table("", gridColor: #"<color key="gridColor" white="0.80000000000000004" alpha="0.0" colorSpace="deviceWhite"/>"#)
    let graph = try TableColumnAutoresizingTests.compile(bytes)
    let table = try #require(graph.objects.firstIndex { $0.className == "NSTableView" })
    guard case .object(let color)? = graph[table]["NSGridColor"] else { Issue.record("no NSGridColor"); return }
    #expect(graph[color]["NSColorSpace"] == .int8(4))
    #expect(graph[color]["NSWhite"] == .data(Array("0.8 0".utf8) + [0]))
  }
}
