// restoration-bench: saves and restores a 10,000-node interface tree with Stasis's Restoration,
// and archives the same state with Foundation's NSKeyedArchiver / NSKeyedUnarchiver, in the same
// run, and prints a Markdown report (see Benchmarks/Restoration/run.sh).
//
// The tree: a tab bar controller with 9 navigation controllers, each with a stack of 370 view
// controllers, each with a text field and a scroll view that have restoration identifiers —
// 1 + 9 + 3,330 + 6,660 = 10,000 nodes. Every view controller keeps an item identifier, a count
// and a ratio; the text fields their text, the scroll views their offset; the navigation
// controllers their stacks (as references).
//
// Save (Stasis): walk the tree, encode every node, write the keyed archive atomically with fsync
// (StateRestoration.preserve). Save (Foundation): NSKeyedArchiver archives the same nodes and
// values (each node an NSCoding object, see FoundationNode), then the same atomic write with
// fsync. Restore (Stasis): read and decode the snapshot, make the 9,999 objects below the root
// through restoration classes, decode every node's state (StateRestoration.restore). Restore
// (Foundation): NSKeyedUnarchiver decodes the same nodes (no view controllers made: less work
// than Stasis).
import BenchSupport
import Foundation
import InterfaceObjects
import Lifecycle
import Restoration

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - The app

final class BenchItemController: ViewController, ViewControllerRestoration {
  var item = ""
  var count = 0
  var ratio = 0.0
  let field = TextField()
  let scroll = ScrollView()
  override func viewDidLoad() {
    super.viewDidLoad()
    field.restorationIdentifier = "Field"
    scroll.restorationIdentifier = "Scroll"
    view?.addSubview(field)
    view?.addSubview(scroll)
  }
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(item, forKey: "item")
    coder.encode(count, forKey: "count")
    coder.encode(ratio, forKey: "ratio")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    item = coder.decode(String.self, forKey: "item") ?? ""
    count = coder.decodeInteger(forKey: "count") ?? 0
    ratio = coder.decodeDouble(forKey: "ratio") ?? 0
  }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    let made = BenchItemController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "BenchItemController"
    return made
  }
}

final class BenchNavigationController: NavigationController, ViewControllerRestoration {
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    let made = BenchNavigationController()
    made.restorationIdentifier = path.last
    made.restorationClassName = "BenchNavigationController"
    return made
  }
}

final class BenchDelegate: ApplicationDelegate, StateRestorationDelegate {
  let window = Window()
  let root = TabBarController()
  let populated: Bool
  init(populated: Bool) {
    self.populated = populated
    root.restorationIdentifier = "Root"
  }
  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.application.addWindow(window)
    window.rootViewController = root
    if populated { populate() }
    return true
  }
  func populate() {
    var tabs: [ViewController] = []
    for tab in 0..<9 {
      let navigation = BenchNavigationController()
      navigation.restorationIdentifier = "Tab\(tab)"
      navigation.restorationClassName = "BenchNavigationController"
      for position in 0..<370 {
        let item = BenchItemController()
        item.restorationIdentifier = "Item\(position)"
        item.restorationClassName = "BenchItemController"
        item.item = "item-\(tab)-\(position)"
        item.count = tab * 1_000 + position
        item.ratio = Double(position) / 7
        _ = item.view
        item.field.text = "Name of item \(position) in tab \(tab)"
        item.scroll.contentOffset = CGPoint(x: 0, y: Double(position * 3))
        navigation.pushViewController(item)
      }
      tabs.append(navigation)
    }
    root.setViewControllers(tabs)
    root.selectedIndex = 4
  }
  func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { true }
  func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { true }
}

@MainActor func makeApp(folder: SavedStateFolder, populated: Bool) throws -> (ApplicationLifecycle, StateRestoration, BenchDelegate) {
  let delegate = BenchDelegate(populated: populated)
  let lifecycle = ApplicationLifecycle(delegate: delegate, notificationCenter: NotificationCenter())
  let restoration = StateRestoration(lifecycle: lifecycle, configuration: .init(folder: folder, bundleVersion: "1"))
  restoration.register(BenchItemController.self, as: "BenchItemController")
  restoration.register(BenchNavigationController.self, as: "BenchNavigationController")
  return (lifecycle, restoration, delegate)
}

// MARK: - Foundation's side

