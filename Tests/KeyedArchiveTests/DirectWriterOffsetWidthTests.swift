import Foundation
import KeyedArchive
import PropertyLists
import Testing

/// Checks the one-pass binary archive writer's offset table at its width boundaries: the
/// offset table starts at 255/256/257 and 65,535/65,536/65,537 bytes (a data object sized to put
/// it there), where the offsets' width goes from 1 to 2 and from 2 to 4 bytes. The archive must be
/// the general writer's, its trailer must give the narrowest width that holds the table's start
/// (CF's `_byteCount(length_so_far)`), and Foundation must read it back.
@Suite("The one-pass archive writer's offsets across 2^8 and 2^16 bytes")
struct DirectWriterOffsetWidthTests {
  static func archive(dataCount: Int, direct: Bool) throws -> (data: Data, wasDirect: Bool) {
    let archiver = KeyedArchiver()
    archiver.writesBinaryDirectly = direct
    try archiver.encode([Data(repeating: 0xA5, count: dataCount), "tail"] as [Any], forKey: "root")
    return (try archiver.finishEncoding(), archiver.wroteBinaryDirectly)
  }

  /// The offset table's start, read from the trailer's last 8 bytes (big-endian).
  static func tableStart(_ data: Data) -> Int {
    data.suffix(8).reduce(0) { $0 << 8 | Int($1) }
  }

  @Test(arguments: [256, 65_536])
  func offsetTableAtAWidthBoundary(boundary: Int) throws {
    // Find the data size that puts the offset table at the boundary, then go either side of it.
    let probe = try Self.archive(dataCount: 100, direct: false).data
    let overhead = Self.tableStart(probe) - 100
    var starts: Set<Int> = []
    for dataCount in (boundary - overhead - 3)...(boundary - overhead + 3) where dataCount >= 0 {
      let direct = try Self.archive(dataCount: dataCount, direct: true)
      let general = try Self.archive(dataCount: dataCount, direct: false)
      #expect(direct.wasDirect, "\(dataCount) bytes of data")
      #expect(direct.data == general.data, "\(dataCount) bytes of data")
      let start = Self.tableStart(direct.data)
      starts.insert(start)
      let trailer = direct.data.suffix(32)
      let offsetWidth = Int(trailer[trailer.startIndex + 6])
      #expect(offsetWidth == (start <= 0xFF ? 1 : start <= 0xFFFF ? 2 : 4), "table at \(start)")
      // Foundation reads it (and so finds every object through the offsets).
      let read = try PropertyListSerialization.propertyList(from: direct.data, format: nil)
      #expect((read as? [String: Any])?["$archiver"] as? String == "NSKeyedArchiver")
    }
    // The boundary itself and both sides of it were written.
    #expect(starts.contains(boundary - 1) && starts.contains(boundary) && starts.contains(boundary + 1), "\(starts.sorted())")
  }
}
