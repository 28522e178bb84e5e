import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// Features compiled from the archive keys AppKit's (and WebKit's, Foundation's) decoders read,
/// with no Apple-compiled sample in the corpus: each writes the keys, types and values below
/// and reports an unverified-feature warning.
@Suite struct AppKitDecoderKeyTests {
  /// The graph and warnings of a small document whose objects are `objects` (in a window's
  /// content view when `inWindow`).
  static func compile(_ objects: String, inWindow: Bool = true) throws(InterfaceBuilderError) -> Compilation {
    try CocoaNibCompiler.compileReportingUnverified(
      try CocoaNibCompilerUnitTests.document(objects, inWindow: inWindow), options: .init(omitsColorProfiles: true))
  }

  static func only(_ graph: NibGraph, _ className: String) throws -> Int {
    let found = CocoaNibCompilerControlsTests.objects(graph, className)
    #expect(found.count == 1, "\(found.count) \(className) objects")
    return try #require(found.first)
  }

  static func target(_ graph: NibGraph, _ index: Int, _ key: String) throws -> Int {
    try #require(CocoaNibCompilerControlsTests.target(graph, index, key), "no object for \(key)")
  }

  static func text(_ graph: NibGraph, _ index: Int, _ key: String) throws -> String? {
    graph.text(of: try target(graph, index, key))
  }

  static func warned(_ compilation: Compilation, _ element: String) -> Bool {
    compilation.warnings.contains { $0.element == element && $0.detail.contains("not checked against an Apple-compiled nib") }
  }

  // MARK: Tables

  @Test func aSortDescriptorPrototypeIsAnNSSortDescriptor() throws {
    let sort = #"<sortDescriptor key="sortDescriptorPrototype" selector="localizedCompare:" sortKey="name" ascending="NO"/>"#
    let bytes = TableAttributeTests.table("", prototypes: sort)
    let compilation = try CocoaNibCompiler.compileReportingUnverified(
      try InterfaceDocument(bytes: bytes, path: "t.xib"), options: .init(omitsColorProfiles: true))
    let graph = compilation.graph
    let column = try Self.only(graph, "NSTableColumn")
    let descriptor = try Self.target(graph, column, "NSSortDescriptorPrototype")
    #expect(graph[descriptor].className == "NSSortDescriptor")
    #expect(try Self.text(graph, descriptor, "NSKey") == "name")
    #expect(graph[descriptor]["NSAscending"] == .bool(false))
    #expect(try Self.text(graph, descriptor, "NSSelector") == "localizedCompare:")
    #expect(graph[descriptor]["NSReverseNullOrder"] == .bool(false))
    #expect(Self.warned(compilation, "sortDescriptor"))
    let keys = graph[column].entries.map(\.key)
    #expect(keys.firstIndex(of: "NSSortDescriptorPrototype")! < keys.firstIndex(of: "NSTableView")!)
    // Without one, no key.
    let plain = try TableColumnAutoresizingTests.compile(TableAttributeTests.table(""))
    #expect(plain[try Self.only(plain, "NSTableColumn")]["NSSortDescriptorPrototype"] == nil)
  }

