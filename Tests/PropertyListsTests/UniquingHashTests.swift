import Testing
import TestSupport

@testable import PropertyLists

/// The binary writer's byte hash (`UniquingTable.hashBytes`), which reads whole words, four lanes
/// at a time, and the last partial word in at most three reads: equal bytes hash alike wherever
/// they lie, and every byte counts.
@Suite("Uniquing table's byte hash")
struct UniquingHashTests {
  /// Seeded runs of every length from 0 to 100 bytes, hashed at each of eight alignments inside
  /// a larger buffer (whose bytes around the run differ from one placement to the next): the same
  /// hash each time; changing any one byte of the run changes it.
  @Test func equalBytesHashAlikeAndEveryByteCounts() {
    var rng = SplitMix64(seed: 33)
    for length in 0...100 {
      let run = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      let expected = Self.hash(run, at: 0, filler: 0)
      for alignment in 1..<8 {
        #expect(Self.hash(run, at: alignment, filler: UInt8(truncatingIfNeeded: alignment &* 37)) == expected, "length \(length), alignment \(alignment)")
      }
      for position in run.indices {
        var changed = run
        changed[position] ^= 0x01
        #expect(Self.hash(changed, at: 3, filler: 0xFF) != expected, "length \(length), byte \(position)")
      }
    }
  }

  /// Strings and data with the same bytes hash apart (the seed), and so do runs that differ only
  /// in length by trailing zero bytes.
  @Test func seedAndLengthSeparateRuns() {
    let run: [UInt8] = Array("dateCreated".utf8)
    let asString = run.withUnsafeBytes { UniquingTable.hashBytes($0, seed: 1) }
    let asData = run.withUnsafeBytes { UniquingTable.hashBytes($0, seed: 7) }
    #expect(asString != asData)
    for length in 0..<40 {
      let shorter = [UInt8](repeating: 0, count: length)
      let longer = [UInt8](repeating: 0, count: length + 1)
      #expect(shorter.withUnsafeBytes { UniquingTable.hashBytes($0, seed: 1) } != longer.withUnsafeBytes { UniquingTable.hashBytes($0, seed: 1) })
    }
  }

  /// `run` placed at `offset` in a buffer of `filler` bytes with eight more after it, hashed.
  static func hash(_ run: [UInt8], at offset: Int, filler: UInt8) -> UInt64 {
    var buffer = [UInt8](repeating: filler, count: offset + run.count + 8)
    buffer.replaceSubrange(offset..<(offset + run.count), with: run)
    return buffer.withUnsafeBytes { UniquingTable.hashBytes(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + run.count)]), seed: 1) }
  }
}
