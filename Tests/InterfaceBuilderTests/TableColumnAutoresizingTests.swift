import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// How the compiler lays out a cell-based table's columns in its scroll view (the rule read off
/// Apple's pairs scrollview_table, sv16b, test_outline_small_sv, test_6col, test_sv2), on small
/// documents written here: each case states the columns, the table's width and what AppKit makes
/// of them.
@Suite struct TableColumnAutoresizingTests {
  /// A column of the documents below: its width, min and max widths, and whether it resizes with the table.
  struct Column {
    var width: Double
    var minWidth: Double = 40
    var maxWidth: Double = 1000
    var resizesWithTable = true
  }

  /// A view (or, with `inWindow`, a window's content view) holding a 2-point-bordered scroll view
  /// with hidden scrollers whose table is `tableWidth` wide.
  static func document(
    style: String, columns: [Column], tableWidth: Double, spacing: Double = 3, inWindow: Bool = false, hasHorizontalScroller: Bool = false,
    verticalScrollerHidden: Bool = true
  ) -> [UInt8] {
    var columnElements = ""
    for (index, column) in columns.enumerated() {
      let mask = column.resizesWithTable ? "<tableColumnResizingMask key=\"resizingMask\" resizeWithTable=\"YES\"/>" : ""
      columnElements += """
                                    <tableColumn identifier="c\(index)" width="\(column.width)" minWidth="\(column.minWidth)" maxWidth="\(column.maxWidth)" id="col\(index)">
                                        <tableHeaderCell key="headerCell" lineBreakMode="truncatingTail" borderStyle="border" title="H"/>
                                        <textFieldCell key="dataCell" lineBreakMode="truncatingTail" selectable="YES" editable="YES" title="Text" id="cell\(index)">
                                            <font key="font" metaFont="system"/>
                                        </textFieldCell>
                                        \(mask)
                                    </tableColumn>

        """
    }
    let scrollView = """
                    <scrollView autohidesScrollers="YES" hasHorizontalScroller="\(hasHorizontalScroller ? "YES" : "NO")" id="sv">
                        <rect key="frame" x="20" y="20" width="\(tableWidth + 2)" height="150"/>
                        <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                        <clipView key="contentView" id="clip">
                            <rect key="frame" x="1" y="1" width="\(tableWidth)" height="148"/>
                            <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                            <subviews>
                                <tableView columnAutoresizingStyle="\(style)" multipleSelection="NO" autosaveColumns="NO" id="table">
                                    <rect key="frame" x="0.0" y="0.0" width="\(tableWidth)" height="148"/>
                                    <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                    <size key="intercellSpacing" width="\(spacing)" height="2"/>
                                    <tableColumns>
        \(columnElements)
                                    </tableColumns>
                                </tableView>
                            </subviews>
                        </clipView>
                        <scroller key="horizontalScroller" hidden="YES" horizontal="YES" id="hs">
                            <rect key="frame" x="-100" y="-100" width="100" height="15"/>
                            <autoresizingMask key="autoresizingMask"/>
                        </scroller>
                        <scroller key="verticalScroller" hidden="\(verticalScrollerHidden ? "YES" : "NO")" horizontal="NO" id="vs">
                            <rect key="frame" x="-100" y="-100" width="15" height="100"/>
                            <autoresizingMask key="autoresizingMask"/>
                        </scroller>
                    </scrollView>
      """
    let container =
      inWindow
      ? """
              <window title="W" id="w">
                  <windowStyleMask key="styleMask" titled="YES" resizable="YES"/>
                  <rect key="contentRect" x="100" y="100" width="\(tableWidth + 42)" height="200"/>
                  <rect key="screenRect" x="0.0" y="0.0" width="1440" height="877"/>
                  <view key="contentView" id="content">
                      <rect key="frame" x="0.0" y="0.0" width="\(tableWidth + 42)" height="200"/>
                      <autoresizingMask key="autoresizingMask"/>
                      <subviews>
        \(scrollView)
                      </subviews>
                  </view>
              </window>
        """
      : """
              <customView id="view">
                  <rect key="frame" x="0" y="0" width="\(tableWidth + 42)" height="200"/>
                  <autoresizingMask key="autoresizingMask"/>
                  <subviews>
        \(scrollView)
                  </subviews>
              </customView>
        """
    return CocoaNibCompilerUnitTests.xib(container)
  }

  /// What the compiled table says: its NSFrameSize, the NSWidth of each column and NSTvFlags bits
  /// 21–22 (1 narrower, 2 filled, 3 grown).
  struct Laid: Equatable {
    var tableSize: String
    var widths: [Double]
    var relation: Int
  }

