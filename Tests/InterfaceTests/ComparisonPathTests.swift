import Testing

@testable import Interface

/// `ibtool --compare`'s report of the first difference: the path from the root as the Python
/// ibtool clone names it (`$root.NSSubviews[1].NSCell.NSContents`), then both values.
@Suite struct ComparisonPathTests {
  /// A window-like graph: the root's `NSSubviews` holds two views, the second with a cell whose
  /// contents are `title`, whose flags are `flags` and whose frame is `frame`.
  static func graph(title: String, flags: Int32 = 0x0400_0000, frame: [UInt8] = [1, 2, 3]) -> NIBArchive {
    var graph = NibGraph(rootClass: "NSObject")
    let first = graph.add("NSView", [.init("NSvFlags", .int32(0x100))])
    let text = graph.string(title)
    let frameData = graph.data(frame)
    let cell = graph.add("NSButtonCell", [.init("NSContents", .object(text)), .init("NSCellFlags", .int32(flags)), .init("NSFrame", .object(frameData))])
    let second = graph.add("NSButton", [.init("NSCell", .object(cell))])
    let subviews = graph.collection("NSMutableArray", [first, second])
    graph.append("NSSubviews", .object(subviews), to: graph.root)
    return NIBArchive(graph)
  }

  @Test func aStringDifferenceIsNamedByPathAndQuoted() {
    let difference = Self.graph(title: "OK").firstDifference(from: Self.graph(title: "Cancel"))
    #expect(difference == "$root.NSSubviews[1].NSCell.NSContents.NS.bytes: \"OK\" vs \"Cancel\"")
  }

  @Test func flagsArePrintedInHex() {
    let difference = Self.graph(title: "OK").firstDifference(from: Self.graph(title: "OK", flags: 0x0400_0001))
    #expect(difference == "$root.NSSubviews[1].NSCell.NSCellFlags: int32 0x4000000 vs int32 0x4000001")
    let negative = Self.graph(title: "OK", flags: -1).firstDifference(from: Self.graph(title: "OK"))
    #expect(negative == "$root.NSSubviews[1].NSCell.NSCellFlags: int32 0xffffffff vs int32 0x4000000")
  }

  @Test func binaryDataIsPrintedInHexWithItsLength() {
    let difference = Self.graph(title: "OK").firstDifference(from: Self.graph(title: "OK", frame: [1, 2, 4]))
    #expect(difference == "$root.NSSubviews[1].NSCell.NSFrame.NS.bytes: <010203> (3 bytes) vs <010204> (3 bytes)")
    let long = [UInt8](repeating: 0xAB, count: 40)
    let truncated = Self.graph(title: "OK", frame: long).firstDifference(from: Self.graph(title: "OK"))
    #expect(truncated == "$root.NSSubviews[1].NSCell.NSFrame.NS.bytes: <\(String(repeating: "ab", count: 32))…> (40 bytes) vs <010203> (3 bytes)")
  }

  @Test func cStringsShowTheirFinalNUL() {
    #expect(NIBArchive.describe(data: Array("1 1 1".utf8) + [0]) == "\"1 1 1\\0\"")
    #expect(NIBArchive.describe(data: Array("a\"b\n".utf8)) == "\"a\\\"b\\n\"")
    #expect(NIBArchive.describe(data: []) == "<> (0 bytes)")
  }
}