  /// `selectionHighlightStyle="none"` → NSTableViewSelectionHighlightStyle -1 (AppKit's enum,
  /// an int64 as Apple's nibs hold every negative integer), where a source list's 1 goes: after
  /// NSAllowsTypeSelect, before the table style; the dragging feedback stays regular (0), as
  /// only a source list changes it. No Apple sample, so warned; a style AppKit lacks is an error.
  @Test func aTableWithoutSelectionHighlightingArchivesStyleMinusOne() throws {
    let bytes = TableAttributeTests.table(#"selectionHighlightStyle="none" tableStyle="plain""#)
    let compilation = try CocoaNibCompiler.compileReportingUnverified(
      try InterfaceDocument(bytes: bytes, path: "t.xib"), options: .init(omitsColorProfiles: true))
    let graph = compilation.graph
    let table = try Self.only(graph, "NSTableView")
    #expect(graph[table]["NSTableViewSelectionHighlightStyle"] == .int64(-1))
    #expect(graph[table]["NSTableViewDraggingDestinationStyle"] == .int8(0))
    let keys = graph[table].entries.map(\.key)
    let highlight = try #require(keys.firstIndex(of: "NSTableViewSelectionHighlightStyle"))
    #expect(keys[highlight - 1] == "NSAllowsTypeSelect")
    #expect(keys[highlight + 1] == "NSTableViewStyle")
    #expect(keys[highlight + 2] == "NSTableViewDraggingDestinationStyle")
    func warnedOfHighlight(_ compilation: Compilation) -> Bool {
      compilation.warnings.contains { $0.element == "tableView" && $0.detail.contains("selectionHighlightStyle") }
    }
    #expect(warnedOfHighlight(compilation))
    // Regular: no key and no warning of it.
    let regular = try CocoaNibCompiler.compileReportingUnverified(
      try InterfaceDocument(bytes: TableAttributeTests.table(#"selectionHighlightStyle="regular""#), path: "t.xib"),
      options: .init(omitsColorProfiles: true))
    #expect(regular.graph[try Self.only(regular.graph, "NSTableView")]["NSTableViewSelectionHighlightStyle"] == nil)
    #expect(!warnedOfHighlight(regular))
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) {
      try TableAttributeTests.tableEntries(TableAttributeTests.table(#"selectionHighlightStyle="gradient""#))
    }
    #expect(error?.line != nil)
  }

  @Test func aTableStyleAndGroupRowsThatDoNotFloatAreArchived() throws {
    #expect(try TableAttributeTests.tableEntries(TableAttributeTests.table(#"tableStyle="inset""#))["NSTableViewStyle"] == .int8(2))
    #expect(try TableAttributeTests.tableEntries(TableAttributeTests.table(#"tableStyle="fullWidth""#))["NSTableViewStyle"] == .int8(1))
    #expect(try TableAttributeTests.tableEntries(TableAttributeTests.table(#"tableStyle="plain""#))["NSTableViewStyle"] == .int8(4))
    let automatic = try TableAttributeTests.tableEntries(TableAttributeTests.table(#"tableStyle="automatic""#))
    #expect(automatic["NSTableViewStyle"] == nil)
    #expect(automatic["NSTableViewShouldFloatGroupRows"] == nil)
    #expect(try TableAttributeTests.tableEntries(TableAttributeTests.table(#"floatsGroupRows="NO""#))["NSTableViewShouldFloatGroupRows"] == .bool(false))
    #expect(try TableAttributeTests.tableEntries(TableAttributeTests.table(#"floatsGroupRows="YES""#))["NSTableViewShouldFloatGroupRows"] == nil)
    _ = expectError(InterfaceBuilderError.self, .invalidDocument) { try TableAttributeTests.tableEntries(TableAttributeTests.table(#"tableStyle="sideways""#)) }
  }

  /// Where a public ibtool re-implementation read these keys off Apple's compiles of
  /// NetNewsWire's CurrentActivityWindow.xib and SidebarView.xib: the style between
  /// NSAllowsTypeSelect (or a source list's highlight style) and the dragging destination
  /// style, floating group rows just before NSTableViewGroupRowStyle.
  @Test func theTableStyleAndGroupRowFloatingKeysSitWhereApplesNibsHaveThem() throws {
    func keys(_ attributes: String) throws -> [String] {
      let graph = try TableColumnAutoresizingTests.compile(TableAttributeTests.table(attributes))
      let table = try #require(graph.objects.firstIndex { $0.className == "NSTableView" })
      return graph[table].entries.map(\.key)
    }
    func following(_ keys: [String], _ key: String) -> String? {
      guard let index = keys.firstIndex(of: key), index + 1 < keys.count else { return nil }
      return keys[index + 1]
    }
    let inset = try keys(#"tableStyle="inset" floatsGroupRows="NO""#)
    #expect(following(inset, "NSAllowsTypeSelect") == "NSTableViewStyle")
    #expect(following(inset, "NSTableViewStyle") == "NSTableViewDraggingDestinationStyle")
    #expect(following(inset, "NSTableViewShouldFloatGroupRows") == "NSTableViewGroupRowStyle")
    let sourceList = try keys(#"tableStyle="fullWidth" selectionHighlightStyle="sourceList""#)
    #expect(following(sourceList, "NSTableViewSelectionHighlightStyle") == "NSTableViewStyle")
    #expect(following(sourceList, "NSTableViewStyle") == "NSTableViewDraggingDestinationStyle")
  }

  /// A table without <size key="intercellSpacing">: 0×0, so its scroll view's line scroll is the
  /// row height alone (a public ibtool re-implementation's reading of Apple's compile of
  /// NetNewsWire's TimelineTableView.xib: rowHeight 96, line scroll 96); with one, its values.
  @Test func aTableWithoutIntercellSpacingHasNone() throws {
    let bytes = TableAttributeTests.table(#"rowHeight="96""#)
    let compilation = try CocoaNibCompiler.compileReportingUnverified(try InterfaceDocument(bytes: bytes, path: "t.xib"), options: .init(omitsColorProfiles: true))
    let graph = compilation.graph
    let table = try Self.only(graph, "NSTableView")
    #expect(graph[table]["NSIntercellSpacingWidth"] == .float64(0))
    #expect(graph[table]["NSIntercellSpacingHeight"] == .float64(0))
    let scroll = try Self.only(graph, "NSScrollView")
    guard case .data(let amounts)? = graph[scroll]["NSScrollAmts"] else { Issue.record("no NSScrollAmts"); return }
    // Four big-endian floats: page and line amounts; the line ones are the row height.
    let floats = stride(from: 0, to: amounts.count, by: 4).map { Float(bitPattern: amounts[$0..<$0 + 4].reduce(0) { $0 << 8 | UInt32($1) }) }
    #expect(floats.suffix(2) == [96, 96])
    #expect(Self.warned(compilation, "tableView"))
    let given = TableAttributeTests.table(#"rowHeight="96""#, gridColor: #"<size key="intercellSpacing" width="3" height="2"/>"#)
    let spaced = try TableColumnAutoresizingTests.compile(given)
    let spacedTable = try Self.only(spaced, "NSTableView")
    #expect(spaced[spacedTable]["NSIntercellSpacingWidth"] == .float64(3))
    #expect(spaced[spacedTable]["NSIntercellSpacingHeight"] == .float64(2))
  }

  /// Two resizable columns whose prototypes leave 40 points of the row: no single column to
  /// give them to, so the cell views keep the document's frames (with a warning).
  @Test func prototypesThatDoNotFillTheRowKeepTheDocumentsFrames() throws {
    func column(_ id: String, x: Int) -> String {
      """
      <tableColumn identifier="\(id)" width="100" minWidth="40" maxWidth="1000" id="col\(id)">
          <tableHeaderCell key="headerCell" lineBreakMode="truncatingTail" borderStyle="border"/>
          <textFieldCell key="dataCell" title="Text" id="cell\(id)"><font key="font" metaFont="system"/></textFieldCell>
          <tableColumnResizingMask key="resizingMask" resizeWithTable="YES" userResizable="YES"/>
          <prototypeCellViews>
              <tableCellView id="proto\(id)">
                  <rect key="frame" x="\(x)" y="1" width="100" height="17"/>
              </tableCellView>
          </prototypeCellViews>
      </tableColumn>
      """
    }
    let objects = """
          <scrollView borderType="none" autohidesScrollers="YES" hasHorizontalScroller="NO" id="sv">
              <rect key="frame" x="0" y="0" width="300" height="200"/>
              <clipView key="contentView" id="clip">
                  <rect key="frame" x="0" y="0" width="300" height="200"/>
                  <subviews>
                      <tableView viewBased="YES" columnAutoresizingStyle="uniform" id="table">
                          <rect key="frame" x="0.0" y="0.0" width="300" height="200"/>
                          <tableColumns>\(column("A", x: 11))\(column("B", x: 114))</tableColumns>
                      </tableView>
                  </subviews>
              </clipView>
          </scrollView>
      """
    let compilation = try Self.compile(objects)
    let graph = compilation.graph
    let frames = CocoaNibCompilerControlsTests.objects(graph, "NSTableCellView").compactMap { graph.text(of: graph[$0], forKey: "NSFrame") }
    #expect(frames == ["{{11, 1}, {100, 17}}", "{{114, 1}, {100, 17}}"])
    #expect(compilation.warnings.contains { $0.element == "tableView" && $0.detail.contains("kept at the document's frames") })
  }

  // MARK: Grid views

  static func grid(cells: String) -> String {
    """
          <gridView xPlacement="trailing" yPlacement="center" rowAlignment="none" rowSpacing="7" columnSpacing="8" id="grid">
              <rect key="frame" x="20" y="20" width="300" height="50"/>
              <rows>
                  <gridRow id="r1"/>
                  <gridRow id="r2"/>
              </rows>
              <columns>
                  <gridColumn id="c1"/>
                  <gridColumn xPlacement="leading" id="c2"/>
              </columns>
              <gridCells>\(cells)</gridCells>
          </gridView>
    """
  }

  static func gridCell(_ row: String, _ column: String, _ id: String) -> String {
    """
    <gridCell row="\(row)" column="\(column)" id="gc\(id)">
        <textField key="contentView" translatesAutoresizingMaskIntoConstraints="NO" id="tf\(id)">
            <rect key="frame" x="0" y="0" width="100" height="21"/>
            <textFieldCell key="cell" title="\(id)" id="tfc\(id)"><font key="font" metaFont="system"/></textFieldCell>
        </textField>
    </gridCell>
    """
  }

  /// The keys' order, the cells held by their rows and the mutable arrays as a public ibtool
  /// re-implementation read them off Apple's compiles of NetNewsWire's AccountsFeedbin.xib and
  /// AccountsReaderAPI.xib.
  @Test func aGridViewArchivesItsRowsColumnsAndCells() throws {
    // Cells listed column by column: each row lists its own in the document's order.
    let cells = Self.gridCell("r1", "c1", "1") + Self.gridCell("r2", "c1", "3") + Self.gridCell("r1", "c2", "2") + Self.gridCell("r2", "c2", "4")
    let compilation = try Self.compile(Self.grid(cells: cells))
    let graph = compilation.graph
    let grid = try Self.only(graph, "NSGridView")
    #expect(Array(graph[grid].entries.map(\.key).suffix(7)) == [
      "NSGrid_rowSpacing", "NSGrid_columnSpacing", "NSGrid_xPlacement", "NSGrid_yPlacement", "NSGrid_alignment", "NSGrid_rows", "NSGrid_columns",
    ])
    #expect(graph[grid]["NSGrid_cells"] == nil)
    #expect(graph[grid]["NSGrid_xPlacement"] == .int8(3))
    #expect(graph[grid]["NSGrid_yPlacement"] == .int8(4))
    #expect(graph[grid]["NSGrid_alignment"] == .int8(1))
    #expect(graph[grid]["NSGrid_rowSpacing"] == .float64(7))
    #expect(graph[grid]["NSGrid_columnSpacing"] == .float64(8))
    let rowsArray = try Self.target(graph, grid, "NSGrid_rows"), columnsArray = try Self.target(graph, grid, "NSGrid_columns")
    #expect(graph[rowsArray].className == "NSMutableArray")
    #expect(graph[columnsArray].className == "NSMutableArray")
    let rows = try #require(graph.members(of: rowsArray))
    let columns = try #require(graph.members(of: columnsArray))
    #expect(rows.map { graph[$0].className } == ["NSGridRow", "NSGridRow"])
    #expect(columns.map { graph[$0].className } == ["NSGridColumn", "NSGridColumn"])
    #expect(graph[rows[0]].entries.map(\.key) == [
      "NSGrid_owningGrid", "NSGrid_yPlacement", "NSGrid_alignment", "NSGrid_height", "NSGrid_topPadding", "NSGrid_bottomPadding", "NSGrid_hidden",
      "NSGrid_cells",
    ])
    #expect(graph[columns[0]].entries.map(\.key) == [
      "NSGrid_owningGrid", "NSGrid_xPlacement", "NSGrid_width", "NSGrid_leadingPadding", "NSGrid_trailingPadding", "NSGrid_hidden",
    ])
    #expect(graph[columns[1]]["NSGrid_xPlacement"] == .int8(2))
    #expect(graph[columns[0]]["NSGrid_xPlacement"] == .int8(0))
    #expect(graph[rows[0]]["NSGrid_height"] == .float64(Double(Float.leastNormalMagnitude)))
    #expect(graph[rows[0]]["NSGrid_hidden"] == .bool(false))
    #expect(graph[rows[0]]["NSGrid_owningGrid"] == .object(grid))
    var titles: [[String?]] = []
    for row in rows {
      let cellsArray = try Self.target(graph, row, "NSGrid_cells")
      #expect(graph[cellsArray].className == "NSMutableArray")
      var rowTitles: [String?] = []
      for cell in graph.members(of: cellsArray) ?? [] {
        #expect(graph[cell].className == "NSGridCell")
        #expect(graph[cell].entries.map(\.key) == [
          "NSGrid_owningRow", "NSGrid_owningColumn", "NSGrid_mergeHead", "NSGrid_xPlacement", "NSGrid_yPlacement", "NSGrid_alignment", "NSGrid_content",
        ])
        #expect(graph[cell]["NSGrid_owningRow"] == .object(row))
        let content = try Self.target(graph, cell, "NSGrid_content")
        #expect(graph[content].className == "NSTextField")
        #expect(graph[content]["NSSuperview"] == .object(grid))
        rowTitles.append(try Self.text(graph, try Self.target(graph, content, "NSCell"), "NSContents"))
      }
      titles.append(rowTitles)
    }
    #expect(titles == [["1", "2"], ["3", "4"]])
    // The content views are the grid's subviews, in the document's order.
    let subviews = try #require(graph.members(of: try Self.target(graph, grid, "NSSubviews")))
    #expect(try subviews.map { try Self.text(graph, try Self.target(graph, $0, "NSCell"), "NSContents") } == ["1", "3", "2", "4"])
    #expect(Self.warned(compilation, "gridView"))
  }

  @Test func aGridViewWithAMissingCellIsRefused() {
    let cells = Self.gridCell("r1", "c1", "1") + Self.gridCell("r1", "c2", "2") + Self.gridCell("r2", "c1", "3")
    let error = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(Self.grid(cells: cells)) }
    #expect(error?.line != nil)
  }

  @Test func aSecureTextFieldKeepsItsAllowedInputLocales() throws {
    let objects = """
          <secureTextField verticalHuggingPriority="750" id="s1">
              <rect key="frame" x="10" y="10" width="200" height="21"/>
              <secureTextFieldCell key="cell" scrollable="YES" lineBreakMode="clipping" selectable="YES" editable="YES" borderStyle="bezel" drawsBackground="YES" usesSingleLineMode="YES" id="s2">
                  <font key="font" metaFont="system"/>
                  <allowedInputSourceLocales>
                      <string>NSAllRomanInputSourcesLocaleIdentifier</string>
                  </allowedInputSourceLocales>
              </secureTextFieldCell>
          </secureTextField>
      """
    let compilation = try Self.compile(objects)
    let graph = compilation.graph
    let field = try Self.only(graph, "NSSecureTextField")
    let cell = try Self.target(graph, field, "NSCell")
    #expect(graph[cell].className == "NSSecureTextFieldCell")
    let locales = try #require(graph.members(of: try Self.target(graph, cell, "NSAllowedInputLocales")))
    #expect(locales.map { graph.text(of: $0) } == ["NSAllRomanInputSourcesLocaleIdentifier"])
    #expect(graph[field]["NSAllowsWritingTools"] == .bool(false))
    #expect(Self.warned(compilation, "secureTextField"))
  }

  /// A text field "t1" with `attributes` and a plain cell "t2" titled "x".
  static func textField(_ attributes: String) -> String {
    """
          <textField \(attributes) id="t1">
              <rect key="frame" x="10" y="40" width="200" height="21"/>
              <textFieldCell key="cell" title="x" id="t2"><font key="font" metaFont="system"/></textFieldCell>
          </textField>
      """
  }

  /// textCompletion="NO" as a public ibtool re-implementation read it off Apple's compile of
  /// NetNewsWire's AccountsAddCloudKit.xib: NSAutomaticTextCompletionDisabled true, the cell's
  /// last key (after a secure cell's allowed input locales).
  @Test func textCompletionOffIsTheCellsLastKey() throws {
    let objects = """
          <textField textCompletion="NO" id="t1">
              <rect key="frame" x="10" y="40" width="200" height="21"/>
              <textFieldCell key="cell" selectable="YES" editable="YES" title="x" id="t2"><font key="font" metaFont="system"/></textFieldCell>
          </textField>
          <secureTextField textCompletion="NO" id="s1">
              <rect key="frame" x="10" y="10" width="200" height="21"/>
              <secureTextFieldCell key="cell" selectable="YES" editable="YES" id="s2">
                  <font key="font" metaFont="system"/>
                  <allowedInputSourceLocales><string>NSAllRomanInputSourcesLocaleIdentifier</string></allowedInputSourceLocales>
              </secureTextFieldCell>
          </secureTextField>
          <textField id="t3">
              <rect key="frame" x="10" y="70" width="200" height="21"/>
              <textFieldCell key="cell" title="y" id="t4"><font key="font" metaFont="system"/></textFieldCell>
          </textField>
      """
    let compilation = try Self.compile(objects)
    let graph = compilation.graph
    let fields = CocoaNibCompilerControlsTests.objects(graph, "NSTextField")
    #expect(fields.count == 2)
    let cell = try Self.target(graph, fields[0], "NSCell")
    #expect(graph[cell].entries.last == .init("NSAutomaticTextCompletionDisabled", .bool(true)))
    let plain = try Self.target(graph, fields[1], "NSCell")
    #expect(graph[plain]["NSAutomaticTextCompletionDisabled"] == nil)
    let secure = try Self.target(graph, try Self.only(graph, "NSSecureTextField"), "NSCell")
    #expect(graph[secure].entries.suffix(2).map(\.key) == ["NSAllowedInputLocales", "NSAutomaticTextCompletionDisabled"])
    #expect(compilation.warnings.contains { $0.element == "textField" && $0.detail.contains("NSAutomaticTextCompletionDisabled") })
    #expect(compilation.warnings.contains { $0.element == "secureTextField" && $0.detail.contains("NSAutomaticTextCompletionDisabled") })
  }

  /// contentType as NSTextContentType, after NSTextFieldAlignmentRectInsetsVersion (where a
  /// public ibtool re-implementation writes it for NetNewsWire's About window).
  @Test func aTextFieldsContentTypeIsNSTextContentType() throws {
    let compilation = try Self.compile(Self.textField(#"contentType="url""#))
    let graph = compilation.graph
    let field = try Self.only(graph, "NSTextField")
    #expect(try Self.text(graph, field, "NSTextContentType") == "url")
    let keys = graph[field].entries.map(\.key)
    let index = try #require(keys.firstIndex(of: "NSTextContentType"))
    #expect(keys[index - 1] == "NSTextFieldAlignmentRectInsetsVersion")
    #expect(keys[index + 1] == "NSAllowsWritingTools")
    #expect(Self.warned(compilation, "textField"))
  }

  /// A layer-backed subview's NSViewIsLayerTreeHost follows its NSSuperview (HSChooserWindow's
  /// pair; a public ibtool re-implementation read the same off Apple's compile of NetNewsWire's
  /// ActivityLogWindow.xib); a root view's follows its frame size.
  @Test func aLayerBackedSubviewIsALayerTreeHostAfterItsSuperview() throws {
    let compilation = try Self.compile(Self.textField(#"wantsLayer="YES""#))
    let graph = compilation.graph
    let field = try Self.only(graph, "NSTextField")
    let keys = graph[field].entries.map(\.key)
    let index = try #require(keys.firstIndex(of: "NSViewIsLayerTreeHost"))
    #expect(Array(keys[(index - 2)...(index + 1)]) == ["NSFrame", "NSSuperview", "NSViewIsLayerTreeHost", "NSViewWantsBestResolutionOpenGLSurface"])
  }

  // MARK: Controllers

  @Test func anArrayControllerArchivesItsControllerKeys() throws {
    let objects = """
          <arrayController editable="NO" preservesSelection="NO" avoidsEmptySelection="NO" id="ac">
              <declaredKeys>
                  <string>visibleKey</string>
                  <string>displayValue</string>
              </declaredKeys>
              <connections>
                  <binding destination="-2" name="contentArray" keyPath="items" id="b1"/>
              </connections>
          </arrayController>
      """
    let compilation = try Self.compile(objects, inWindow: false)
    let graph = compilation.graph
    let controller = try Self.only(graph, "NSArrayController")
    let object = graph[controller]
    #expect(object["NSEditable"] == .bool(false))
    #expect(object["NSAutomaticallyPreparesContent"] == .bool(false))
    #expect(object["NSAvoidsEmptySelection"] == .bool(false))
    #expect(object["NSPreservesSelection"] == .bool(false))
    #expect(object["NSSelectsInsertedObjects"] == .bool(true))
    #expect(object["NSClearsFilterPredicateOnInsertion"] == .bool(true))
    #expect(try Self.text(graph, controller, "NSObjectClassName") == "NSMutableDictionary")
    let keys = try #require(graph.members(of: try Self.target(graph, controller, "NSDeclaredKeys")))
    #expect(keys.map { graph.text(of: $0) } == ["visibleKey", "displayValue"])
    #expect(object.entries.first?.key == "NSDeclaredKeys")
    #expect(Self.warned(compilation, "arrayController"))
    _ = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(#"<arrayController mode="entity" id="ac"/>"#, inWindow: false) }
  }

  @Test func aUserDefaultsControllerOfItsOwnIsNotTheSharedOne() throws {
    let own = try Self.compile(#"<userDefaultsController appliesImmediately="NO" id="u1"><declaredKeys><string>SUIncludeProfile</string></declaredKeys></userDefaultsController>"#, inWindow: false)
    let controller = try Self.only(own.graph, "NSUserDefaultsController")
    #expect(own.graph[controller]["NSSharedInstance"] == nil)
    #expect(own.graph[controller]["NSAppliesImmediately"] == .bool(false))
    // A bare one: {NSAppliesImmediately true} alone, as a public re-implementation read it off
    // Apple's compile of a NetNewsWire preferences nib.
    let bare = try Self.compile(#"<userDefaultsController id="u1"/>"#, inWindow: false)
    let bareController = try Self.only(bare.graph, "NSUserDefaultsController")
    #expect(bare.graph[bareController].entries == [.init("NSAppliesImmediately", .bool(true))])
    #expect(own.graph.members(of: try Self.target(own.graph, controller, "NSDeclaredKeys"))?.count == 1)
    #expect(Self.warned(own, "userDefaultsController"))
    let shared = try Self.compile(#"<userDefaultsController representsSharedInstance="YES" id="u1"/>"#, inWindow: false)
    let sharedController = try Self.only(shared.graph, "NSUserDefaultsController")
    #expect(shared.graph[sharedController].entries.map(\.key) == ["NSSharedInstance"])
    #expect(shared.warnings.isEmpty)
  }

  // MARK: Web views

  @Test func aWebViewArchivesItsConfigurationWithWebKitsKeys() throws {
    func webView(_ media: String) -> String {
      """
          <wkWebView wantsLayer="YES" id="web">
              <rect key="frame" x="0.0" y="0.0" width="480" height="270"/>
              <wkWebViewConfiguration key="configuration">
                  <audiovisualMediaTypes key="mediaTypesRequiringUserActionForPlayback" \(media)="YES"/>
                  <wkPreferences key="preferences"/>
              </wkWebViewConfiguration>
          </wkWebView>
      """
    }
    let compilation = try Self.compile(webView("none"))
    let graph = compilation.graph
    let view = try Self.only(graph, "WKWebView")
    #expect(graph[view]["NSSuperview"] != nil)
    #expect(graph[view]["allowsLinkPreview"] == .bool(true))
    #expect(graph[view]["magnification"] == .float64(1))
    let configuration = try Self.target(graph, view, "configuration")
    #expect(graph[configuration].className == "WKWebViewConfiguration")
    #expect(graph[configuration]["drawsBackground"] == .bool(true))
    let preferences = try Self.target(graph, configuration, "preferences")
    #expect(graph[preferences].className == "WKPreferences")
    #expect(graph[preferences]["javaScriptEnabled"] == .bool(true))
    #expect(graph[preferences]["minimumFontSize"] == .float64(0))
    #expect(Self.warned(compilation, "wkWebView"))
    _ = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(webView("audio")) }
  }

  // MARK: Toolbars and stack views

  @Test func systemToolbarItemsSendTheirActionsToTheFirstResponder() throws {
    let window = AppKitPublicSampleRuleTests.toolbarWindow(
      #"<toolbarItem implicitItemIdentifier="NSToolbarShowColorsItem" id="i1"/><toolbarItem implicitItemIdentifier="NSToolbarShowFontsItem" id="i2"/>"#
        + #"<toolbarItem implicitItemIdentifier="NSToolbarPrintItem" id="i3"/>"#,
      defaults: #"<toolbarItem reference="i3"/>"#)
    let compilation = try Self.compile(window, inWindow: false)
    let graph = compilation.graph
    let items = CocoaNibCompilerControlsTests.objects(graph, "NSToolbarItem")
    var found: [String: (action: String?, label: String?, size: String?)] = [:]
    for item in items {
      guard let identifier = try Self.text(graph, item, "NSToolbarItemIdentifier") else { continue }
      found[identifier] = (try Self.text(graph, item, "NSToolbarItemAction"), try Self.text(graph, item, "NSToolbarItemLabel"), try Self.text(graph, item, "NSToolbarItemMinSize"))
      #expect(graph[item]["NSToolbarItemTarget"] == .null)
      #expect(graph[item]["NSToolbarItemBordered"] == .bool(true))
    }
    #expect(found["NSToolbarShowColorsItem"]?.action == "orderFrontColorPanel:")
    #expect(found["NSToolbarShowFontsItem"]?.label == "Fonts")
    #expect(found["NSToolbarPrintItem"]?.action == "printDocument:")
    #expect(found["NSToolbarPrintItem"]?.size == "{35, 24}")
    #expect(compilation.warnings.filter { $0.element == "toolbarItem" }.count == 3)
  }

  @Test func aStackViewsOwnPrioritiesAreArchivedLikeAnyViews() throws {
    func stack(_ priorities: String) -> String {
      """
          <stackView distribution="fill" orientation="horizontal" alignment="centerY" horizontalStackHuggingPriority="249.99998474121094" verticalStackHuggingPriority="249.99998474121094" \(priorities) id="st">
              <rect key="frame" x="10" y="10" width="100" height="20"/>
          </stackView>
      """
    }
    let compilation = try Self.compile(stack(#"horizontalHuggingPriority="251" verticalCompressionResistancePriority="250""#))
    let graph = compilation.graph
    let view = try Self.only(graph, "NSStackView")
    #expect(try Self.text(graph, view, "NSHuggingPriority") == "{251, 250}")
    #expect(try Self.text(graph, view, "NSAntiCompressionPriority") == "{750, 250}")
    #expect(Self.warned(compilation, "stackView"))
    let plain = try Self.compile(stack(""))
    let plainView = try Self.only(plain.graph, "NSStackView")
    #expect(plain.graph[plainView]["NSHuggingPriority"] == nil)
    #expect(plain.graph[plainView]["NSAntiCompressionPriority"] == nil)
    #expect(plain.warnings.isEmpty)
  }
}