  /// Compiled without AppKit's ICC profiles (the clip view's catalog background color needs them).
  static func compile(_ bytes: [UInt8]) throws(InterfaceBuilderError) -> NibGraph {
    try CocoaNibCompiler.compile(try InterfaceDocument(bytes: bytes, path: "t.xib"), options: .init(omitsColorProfiles: true))
  }

  static func laidOut(_ bytes: [UInt8]) throws -> Laid {
    let graph = try compile(bytes)
    let table = try #require(graph.objects.firstIndex { $0.className == "NSTableView" })
    guard case .object(let size)? = graph[table]["NSFrameSize"], let tableSize = graph.text(of: size) else {
      Issue.record("the table has no NSFrameSize")
      return Laid(tableSize: "", widths: [], relation: 0)
    }
    let widths = graph.objects.indices.filter { graph[$0].className == "NSTableColumn" }.compactMap { column -> Double? in
      if case .float64(let width)? = graph[column]["NSWidth"] { return width }
      return nil
    }
    let flags: Int
    switch graph[table]["NSTvFlags"] {
    case .int8(let value)?: flags = Int(value)
    case .int16(let value)?: flags = Int(value)
    case .int32(let value)?: flags = Int(value)
    case .int64(let value)?: flags = Int(value)
    default: flags = 0
    }
    return Laid(tableSize: tableSize, widths: widths, relation: (flags >> 21) & 3)
  }

