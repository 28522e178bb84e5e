import Foundation
import KeyedArchive
import Restoration
import Testing
import TestSupport
import StasisSystem

/// Formats 2 and 3 of the snapshot (packed integer columns, one string table; format 3 adds
/// typed value columns): seeded snapshots of every shape read back equal, and damaged columns are
/// refused with the key that is wrong.
@MainActor
@Suite("Restoration: snapshot formats 2 and 3 round trip and refuse damaged columns")
struct SnapshotFormatTests {
  nonisolated static let metadata = SnapshotMetadata(bundleVersion: "3", idiom: 1, timestamp: Date(timeIntervalSinceReferenceDate: 1000), systemVersion: "1", sequence: 2)

  @Test("A read snapshot's nodes are values: changed in place, a copy taken before keeps the old ones, and the change is written")
  func readNodesAreValues() throws {
    let original = randomSnapshot(seed: 41)
    try #require(original.nodes.count > 1)
    let read = try Snapshot(data: try original.archivedData())
    var changed = read
    changed.nodes[1].state = ["changed": "yes"]
    changed.nodes[1].stateVersion = 9
    #expect(read.nodes[1].state["changed"] == nil)
    #expect(read.nodes[1].stateVersion == original.nodes[1].stateVersion)
    let again = try Snapshot(data: try changed.archivedData())
    #expect(again.nodes[1].state.count == 1 && again.nodes[1].state["changed"] as? String == "yes")
    #expect(again.nodes[1].stateVersion == 9)
    #expect(again.nodes.map(\.path) == read.nodes.map(\.path))
  }

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
      for key in ["a", "b", "text", "$odd", "", "n", "x"].shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random)) {
        state[key] = Self.randomValue(index: index, using: &random)
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

  /// A value of one of the kinds format 3 stores in typed columns, or of one it leaves general.
  static func randomValue(index: Int, using random: inout SplitMix64) -> Any {
    let integers = [0, 1, -1, 127, -128, 128, 40_000, -40_000, Int(Int32.max) + 1, Int.min, Int.max]
    let reals = [0.0, -0.0, 1.5, -2.25e-300, .infinity, -.infinity, .greatestFiniteMagnitude, Double(index) / 7]
    let strings = ["", "value \(index)", "é\u{301}", "🇫🇷 \u{0}", String(repeating: "long ", count: 40)]
    switch Int.random(in: 0..<12, using: &random) {
    case 0: return integers.randomElement(using: &random)!
    case 1: return reals.randomElement(using: &random)!
    case 2: return strings.randomElement(using: &random)!
    case 3: return Bool.random(using: &random)
    case 4: return (0..<Int.random(in: 0...3, using: &random)).map { _ in reals.randomElement(using: &random)! }
    case 5: return (0..<Int.random(in: 0...3, using: &random)).map { _ in integers.randomElement(using: &random)! }
    case 6: return (0..<Int.random(in: 0...3, using: &random)).map { _ in strings.randomElement(using: &random)! }
    case 7: return [Double(index), -0.5] as [Any]
    // General values: mixed arrays, dictionaries, dates, data, other integer types.
    case 8: return [1, "one", 2.5] as [Any]
    case 9: return ["k": index, "l": ["m"]] as [String: Any]
    case 10: return Date(timeIntervalSinceReferenceDate: Double(index))
    default: return Bool.random(using: &random) ? Data([1, 2, UInt8(index & 0xFF)]) : Int64(index) as Any
    }
  }

  @Test("Seeded snapshots read back node for node", arguments: 0..<25)
  func seededRoundTrip(seed: UInt64) throws {
    let snapshot = randomSnapshot(seed: seed)
    let read = try Snapshot(data: try snapshot.archivedData())
    let secure = try Snapshot(data: try snapshot.archivedData(), secure: true)
    #expect(read.metadata.format == 3)
    #expect(secure.nodes.map(\.state.count) == read.nodes.map(\.state.count))
    #expect(secure.nodes.allSatisfy { $0.stateFailure == nil })
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
        #expect(canonical(theirs.state[key] ?? "missing") == canonical(value), "\(ours.path) \(key)")
      }
    }
  }

  /// A value's description with dictionaries' keys sorted and unwrapped from `AnyHashable`.
  func canonical(_ value: Any) -> String {
    switch value {
    case let dictionary as [AnyHashable: Any]:
      "{" + dictionary.map { ("\($0.key.base)", canonical($0.value)) }.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    case let array as [Any]: "[" + array.map(canonical).joined(separator: ", ") + "]"
    default: String(reflecting: value)
    }
  }

  @Test("Typed arrays and the [Any] arrays a read gives back are written to the same bytes")
  func typedArraysAndReadArraysWriteAlike() throws {
    func snapshot(_ state: [String: Any]) -> Snapshot {
      Snapshot(metadata: Self.metadata, nodes: [SnapshotNode(path: ["Root"], kind: .viewController, className: "A", state: state)])
    }
    let typed = snapshot(["r": [1.5, -0.0], "i": [1, Int.min], "s": ["a", "é"], "e": [String](), "n": 3, "t": true])
    let read = snapshot(["r": [1.5, -0.0] as [Any], "i": [1, Int.min] as [Any], "s": ["a", "é"] as [Any], "e": [Any](), "n": 3, "t": true])
    let bytes = try typed.archivedData()
    #expect(try read.archivedData() == bytes)
    #expect(try Snapshot(data: bytes).archivedData() == bytes)
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

  /// A format-3 archive made by hand: two nodes, the first with five values in the typed
  /// columns and one general value, with `change` applied to its top-level values.
  func handMadeFormat3(_ change: (inout [String: Any]) -> Void) throws -> Data {
    try handMade { top in
      top["StasisRestorationFormat"] = 3
      top["StasisStrings"] = ["", "Root", "Child", "Main", "i", "r", "s", "b", "a", "d"]
      top["StasisStateCounts"] = Data([6, 0])
      top["StasisStateKeys"] = Data([4, 5, 6, 7, 8, 9])
      // integer, real, string, true, array of strings, general.
      top["StasisStateTypes"] = Data([1, 2, 3, 5, 8, 0])
      top["StasisStateIntegers"] = Data([0xFE, 0xFF])  // −2 in two bytes
      var real = Data(count: 8)
      real.withUnsafeMutableBytes { $0.storeBytes(of: (-0.5).bitPattern.littleEndian, as: UInt64.self) }
      top["StasisStateReals"] = real
      top["StasisStateText"] = Data("héxy".utf8)
      top["StasisStateTextLengths"] = Data([3, 1, 1])
      top["StasisStateArrayCounts"] = Data([2])
      top["StasisStateValues"] = [["k": 1] as [String: Any]] as [Any]
      change(&top)
    }
  }

  @Test("A hand-made format 3 archive reads its typed columns, plainly and securely")
  func handMadeFormat3Reads() throws {
    for secure in [false, true] {
      let state = try Snapshot(data: try handMadeFormat3 { _ in }, secure: secure).nodes[0].state
      #expect(state["i"] as? Int == -2)
      #expect((state["r"] as? Double)?.bitPattern == (-0.5).bitPattern)
      #expect(state["s"] as? String == "hé")
      #expect(state["b"] as? Bool == true)
      #expect(state["a"] as? [String] == ["x", "y"])
      #expect((state["d"] as? [String: Any])?["k"] as? Int == 1)
    }
  }

  @Test(
    "Damaged typed value columns are refused naming the key",
    arguments: [
      ("StasisStateTypes", "a type byte per value"), ("StasisStateTypes", "an unknown type"), ("StasisStateIntegers", "a length that is no width"),
      ("StasisStateReals", "a real cut short"), ("StasisStateTextLengths", "lengths past the text"), ("StasisStateTextLengths", "lengths short of the text"),
      ("StasisStateText", "bytes that are not UTF-8"), ("StasisStateArrayCounts", "a negative count"), ("StasisStateValues", "a general value missing"),
      ("StasisStateReals", "a missing column"),
    ])
  func damagedValueColumns(key: String, damage: String) throws {
    let data = try handMadeFormat3 { top in
      switch damage {
      case "a type byte per value": top[key] = Data([1, 2, 3, 5, 8])
      case "an unknown type": top[key] = Data([1, 2, 3, 5, 8, 9])
      case "a length that is no width": top[key] = Data([1, 2, 3])
      case "a real cut short": top[key] = Data([0, 0, 0, 0])
      case "lengths past the text": top[key] = Data([3, 1, 2])
      case "lengths short of the text": top[key] = Data([3, 1, 0])
      case "bytes that are not UTF-8": top[key] = Data([0x68, 0xC3, 0x28, 0x78, 0x79])
      case "a negative count": top[key] = Data([0xFF])
      case "a general value missing": top[key] = [Any]()
      default: top[key] = nil
      }
    }
    for secure in [false, true] {
      let error = expectError(RestorationError.self, .corruptSnapshot) { try Snapshot(data: data, secure: secure, path: "hand.archive") }
      #expect("\(error.map { "\($0)" } ?? "")".contains(key), "\(damage): \(error.map { "\($0)" } ?? "no error")")
    }
  }

  @Test("A format 2 snapshot (Examples/Snapshots/format2.archive, the sample app's) still reads, and is written again as format 3")
  func formatTwoStillReads() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Snapshots/format2.archive").path
    let old = try Snapshot(contentsOfFile: path)
    #expect(old.metadata.format == 2)
    #expect(old.nodes.count == 9)
    #expect(old.node(at: ["Tabs", "ItemsNavigation", "Detail"])?.state["item"] as? String == "item-39")
    #expect(old.node(at: ["Tabs", "ItemsNavigation", "Detail", "Notes"])?.state["kTextKey"] as? String == "line 8\n")
    #expect(old.node(at: ["Tabs", "ItemsNavigation", "Detail", "Name"])?.state["kEditingKey"] as? Bool == false)
    let table = old.node(at: ["Tabs", "ItemsNavigation", "List", "Table"])?.state
    #expect((table?["kSelectedModelIdentifiersKey"] as? [Any])?.compactMap { $0 as? String } == ["item-41", "item-15"])
    #expect((table?["kContentOffsetKey"] as? [Any])?.compactMap { $0 as? Double } == [0, 7880])
    let again = try Snapshot(data: try old.archivedData())
    #expect(again.metadata.format == 3)
    #expect(again.nodes.map(\.path) == old.nodes.map(\.path))
    for (theirs, ours) in zip(again.nodes, old.nodes) {
      #expect(theirs.state.keys.sorted() == ours.state.keys.sorted())
      for (key, value) in ours.state { #expect(String(describing: theirs.state[key] ?? "missing") == String(describing: value)) }
    }
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
