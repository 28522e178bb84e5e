import Foundation
import KeyedArchive
import Restoration
import Testing
import TestSupport

/// Format 2 of the snapshot (packed integer columns, one string table): seeded snapshots of every
/// shape read back equal, and damaged columns are refused with the key that is wrong.
@Suite("Restoration: snapshot format 2 round trips and refuses damaged columns")
struct SnapshotFormatTests {
  static let metadata = SnapshotMetadata(bundleVersion: "3", idiom: 1, timestamp: Date(timeIntervalSinceReferenceDate: 1000), systemVersion: "1", sequence: 2)

  /// A seeded tree: parents before children, unique sibling identifiers, integers of every width.
  func randomSnapshot(seed: UInt64) -> Snapshot {
    var random = SplitMix64(seed: seed)
    var nodes: [SnapshotNode] = []
    let count = Int.random(in: 0...300, using: &random)
    let versions = [0, 1, -1, 127, 128, -129, 40_000, Int(Int32.max) + 1, Int.min, Int.max]
    for index in 0..<count {
      let parent = index == 0 || Int.random(in: 0..<5, using: &random) == 0 ? -1 : Int.random(in: 0..<index, using: &random)
      let identifier = "N\(index)" + (Bool.random(using: &random) ? "é" : "")
      let path = parent >= 0 ? nodes[parent].path + [identifier] : [identifier]
      var state: [String: Any] = [:]
      for key in ["a", "b", "text", "$odd", ""].shuffled(using: &random).prefix(Int.random(in: 0...4, using: &random)) {
        state[key] = Bool.random(using: &random) ? "value \(index)" as Any : [Double(index), -0.5] as Any
      }
      nodes.append(
        SnapshotNode(
          path: path, kind: Bool.random(using: &random) ? .view : .viewController, className: ["A", "B", "Ç"].randomElement(using: &random)!,
          restorationClassName: Bool.random(using: &random) ? "R\(index % 3)" : nil, storyboardName: index % 7 == 0 ? "Main" : nil,
          storyboardIdentifier: index % 7 == 0 ? "scene\(index)" : nil, stateVersion: versions.randomElement(using: &random)!, state: state,
          stateBytes: Int.random(in: 0...70_000, using: &random)))
    }
    return Snapshot(metadata: Self.metadata, applicationState: ["k": 1], nodes: nodes)
  }

  @Test("Seeded snapshots read back node for node", arguments: 0..<25)
  func seededRoundTrip(seed: UInt64) throws {
    let snapshot = randomSnapshot(seed: seed)
    let read = try Snapshot(data: try snapshot.archivedData())
    #expect(read.metadata.format == 2)
    #expect(read.nodes.count == snapshot.nodes.count)
    for (theirs, ours) in zip(read.nodes, snapshot.nodes) {
      #expect(theirs.path == ours.path)
      #expect(theirs.kind == ours.kind)
      #expect(theirs.className == ours.className)
      #expect(theirs.restorationClassName == ours.restorationClassName)
      #expect(theirs.storyboardName == ours.storyboardName && theirs.storyboardIdentifier == ours.storyboardIdentifier)
      #expect(theirs.stateVersion == ours.stateVersion)
      #expect(theirs.stateBytes == ours.stateBytes)
      #expect(theirs.state.keys.sorted() == ours.state.keys.sorted())
      for (key, value) in ours.state {
        #expect(String(describing: theirs.state[key] ?? "missing") == String(describing: value), "\(ours.path) \(key)")
      }
    }
  }

  /// A format-2 archive made by hand, with `change` applied to its top-level values.
  func handMade(_ change: (inout [String: Any]) -> Void) throws -> Data {
    func packed(_ values: [Int8]) -> Data { Data(values.map { UInt8(bitPattern: $0) }) }
    var top: [String: Any] = [
      "StasisRestorationFormat": 2, "StasisNodeCount": 2, "StasisStrings": ["", "Root", "Child", "Main"],
      "StasisNodeIdentifiers": packed([1, 2]), "StasisNodeParents": packed([-1, 0]), "StasisNodeKinds": packed([0, 1]),
      "StasisNodeClasses": packed([3, 3]), "StasisStateCounts": packed([0, 0]), "StasisStateKeys": Data(), "StasisStateValues": [Any](),
    ]
    change(&top)
    let archiver = KeyedArchiver()
    for (key, value) in top.sorted(by: { $0.key < $1.key }) { try archiver.encode(value, forKey: key) }
    return try archiver.finishEncoding()
  }

  @Test("A hand-made format 2 archive reads")
  func handMadeReads() throws {
    let snapshot = try Snapshot(data: try handMade { _ in })
    #expect(snapshot.nodes.map(\.path) == [["Root"], ["Root", "Child"]])
    #expect(snapshot.nodes.map(\.kind) == [.viewController, .view])
  }

  @Test(
    "Damaged columns are refused naming the key",
    arguments: [
      ("StasisNodeParents", "a length that is no width"), ("StasisNodeIdentifiers", "an index past the table"),
      ("StasisNodeCount", "a negative count"), ("StasisStateKeys", "fewer keys than the counts"), ("StasisNodeClasses", "a missing column"),
      ("StasisNodeParents", "a parent after its child"),
    ])
  func damagedColumns(key: String, damage: String) throws {
    let data = try handMade { top in
      switch damage {
      case "a length that is no width": top[key] = Data([0xFF, 0, 0])
      case "an index past the table": top[key] = Data([1, 9])
      case "a negative count": top[key] = -2
      case "fewer keys than the counts": top["StasisStateCounts"] = Data([0, 1])
      case "a missing column": top[key] = nil
      default: top[key] = Data([1, 0xFF])
      }
    }
    let error = expectError(RestorationError.self, .corruptSnapshot) { try Snapshot(data: data, path: "hand.archive") }
    #expect("\(error.map { "\($0)" } ?? "")".contains(key), "\(damage): \(error.map { "\($0)" } ?? "no error")")
  }

  @Test("Two siblings with one path are refused, also when the string table repeats the name")
  func repeatedSiblingPaths() throws {
    for table in [["", "Root", "Child", "Main"], ["", "Root", "Child", "Main", "Child"]] {
      let data = try handMade { top in
        top["StasisNodeCount"] = 3
        top["StasisStrings"] = table
        top["StasisNodeIdentifiers"] = Data([1, 2, UInt8(table.count == 4 ? 2 : 4)])
        top["StasisNodeParents"] = Data([0xFF, 0, 0])
        top["StasisNodeKinds"] = Data([0, 1, 1])
        top["StasisNodeClasses"] = Data([3, 3, 3])
        top["StasisStateCounts"] = Data([0, 0, 0])
      }
      let error = expectError(RestorationError.self, .corruptSnapshot) { try Snapshot(data: data, path: "hand.archive") }
      #expect("\(error.map { "\($0)" } ?? "")".contains("Root/Child appears twice"), "table \(table)")
    }
  }
}