  @Test func columnsWithRoomToSpareKeepTheirWidths() throws {
    // 250 + 32 = 282 ≤ 289 (test_sv2): nothing moves, the columns are narrower than the table.
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: [Column(width: 250)], tableWidth: 289))
      == Laid(tableSize: "{289, 148}", widths: [250], relation: 1))
    // Exactly 32 to spare: the columns fill the table.
    #expect(try Self.laidOut(Self.document(style: "uniform", columns: [Column(width: 100), Column(width: 165)], tableWidth: 300))
      == Laid(tableSize: "{300, 148}", widths: [100, 165], relation: 2))
  }

  @Test func theLastColumnShrinksSoThatTheColumnsLeave12Points() throws {
    // scrollview_table: 20 + 115 + 3 + 32 = 170 > 141, so the last column gives 9: 20 + 106 + 3 + 12 = 141.
    let columns = [Column(width: 20, minWidth: 20, maxWidth: 20, resizesWithTable: false), Column(width: 115)]
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: columns, tableWidth: 141))
      == Laid(tableSize: "{141, 148}", widths: [20, 106], relation: 2))
  }

  @Test func anOverflowingColumnCanAlsoGrowToTheFit() throws {
    // sv16b: 542 + 32 = 574 > 568 overflows, yet 542 + 12 < 568: the column grows to 556.
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: [Column(width: 542, maxWidth: 100_000)], tableWidth: 568))
      == Laid(tableSize: "{568, 148}", widths: [556], relation: 2))
  }

  @Test(arguments: ["uniform", "sequential", "reverseSequential", "firstColumnOnly"])
  func theOneColumnItsStyleResizesTakesTheChange(_ style: String) throws {
    // test_outline_small_sv (uniform): 231 + 34 + 31 + 2 × 3 + 32 > 301; the first column, the
    // only one that resizes with the table, gives 13. The other styles resize the same column.
    let columns = [Column(width: 231, minWidth: 38.6), Column(width: 34, minWidth: 10, resizesWithTable: false), Column(width: 31, minWidth: 10, resizesWithTable: false)]
    #expect(try Self.laidOut(Self.document(style: style, columns: columns, tableWidth: 301))
      == Laid(tableSize: "{301, 148}", widths: [218, 34, 31], relation: 2))
  }

  @Test func aTableGrowsWhenNoColumnItsStyleResizesCanShrink() throws {
    // test_6col: the one column that resizes with the table is at its minimum; test_table_no_header:
    // none resizes. The table grows to what the columns need (Σ + spacing + 32), flag "grown".
    let pinned = [Column(width: 111, resizesWithTable: false), Column(width: 20, minWidth: 20)]
    #expect(try Self.laidOut(Self.document(style: "uniform", columns: pinned, tableWidth: 130))
      == Laid(tableSize: "{166, 148}", widths: [111, 20], relation: 3))
    let fixed = [Column(width: 120, resizesWithTable: false), Column(width: 234, resizesWithTable: false)]
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: fixed, tableWidth: 363))
      == Laid(tableSize: "{389, 148}", widths: [120, 234], relation: 3))
    // "none" resizes nothing.
    #expect(try Self.laidOut(Self.document(style: "none", columns: [Column(width: 300)], tableWidth: 200))
      == Laid(tableSize: "{332, 148}", widths: [300], relation: 3))
  }

  /// Combinations no Apple sample shows are refused, naming the table's line and why.
  @Test func unverifiedCombinationsAreRefused() {
    let cases: [(String, [UInt8])] = [
      ("several columns", Self.document(style: "uniform", columns: [Column(width: 178), Column(width: 172)], tableWidth: 358)),
      ("minimum or maximum", Self.document(style: "lastColumnOnly", columns: [Column(width: 20, minWidth: 20, resizesWithTable: false), Column(width: 115, minWidth: 110)], tableWidth: 141)),
      ("resizes none of the columns", Self.document(style: "lastColumnOnly", columns: [Column(width: 200), Column(width: 100, resizesWithTable: false)], tableWidth: 300)),
    ]
    for (reason, bytes) in cases {
      let error = expectError(InterfaceBuilderError.self, .unsupported, "\(reason)") { try Self.laidOut(bytes) }
      #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
      #expect(error?.line != nil)
    }
  }

  @Test func aWindowTakes29PointsOffColumnsThatFillTheTable() throws {
    // test_single_col_noresize / test_table_1col_autohide: 350 + 12 ≥ 358.
    #expect(try Self.laidOut(Self.document(style: "uniform", columns: [Column(width: 350)], tableWidth: 358, inWindow: true))
      == Laid(tableSize: "{358, 148}", widths: [321], relation: 1))
    // test_table_mult_sel_no: shares by width, rounded (14.75 → 15), the last column the rest.
    #expect(try Self.laidOut(Self.document(style: "uniform", columns: [Column(width: 178), Column(width: 172)], tableWidth: 358, inWindow: true))
      == Laid(tableSize: "{358, 148}", widths: [163, 158], relation: 1))
    // test_outline_indent (as a table): the last column alone.
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: [Column(width: 178), Column(width: 172)], tableWidth: 358, inWindow: true))
      == Laid(tableSize: "{358, 148}", widths: [178, 143], relation: 1))
    // sv_nohs_small_vs: exactly 12 to spare still counts as filling.
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: [Column(width: 344)], tableWidth: 356, inWindow: true))
      == Laid(tableSize: "{356, 148}", widths: [315], relation: 1))
  }

  /// Window tables outside what the five samples show are refused, saying why.
  @Test func unverifiedWindowTablesAreRefused() {
    let cases: [(String, [UInt8])] = [
      ("more than 12 points", Self.document(style: "uniform", columns: [Column(width: 330)], tableWidth: 358, inWindow: true)),
      ("neither uniform nor last column only", Self.document(style: "sequential", columns: [Column(width: 350)], tableWidth: 358, inWindow: true)),
      ("hidden until needed", Self.document(style: "uniform", columns: [Column(width: 350)], tableWidth: 358, inWindow: true, verticalScrollerHidden: false)),
      ("how its columns share", Self.document(style: "uniform", columns: [Column(width: 200, minWidth: 190), Column(width: 160, minWidth: 10)], tableWidth: 370, inWindow: true)),
      ("minimum width", Self.document(style: "lastColumnOnly", columns: [Column(width: 300, resizesWithTable: false), Column(width: 60)], tableWidth: 370, inWindow: true)),
    ]
    for (reason, bytes) in cases {
      let error = expectError(InterfaceBuilderError.self, .unsupported, "\(reason)") { try Self.laidOut(bytes) }
      #expect(error?.description.contains("resizes with its window") == true, "\(error?.description ?? "")")
      #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
    }
  }

  @Test func aWindowTableWithRoomToSpareIsCompiled() throws {
    // The window's resizing only shows on overflowing columns (imagecell_datacell_font: 35 to spare).
    #expect(try Self.laidOut(Self.document(style: "lastColumnOnly", columns: [Column(width: 100), Column(width: 240)], tableWidth: 378, inWindow: true))
      == Laid(tableSize: "{378, 148}", widths: [100, 240], relation: 1))
  }

  @Test func aFilledTableWithoutHorizontalScrollerHidesItsCornerView() throws {
    func cornerFlags(_ bytes: [UInt8]) throws -> Int? {
      let graph = try Self.compile(bytes)
      let corner = try #require(graph.objects.firstIndex { $0.className == "_NSCornerView" })
      switch graph[corner]["NSvFlags"] {
      case .int16(let value)?: return Int(value)
      case .int32(let value)?: return Int(value)
      case .int64(let value)?: return Int(value)
      default: return nil
      }
    }
    let columns = [Column(width: 20, minWidth: 20, maxWidth: 20, resizesWithTable: false), Column(width: 115)]
    // scrollview_table: hidden (0x80000000 | 0x100); HSChooserWindow, with a horizontal scroller: shown.
    #expect(try cornerFlags(Self.document(style: "lastColumnOnly", columns: columns, tableWidth: 141)) == -2_147_483_392)
    #expect(try cornerFlags(Self.document(style: "lastColumnOnly", columns: columns, tableWidth: 141, hasHorizontalScroller: true)) == 256)
  }
}