/// One node as Foundation's archiver keeps it: an NSCoding object with the node's header and its
/// state written under their own keys, the way UIKit's restoration coder takes each object's
/// state. Scalars are stored inline; a path is one string (components joined by U+001F), because
/// NSKeyedArchiver uniques objects through `isEqual:` and hashes an NSArray or NSDictionary by
/// its count, so that 10,000 similar arrays or dictionaries make it quadratic (minutes, not
/// milliseconds) — the peer is measured without that handicap.
final class FoundationNode: NSObject, NSCoding {
  static let separator = "\u{1F}"
  var path = ""
  var kind = ""
  var className = ""
  var restorationClass = ""
  var version = 0
  var references: [String: [String]] = [:]
  var state: [String: Any] = [:]

  override init() { super.init() }

  init(_ node: SnapshotNode) {
    path = node.path.joined(separator: Self.separator)
    kind = node.kind.rawValue
    className = node.className
    restorationClass = node.restorationClassName ?? ""
    version = node.stateVersion
    references = node.references.mapValues { $0.map { $0.joined(separator: Self.separator) } }
    state = node.state
  }

  func encode(with coder: NSCoder) {
    coder.encode(NSString(string: path), forKey: "path")
    coder.encode(NSString(string: kind), forKey: "kind")
    coder.encode(NSString(string: className), forKey: "class")
    coder.encode(NSString(string: restorationClass), forKey: "restorationClass")
    coder.encode(version, forKey: "version")
    coder.encode(NSString(string: references.keys.sorted().joined(separator: Self.separator)), forKey: "referenceKeys")
    for (key, paths) in references {
      coder.encode(paths.count, forKey: "ref.\(key).count")
      for (index, path) in paths.enumerated() { coder.encode(NSString(string: path), forKey: "ref.\(key).\(index)") }
    }
    var keys: [String] = []
    for (key, value) in state.sorted(by: { $0.key < $1.key }) { keys.append(Self.encode(value, forKey: key, coder)) }
    coder.encode(NSString(string: keys.joined(separator: Self.separator)), forKey: "stateKeys")
  }

  /// Writes one value under `key` (arrays element by element); answers the key with its type tag.
  static func encode(_ value: Any, forKey key: String, _ coder: NSCoder) -> String {
    switch value {
    case let string as String:
      coder.encode(NSString(string: string), forKey: "s.\(key)")
      return "s:" + key
    case let flag as Bool:
      coder.encode(flag, forKey: "b.\(key)")
      return "b:" + key
    case let number as Int:
      coder.encode(number, forKey: "i.\(key)")
      return "i:" + key
    case let number as Double:
      coder.encode(number, forKey: "d.\(key)")
      return "d:" + key
    case let list as [Any]:
      coder.encode(list.count, forKey: "a.\(key)")
      for (index, element) in list.enumerated() {
        guard let number = element as? Double else { fatalError("restoration-bench: arrays of doubles only") }
        coder.encode(number, forKey: "a.\(key).\(index)")
      }
      return "a:" + key
    default: fatalError("restoration-bench: no Foundation form for \(type(of: value))")
    }
  }

  required init?(coder: NSCoder) {
    super.init()
    path = coder.decodeObject(forKey: "path") as? String ?? ""
    kind = coder.decodeObject(forKey: "kind") as? String ?? ""
    className = coder.decodeObject(forKey: "class") as? String ?? ""
    restorationClass = coder.decodeObject(forKey: "restorationClass") as? String ?? ""
    version = coder.decodeInteger(forKey: "version")
    for key in (coder.decodeObject(forKey: "referenceKeys") as? String ?? "").split(separator: Self.separator) {
      let count = coder.decodeInteger(forKey: "ref.\(key).count")
      references[String(key)] = (0..<count).map { coder.decodeObject(forKey: "ref.\(key).\($0)") as? String ?? "" }
    }
    for tagged in (coder.decodeObject(forKey: "stateKeys") as? String ?? "").split(separator: Self.separator) {
      let tag = tagged.prefix(1)
      let key = String(tagged.dropFirst(2))
      switch tag {
      case "s": state[key] = coder.decodeObject(forKey: "s.\(key)") as? String
      case "b": state[key] = coder.decodeBool(forKey: "b.\(key)")
      case "i": state[key] = coder.decodeInteger(forKey: "i.\(key)")
      case "d": state[key] = coder.decodeDouble(forKey: "d.\(key)")
      default:
        let count = coder.decodeInteger(forKey: "a.\(key)")
        state[key] = (0..<count).map { coder.decodeDouble(forKey: "a.\(key).\($0)") }
      }
    }
  }
}

