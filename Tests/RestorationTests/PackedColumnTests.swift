import Foundation
import Restoration
import Testing
import TestSupport

/// The packed integer columns of a written snapshot, read by Foundation's `NSKeyedUnarchiver`
/// and decoded by hand: every column has the narrowest width of 1, 2, 4 or 8 bytes that holds
/// all its values, little-endian, and holds exactly the nodes' values; Stasis reads them back
/// equal.
@Suite("Restoration: packed columns are the narrowest little-endian integers, read back equal")
struct PackedColumnTests {
  @Test("Seeded versions and state sizes of every width: Foundation reads the narrowest packing of exactly those values", arguments: 0..<6)
  func narrowestWidth(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    // Each seed draws its values from one band, so that every width is the narrowest in some run.
    let bands: [ClosedRange<Int>] = [-128...127, -32_768...32_767, -2_147_483_648...2_147_483_647, Int.min...Int.max, 0...0, 200...300]
    let band = bands[Int(seed) % bands.count]
    let count = Int.random(in: 1...400, using: &random)
    var nodes: [SnapshotNode] = []
    for index in 0..<count {
      nodes.append(
        SnapshotNode(
          path: ["N\(index)"], kind: .viewController, className: "C", stateVersion: Int.random(in: band, using: &random),
          stateBytes: Int.random(in: 0...band.upperBound, using: &random)))
    }
    let snapshot = Snapshot(
      metadata: SnapshotMetadata(bundleVersion: "1", idiom: 0, timestamp: Date(timeIntervalSinceReferenceDate: 0), systemVersion: "1", sequence: 1),
      nodes: nodes)
    let data = try snapshot.archivedData()
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    for (key, expected) in [("StasisNodeVersions", nodes.map(\.stateVersion)), ("StasisNodeStateBytes", nodes.map(\.stateBytes))] {
      let column = try #require(unarchiver.decodeObject(forKey: key) as? Data, "\(key) is data")
      #expect(column == Self.narrowestPacking(expected), "\(key), seed \(seed)")
    }
    let read = try Snapshot(data: data)
    #expect(read.nodes.map(\.stateVersion) == nodes.map(\.stateVersion))
    #expect(read.nodes.map(\.stateBytes) == nodes.map(\.stateBytes))
  }

  /// The oracle: the narrowest signed width that holds every value, each value's two's
  /// complement bytes least significant first.
  static func narrowestPacking(_ values: [Int]) -> Data {
    let width = [1, 2, 4, 8].first { width in
      width == 8 || values.allSatisfy { $0 >= -(1 << (8 * width - 1)) && $0 < 1 << (8 * width - 1) }
    }!
    var bytes: [UInt8] = []
    for value in values {
      let bits = UInt64(bitPattern: Int64(value))
      for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(byte)))) }
    }
    return Data(bytes)
  }
}
