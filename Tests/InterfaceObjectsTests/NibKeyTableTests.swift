import Interface
import InterfaceObjects
import ObjectModel
import Testing
import TestSupport

/// A class's ``NibKeyTable`` decodes its properties from the keys it names, on the platform it
/// names them for, in the order declared, and gives key-value coding the names it declares;
/// a key the archive lacks leaves the property as `init()` made it.
@MainActor
@Suite struct NibKeyTableTests {
  /// What a probe's archive holds, chosen by a seed: each key present or not, with a value.
  struct Archive {
    var newName: String?
    var oldName: String?
    var count: Int?
    var ratio: Double?
    var disabled: Bool?
    var note: String?
    var linked: Bool
    var members: Int?
    var number: Int?

    init(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      func maybe<T>(_ make: () -> T) -> T? { random.next() % 2 == 0 ? make() : nil }
      newName = maybe { "new \(random.next() % 100)" }
      oldName = maybe { "old \(random.next() % 100)" }
      count = maybe { Int(random.next() % 2_000) - 1_000 }
      ratio = maybe { Double(random.next() % 1_000) / 8 }
      disabled = maybe { random.next() % 2 == 0 }
      note = maybe { "note \(random.next() % 100)" }
      linked = random.next() % 2 == 0
      members = maybe { Int(random.next() % 4) }
      number = maybe { Int(random.next() % 50) }
    }

    /// The graph: the probe (object 1) under a root that marks a UIKit nib or not.
    func graph(uiKit: Bool) -> NibGraph {
      var graph = NibGraph(rootClass: "NSObject")
      let probe = graph.add("Probe")
      if uiKit { graph.append("UINibObjectsKey", .object(graph.collection("NSArray", [probe])), to: graph.root) }
      if let newName { graph.append("NewName", .object(graph.string(newName)), to: probe) }
      if let oldName { graph.append("OldName", .object(graph.string(oldName)), to: probe) }
      if let count { graph.append("Count", NibGraph.integer(count), to: probe) }
      if let ratio { graph.append("Ratio", .float64(ratio), to: probe) }
      if let disabled { graph.append("Disabled", .bool(disabled), to: probe) }
      if let note { graph.append("Note", .object(graph.string(note)), to: probe) }
      if linked { graph.append("Link", .object(graph.add("Probe")), to: probe) }
      if let members {
        let made = (0..<members).map { _ in graph.add("Probe") }
        graph.append("Members", .object(graph.collection("NSArray", made)), to: probe)
      }
      if let number { graph.append("Number", NibGraph.integer(number), to: probe) }
      return graph
    }
  }

  @Test(arguments: 0..<64)
  func eachPropertyIsItsFirstPresentKeyOrItsInitialValue(seed: Int) throws {
    let archive = Archive(seed: UInt64(seed))
    for uiKit in [false, true] {
      let probe = try Self.decode(archive.graph(uiKit: uiKit))
      #expect(probe.name == archive.newName ?? archive.oldName ?? "initial")
      #expect(probe.count == archive.count ?? 7)
      #expect(probe.ratio == archive.ratio ?? 0.5)
      #expect(probe.isEnabled == archive.disabled.map { !$0 } ?? true)
      #expect(probe.note == archive.note ?? "kept")
      #expect((probe.linked != nil) == archive.linked)
      #expect(probe.members.count == archive.members ?? 0)
      #expect(probe.uiKitNumber == (uiKit ? archive.number ?? -1 : -1))
      #expect(probe.appKitNumber == (uiKit ? -1 : archive.number ?? -1))
      // The custom step runs where it is declared: after the fields above it, before those below.
      #expect(probe.countSeenByStep == probe.count)
      #expect(probe.ratioSeenByStep == 0.5)
    }
  }

  @Test func keyValueCodingHasTheDeclaredNamesAndTheInheritedOnes() throws {
    let table = Probe.keyTable
    #expect(table.keys == ["enabled", "name", "note", "objectName"])
    let probe = Probe()
    try probe.setValue("set", forKey: "name")
    #expect(probe.name == "set")
    try probe.setValue(false, forKey: "enabled")
    #expect(probe.isEnabled == false)
    let extended = KeyTable(for: Probe.self, inheriting: Probe.probeKeys) { $0.key("count", \.count) }
    #expect(extended.keys == ["count", "enabled", "name", "note", "objectName"])
  }

  @Test func aValueOfTheWrongKindReadsAsAbsent() throws {
    var graph = NibGraph(rootClass: "NSObject")
    let probe = graph.add("Probe")
    graph.append("Count", .data([1, 2]), to: probe)
    graph.append("Link", .object(graph.string("not a probe")), to: probe)
    let decoded = try Self.decode(graph)
    #expect(decoded.count == 7)
    #expect(decoded.linked == nil)
  }

  static func decode(_ graph: NibGraph) throws -> Probe {
    var classes = ClassRegistry.interfaceObjects
    classes.register(Probe.self, as: "Probe", makeInstanceOnMainActor: { Probe() })
    let unarchiver = NibUnarchiver(graph: graph, classes: classes)
    let probe = try #require(try unarchiver.value(ofObjectAt: 1) as? Probe)
    try unarchiver.finishDecoding()
    return probe
  }
}

/// A class declaring one key of each kind.
@MainActor final class Probe: NibObject {
  var name = "initial"
  var count = 7
  var ratio = 0.5
  var isEnabled = true
  var note: String? = "kept"
  var linked: Probe?
  var members: [Probe] = []
  var uiKitNumber = -1
  var appKitNumber = -1
  var countSeenByStep: Int?
  var ratioSeenByStep: Double?
  var objectName = ""

  required init() { super.init() }

  static let baseKeys = NibKeyTable(for: Probe.self) { $0.key("objectName", \.objectName) }
  static let probeKeys = NibKeyTable(for: Probe.self, inheriting: baseKeys) {
    $0.string(\.name, from: "NewName", "OldName", key: "name") { $0.name = $1 }
    $0.integer(\.count, from: "Count") { $0.count = $1 }
    $0.decode { probe, _ in
      probe.countSeenByStep = probe.count
      probe.ratioSeenByStep = probe.ratio
    }
    $0.double(\.ratio, from: "Ratio") { $0.ratio = $1 }
    $0.bool(\.isEnabled, from: "Disabled", inverted: true, key: "enabled") { $0.isEnabled = $1 }
    $0.string(\.note, from: "Note", key: "note") { $0.note = $1 }
    $0.object(\.linked, from: "Link") { $0.linked = $1 }
    $0.array(\.members, from: "Members") { $0.members = $1 }
    $0.uiKit { $0.integer(\.uiKitNumber, from: "Number") { $0.uiKitNumber = $1 } }
    $0.appKit { $0.integer(\.appKitNumber, from: "Number") { $0.appKitNumber = $1 } }
  }
  override class var nibKeyTable: NibKeyTable { probeKeys }
}