/// Writes `data` as AtomicFile does: a temporary file, fsync, rename, fsync of the folder.
func writeAtomically(_ data: Data, to path: String) {
  let temporary = path + ".foundation-tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(descriptor >= 0, "cannot create \(temporary)")
  data.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      precondition(written > 0, "write failed")
      offset += written
    }
  }
  fsync(descriptor)
  close(descriptor)
  rename(temporary, path)
  let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY)
  fsync(folder)
  close(folder)
}

// MARK: - Measuring

/// Whether each round's counters are read and printed (`--per-round`).
nonisolated(unsafe) var perRound = false

struct Timing {
  var wall: [Double] = []
  var cpu: [Double] = []
  /// Each round's counters (`--per-round` only: reading them is not free).
  var records: [RoundRecord] = []
  mutating func measure(_ body: () throws -> Void) rethrows {
    let before = perRound ? RoundCounters.now() : RoundCounters()
    let wallStart = wallNow()
    let cpuStart = cpuNow()
    try body()
    let cpuTime = cpuNow() - cpuStart
    let wallTime = wallNow() - wallStart
    cpu.append(cpuTime)
    wall.append(wallTime)
    if perRound { records.append(RoundRecord(cpuMilliseconds: cpuTime * 1_000, wallMilliseconds: wallTime * 1_000, before: before, after: .now())) }
  }
  /// Adds a round measured apart (warm-up rounds are measured and left out).
  mutating func add(_ other: Timing) {
    wall += other.wall
    cpu += other.cpu
    records += other.records
  }
  /// The per-round table (`--per-round`), or nothing.
  func rounds(_ title: String) -> String {
    guard !records.isEmpty else { return "" }
    return "\n\(title), each round:\n\n\(RoundRecord.header)\n"
      + records.enumerated().map { $0.element.row("\($0.offset + 1)") }.joined(separator: "\n") + "\n"
  }
  var medianWall: Double { median(wall) * 1_000 }
  var medianCPU: Double { median(cpu) * 1_000 }
}

var rounds = 15
var source = "working tree"
var stasisOnly = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
  case "--source": source = arguments.next() ?? source
  case "--stasis-only": stasisOnly = true  // for profiling
  case "--per-round": perRound = true
  case "--help", "-h":
    print(
      "restoration-bench [--rounds N] [--source TEXT] [--stasis-only] [--per-round]   (--stasis-only: no Foundation columns, for profilers; --per-round: each timed round's CPU, faults, context switches, steal and heap top)"
    )
    exit(0)
  default:
    FileHandle.standardError.write(Data("restoration-bench: unknown argument \(argument) (--help lists the options)\n".utf8))
    exit(2)
  }
}

let loadAtStart = loadAverage()
let work = NSTemporaryDirectory() + "/stasis-restoration-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
let folder = SavedStateFolder(path: work + "/bench.savedState")

// Stasis: the populated app, saved again and again.
let (writerLifecycle, writer, _) = try makeApp(folder: folder, populated: true)
try writerLifecycle.launch()
var stasisSave = Timing()
var report = try writer.preserve()
for _ in 0..<rounds { try stasisSave.measure { report = try writer.preserve() } }
precondition(report.nodeCount == 10_000, "the tree has \(report.nodeCount) nodes, not 10,000")
let snapshotBytes = report.byteCount

// Stasis: a fresh app with only the root each time, restored (by hand, so that only the
// restoration is timed, not the launch around it).
var stasisRestore = Timing()
var restoredNodes = 0
for round in 0...rounds {
  let (lifecycle, restoration, delegate) = try makeApp(folder: folder, populated: false)
  lifecycle.stateKeeper = nil
  try lifecycle.launch()
  var timing = Timing()
  // The restored nodes counted in place (filtering the report's 10,000 outcomes into a new
  // array to count them was the harness's own work, about 1 % of what was timed).
  timing.measure {
    let report = restoration.restore()
    restoredNodes = 0
    for index in report.nodes.indices where report.nodes[index].isRestored { restoredNodes += 1 }
  }
  if round > 0 { stasisRestore.add(timing) }
  precondition(delegate.root.viewControllers.count == 9 && (delegate.root.viewControllers[8] as? NavigationController)?.viewControllers.count == 370)
}
precondition(restoredNodes == 10_000, "restored \(restoredNodes) nodes")

// Stasis doing only what Foundation's side does: encode and write an already-collected snapshot,
// and read and decode it (no tree walked, no objects made).
let collected = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
var stasisEncodeOnly = Timing()
var stasisDecodeOnly = Timing()
for round in 0...rounds {
  var encodeTiming = Timing()
  try encodeTiming.measure { try folder.writeSnapshot(try collected.archivedData()) }
  var decodeTiming = Timing()
  var decoded = 0
  try decodeTiming.measure { decoded = try Snapshot(contentsOfFile: folder.currentSnapshotPath).nodes.count }
  precondition(decoded == 10_000)
  if round > 0 {
    stasisEncodeOnly.add(encodeTiming)
    stasisDecodeOnly.add(decodeTiming)
  }
}

if stasisOnly {
  func both(_ timing: Timing) -> String { String(format: "%.2f ms (CPU %.2f ms)", timing.medianWall, timing.medianCPU) }
  print("Load average \(loadAtStart) at the start, \(loadAverage()) at the end; \(MachineDescription().cpuModel).")
  print("Stasis: save \(both(stasisSave)), restore \(both(stasisRestore)), encode+write only \(both(stasisEncodeOnly)), read+decode only \(both(stasisDecodeOnly)) (medians), \(snapshotBytes) bytes")
  print(stasisSave.rounds("Save") + stasisRestore.rounds("Restore"), terminator: "")
  try? FileManager.default.removeItem(atPath: work)
  exit(0)
}

// Foundation: the same nodes, metadata and values.
let snapshot = try Snapshot(contentsOfFile: folder.currentSnapshotPath)
let foundationNodes = snapshot.nodes.map(FoundationNode.init)
let foundationPath = work + "/foundation.archive"
var foundationSave = Timing()
var foundationBytes = 0
for round in 0...rounds {
  var timing = Timing()
  timing.measure {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    archiver.encode(snapshot.metadata.format, forKey: "StasisRestorationFormat")
    archiver.encode(snapshot.metadata.sequence, forKey: "StasisSnapshotSequence")
    archiver.encode(NSString(string: snapshot.metadata.bundleVersion ?? ""), forKey: SnapshotMetadata.bundleVersionKey)
    archiver.encode(snapshot.metadata.idiom, forKey: SnapshotMetadata.idiomKey)
    archiver.encode(NSDate(), forKey: SnapshotMetadata.timestampKey)
    archiver.encode(NSString(string: snapshot.metadata.systemVersion), forKey: SnapshotMetadata.systemVersionKey)
    archiver.encode(NSArray(array: foundationNodes), forKey: "StasisNodes")
    archiver.finishEncoding()
    let data = archiver.encodedData
    foundationBytes = data.count
    writeAtomically(data, to: foundationPath)
  }
  if round > 0 { foundationSave.add(timing) }
}
var foundationRestore = Timing()
var decodedNodes: [FoundationNode] = []
for round in 0...rounds {
  var timing = Timing()
  timing.measure {
    let data = try! Data(contentsOf: URL(fileURLWithPath: foundationPath))
    let unarchiver = try! NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    _ = unarchiver.decodeObject(forKey: SnapshotMetadata.timestampKey)
    _ = unarchiver.decodeObject(forKey: SnapshotMetadata.bundleVersionKey)
    decodedNodes = (unarchiver.decodeObject(forKey: "StasisNodes") as? [Any] ?? []).compactMap { $0 as? FoundationNode }
    unarchiver.finishDecoding()
  }
  if round > 0 { foundationRestore.add(timing) }
}
precondition(decodedNodes.count == 10_000, "Foundation decoded \(decodedNodes.count) nodes")
precondition(decodedNodes[5].state.count == snapshot.nodes[5].state.count && decodedNodes[5].path == snapshot.nodes[5].path.joined(separator: FoundationNode.separator))

// MARK: - Report

let machine = MachineDescription()
func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
func ratio(_ peer: Double, _ ours: Double) -> String { String(format: "%.1f×", peer / ours) }
// The figures for Benchmarks/results/restoration-bench.json (BENCH_RESULTS, set by run.sh).
var resultsFile = ResultsFile(harness: "restoration-bench", loadAtStart: loadAtStart)
for (operation, stasis, foundation) in [
  ("save", stasisSave, Optional(foundationSave)), ("restore", stasisRestore, Optional(foundationRestore)),
  ("encode + atomic write of the snapshot only", stasisEncodeOnly, nil), ("read + decode of the snapshot only", stasisDecodeOnly, nil),
] {
  for (system, timing) in [("Stasis", Optional(stasis)), ("Foundation NSKeyedArchiver", foundation)] {
    guard let timing else { continue }
    resultsFile.add(system: system, subject: "10,000 nodes", operation: operation, value: timing.medianWall, unit: "ms", clock: "wall")
    resultsFile.add(system: system, subject: "10,000 nodes", operation: operation, value: timing.medianCPU, unit: "ms", clock: "cpu")
  }
}
resultsFile.writeIfRequested(source: source)

print("## Restoration benchmark: a 10,000-node tree, saved and restored")
print("")
print("Command: `\(ProcessInfo.processInfo.environment["BENCH_COMMAND"] ?? CommandLine.arguments.joined(separator: " "))`")
print("")
print("Machine: \(machine.architecture), \(machine.processors) processors, \(machine.cpuModel), Linux \(machine.kernelRelease); load average \(loadAtStart) at the start, \(loadAverage()) at the end; Stasis from \(source); \(rounds) rounds each after one warm-up round, medians. Under load the wall columns include waiting for a processor: compare the CPU columns.")
print("Snapshot: \(snapshotBytes) bytes (Stasis), \(foundationBytes) bytes (Foundation: the same nodes as NSCoding objects, paths as joined strings). Both writes: temporary file, fsync, rename, fsync of the folder.")
print("")
print("| | Stasis (wall) | Foundation (wall) | Foundation ÷ Stasis (wall) | Stasis (CPU) | Foundation (CPU) | Foundation ÷ Stasis (CPU) |")
print("|---|---|---|---|---|---|---|")
print("| save: encode + atomic write with fsync | \(ms(stasisSave.medianWall)) | \(ms(foundationSave.medianWall)) | \(ratio(foundationSave.medianWall, stasisSave.medianWall)) | \(ms(stasisSave.medianCPU)) | \(ms(foundationSave.medianCPU)) | \(ratio(foundationSave.medianCPU, stasisSave.medianCPU)) |")
print("| restore: read + decode (+ Stasis makes and decodes 10,000 objects) | \(ms(stasisRestore.medianWall)) | \(ms(foundationRestore.medianWall)) | \(ratio(foundationRestore.medianWall, stasisRestore.medianWall)) | \(ms(stasisRestore.medianCPU)) | \(ms(foundationRestore.medianCPU)) | \(ratio(foundationRestore.medianCPU, stasisRestore.medianCPU)) |")
print("| encode + atomic write of the collected snapshot only (what Foundation's column does) | \(ms(stasisEncodeOnly.medianWall)) | \(ms(foundationSave.medianWall)) | \(ratio(foundationSave.medianWall, stasisEncodeOnly.medianWall)) | \(ms(stasisEncodeOnly.medianCPU)) | \(ms(foundationSave.medianCPU)) | \(ratio(foundationSave.medianCPU, stasisEncodeOnly.medianCPU)) |")
print("| read + decode of the snapshot only (what Foundation's column does) | \(ms(stasisDecodeOnly.medianWall)) | \(ms(foundationRestore.medianWall)) | \(ratio(foundationRestore.medianWall, stasisDecodeOnly.medianWall)) | \(ms(stasisDecodeOnly.medianCPU)) | \(ms(foundationRestore.medianCPU)) | \(ratio(foundationRestore.medianCPU, stasisDecodeOnly.medianCPU)) |")
print("")
// The bars: the whole save ≥ 80× Foundation's archiving and the whole restore ≥ 50× Foundation's
// unarchiving, each under 20 ms; ratios of CPU time (the wall columns include waiting for a
// processor on a loaded machine), the 20 ms on the wall clock when the load is low.
func verdict(_ peer: Timing, _ ours: Timing, ratio bar: Double) -> String {
  let times = peer.medianCPU / ours.medianCPU
  let met = times >= bar && ours.medianCPU < 20 && ours.medianWall < 20
  return String(format: "%@ (%.1f× Foundation in CPU time, %.2f ms CPU, %.2f ms wall)", met ? "met" : "missed", times, ours.medianCPU, ours.medianWall)
}
print("Bars (≥ 80× Foundation's archiving for the whole save, ≥ 50× its unarchiving for the whole restore, each under 20 ms CPU and wall): "
  + "save \(verdict(foundationSave, stasisSave, ratio: 80)), restore \(verdict(foundationRestore, stasisRestore, ratio: 50)).")
print(stasisSave.rounds("Stasis's save") + stasisRestore.rounds("Stasis's restore") + foundationSave.rounds("Foundation's archiving") + foundationRestore.rounds("Foundation's unarchiving"), terminator: "")
try? FileManager.default.removeItem(atPath: work)
