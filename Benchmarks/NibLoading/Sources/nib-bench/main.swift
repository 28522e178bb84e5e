// nib-bench: a generated macOS nib of about 1,000 live objects (views, controls, a
// menu, outlets, actions, runtime attributes) instantiated again and again — from its parsed graph
// and from its NIBArchive bytes — beside KeyedArchive decoding graphs of exactly as many objects
// (the item graph of Tests/Fixtures/bench/GRAPH.md, and the nib's own tree as a keyed archive) and
// Foundation's NSKeyedUnarchiver on the item graph; the first load of storyboard scenes, warm and
// in fresh processes. Markdown on stdout, progress on stderr.
//
//   nib-bench [--objects 1000] [--seed 16] [--menus 6] [--items 10] [--min-time 1] [--min-iterations 20]
//             [--warm-up 0.2] [--rounds 5] [--first-runs 20] [--dense-attributes] [--scene-panels 20]
//             [--cells KEY,…] [--corpus DIR] [--keep DIR] [--source TEXT]
//   nib-bench --loop KEY [--iterations 2000] …           (one cell in a loop, for profilers)
//   nib-bench --first-load-child nib|storyboard|menu PATH [VIEW-NIB]  (internal: one first load in this process)

import BenchSupport
import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import KeyedArchive
import NibLoading
import ObjectModel
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

/// The scratch folder this run made (removed before the process exits, unless --keep named it).
nonisolated(unsafe) var scratchToRemove: String?

/// Removes the scratch folder and exits (top-level `defer` does not run on `exit`).
func finish(_ status: Int32) -> Never {
  if let scratchToRemove { try? FileManager.default.removeItem(atPath: scratchToRemove) }
  exit(status)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("nib-bench: \(message)\n".utf8))
  finish(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Options

var objectTarget = 1000
var seed: UInt64 = 16
var menus = 6
var itemsPerMenu = 10
var minimumTime = 1.0
var minimumIterations = 20
var warmUp = 0.2
var rounds = 5
var firstRuns = 20
var denseAttributes = false
var scenePanels = 20
var onlyCells: Set<String>?
var corpus = "Tests/Fixtures/corpus"
var keep: String?
var source = "the library on disk"
var loopKey: String?
var loopIterations = 2000
var firstLoadChild: [String]?

do {
  var arguments = CommandLine.arguments.dropFirst().makeIterator()
  func value(_ option: String) -> String {
    guard let text = arguments.next() else { fail("\(option) needs a value") }
    return text
  }
  func number<Number: LosslessStringConvertible & Comparable>(_ option: String, _ zero: Number) -> Number {
    guard let number = Number(value(option)), number > zero else { fail("\(option) needs a number greater than \(zero)") }
    return number
  }
  while let argument = arguments.next() {
    switch argument {
    case "--objects": objectTarget = number(argument, 0)
    case "--seed": seed = number(argument, 0)
    case "--menus": menus = number(argument, 0)
    case "--items": itemsPerMenu = number(argument, 0)
    case "--min-time": minimumTime = number(argument, 0.0)
    case "--min-iterations": minimumIterations = number(argument, 0)
    case "--warm-up": warmUp = number(argument, -1.0)
    case "--rounds": rounds = number(argument, 0)
    case "--first-runs": firstRuns = number(argument, -1)
    case "--dense-attributes": denseAttributes = true
    case "--scene-panels": scenePanels = number(argument, 0)
    case "--cells": onlyCells = Set(value(argument).split(separator: ",").map(String.init))
    case "--corpus": corpus = value(argument)
    case "--keep": keep = value(argument)
    case "--source": source = value(argument)
    case "--loop": loopKey = value(argument)
    case "--iterations": loopIterations = number(argument, 0)
    case "--first-load-child":
      var rest: [String] = []
      while let next = arguments.next() { rest.append(next) }
      firstLoadChild = rest
    default: fail("unknown option \(argument)")
    }
  }
}

// MARK: - First load in a fresh process (child)

/// The very first load in this process: code pages, lazy globals (key tables, metadata) and the
/// allocator are all cold. The class registry is made before the clock starts (an app registers
/// its classes at launch). Prints `cpu=` and `wall=` in nanoseconds and `check=` (objects, the
/// scene's signature or menu items) for the parent to compare.
if let child = firstLoadChild {
  guard child.count == 2 || child.count == 3 else { fail("--first-load-child KIND PATH [VIEW-NIB]") }
  let kind = child[0], path = child[1]
  let options = Nib.Options(classes: benchClasses, isStrict: kind == "nib")
  // A view nib the benchmark loads itself (StoryboardFixture.manualViewNib): read before the clock,
  // as the storyboard has read it when it opened.
  var manualViewNib: (name: String, graph: NibGraph)?
  if child.count == 3 {
    do { manualViewNib = (child[2], NibGraph(try NIBArchive(contentsOfFile: path + "/" + child[2] + ".nib"))) } catch {
      fail("\(child[2]): \(error)")
    }
  }
  do {
    let wallStart = wallNow()
    let start = cpuNow()
    let check: Int
    switch kind {
    case "nib":
      let owner = BenchOwner()
      let loaded = try Nib(contentsOf: path).load(owner: owner, options: options)
      let cpu = cpuNow() - start, wall = wallNow() - wallStart
      check = loaded.objects.count
      print("cpu=\(Int(cpu * 1e9)) wall=\(Int(wall * 1e9)) check=\(check)")
    case "storyboard":
      let result = try StoryboardFixture.instantiate(Storyboard(contentsOf: path, options: options), manualViewNib: manualViewNib)
      let cpu = cpuNow() - start, wall = wallNow() - wallStart
      check = StoryboardFixture.signature(result)
      print("cpu=\(Int(cpu * 1e9)) wall=\(Int(wall * 1e9)) check=\(check)")
    case "menu":
      let result = try StoryboardFixture.loadMainMenu(Storyboard(contentsOf: path, options: options))
      let cpu = cpuNow() - start, wall = wallNow() - wallStart
      check = StoryboardFixture.itemCount(result.menu!)
      print("cpu=\(Int(cpu * 1e9)) wall=\(Int(wall * 1e9)) check=\(check)")
    default:
      fail("unknown first-load kind \(kind)")
    }
    exit(0)
  } catch {
    fail("first load of \(path): \(error)")
  }
}

// MARK: - Fixtures (built and checked untimed)

let startDate = Date()
let loadAtStart = loadAverage()
let machine = MachineDescription()
let scratch = keep ?? (FileManager.default.temporaryDirectory.path + "/nib-bench-\(getpid())")
try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
if keep == nil { scratchToRemove = scratch }

/// Catalog colors as Apple's ibtool compiles them, with the ICC profiles taken from two of Apple's
/// compiled nibs in the corpus (Stasis does not ship them); without the corpus, without profiles.
let profileNibs = ["test3.nib", "test6_whitecolor.nib"].compactMap { try? NIBArchive(contentsOfFile: corpus + "/nib/ibtool_pairs/correct/" + $0) }
let colorProfiles = ColorProfiles(extractingFrom: profileNibs)
let compilerOptions = CocoaNibCompiler.Options(colorProfiles: colorProfiles, omitsColorProfiles: colorProfiles == nil)

progress("generating and compiling a nib of about \(objectTarget) live objects (seed \(seed))")
let fixture: NibFixture
do {
  fixture = try NibFixture.sized(
    objects: objectTarget, menus: menus, itemsPerMenu: itemsPerMenu, seed: seed, denseAttributes: denseAttributes,
    compiler: compilerOptions)
} catch {
  fail("the generated nib: \(error)")
}
let live = fixture.liveObjects
let xibPath = scratch + "/generated.xib"
let nibPath = scratch + "/generated.nib"
do {
  try Data(fixture.generated.xml.utf8).write(to: URL(fileURLWithPath: xibPath))
  try Data(fixture.bytes).write(to: URL(fileURLWithPath: nibPath))
} catch {
  fail("writing \(scratch): \(error)")
}
progress("the nib: \(fixture.generated.groups) panels, \(live) live objects per load (\(fixture.signature))")

let itemCount = live - 51
let items = ItemExpectation(count: itemCount)
let stasisItems: Data
let stasisItemsParsed: PropertyListValue
let foundationItems: Data
var foundationFailure: String?
let mirror = MirrorGraph.make(fixture.generated, objects: live)
let mirrorData: Data
let mirrorParsed: PropertyListValue
do {
  stasisItems = try StasisItems.archive(count: itemCount)
  try StasisItems.check(try StasisItems.unarchive(stasisItems), items)
  stasisItemsParsed = try PropertyListValue(decoding: stasisItems)
  try StasisItems.check(try StasisItems.unarchive(parsed: stasisItemsParsed), items)
  foundationItems = FoundationItems.archive(count: itemCount)
  do { try FoundationItems.check(try FoundationItems.unarchive(foundationItems), items) } catch { foundationFailure = "\(error)" }
  mirrorData = try MirrorGraph.archive(mirror.root)
  try MirrorGraph.check(try MirrorGraph.unarchive(mirrorData), mirror.expected)
  mirrorParsed = try PropertyListValue(decoding: mirrorData)
  try MirrorGraph.check(try MirrorGraph.unarchive(parsed: mirrorParsed), mirror.expected)
} catch {
  fail("the keyed archives: \(error)")
}
guard items.objects == live, mirror.expected.objects == live else {
  fail("the keyed graphs have \(items.objects) and \(mirror.expected.objects) objects, the nib \(live)")
}

var storyboards: [StoryboardFixture] = []
var storyboardFailures: [String] = []
// A storyboard of the same make as the nib: its initial window controller's content view
// controller (`BenchViewController`) has a view of `scenePanels` panels.
do {
  let generatedStoryboard = NibGenerator.generate(
    groups: scenePanels, menus: 0, itemsPerMenu: 0, seed: seed, denseAttributes: denseAttributes, storyboard: true)
  let path = scratch + "/generated.storyboard"
  try Data(generatedStoryboard.xml.utf8).write(to: URL(fileURLWithPath: path))
  var storyboard = try StoryboardFixture(
    title: "generated.storyboard (a window controller whose content view controller, `BenchViewController`, has a view of "
      + "\(scenePanels) panels: \(generatedStoryboard.outlets) outlets, \(generatedStoryboard.actions) actions, "
      + "\(generatedStoryboard.attributes) runtime attributes)",
    source: path, folder: scratch + "/generated.storyboardc", compiler: compilerOptions)
  try storyboard.survey()
  storyboards.append(storyboard)
  progress("storyboard generated: \(storyboard.nibCount) nibs, \(storyboard.objects) objects in the first scene")
} catch {
  storyboardFailures.append("generated.storyboard: \(error)")
  progress("FAIL generated storyboard: \(error)")
}
for (title, relative) in [
  ("sb_toolbar (window controller with a toolbar)", "xib/ibtool_pairs/correct/sb_toolbar.storyboard"),
  ("sb_basic_wc (window controller)", "xib/ibtool_pairs/correct/sb_basic_wc.storyboard"),
  ("NetNewsWire Mac Main.storyboard (main-menu scene)", "xib/netnewswire/Mac_Base.lproj_Main.storyboard"),
] {
  let path = corpus + "/" + relative
  guard FileManager.default.fileExists(atPath: path) else {
    storyboardFailures.append("\(relative): not in the corpus at \(corpus)")
    continue
  }
  do {
    let name = URL(fileURLWithPath: relative).deletingPathExtension().lastPathComponent
    var storyboard = try StoryboardFixture(title: title, source: path, folder: scratch + "/" + name + ".storyboardc", compiler: compilerOptions)
    try storyboard.survey()
    storyboards.append(storyboard)
    progress("storyboard \(name): \(storyboard.nibCount) nibs, \(storyboard.objects) objects in the first scene")
  } catch {
    storyboardFailures.append("\(relative): \(error)")
    progress("FAIL storyboard \(relative): \(error)")
  }
}

// MARK: - Cells

let options = benchOptions()
let graph = fixture.graph
let bytes = fixture.bytes
var cells: [BenchCell] = []
cells.append(BenchCell("nib-graph", "nib from its parsed graph: `Nib(graph:)` + `load(owner:options:)`", objects: live, run: {
  let owner = BenchOwner()
  return (try Nib(graph: graph, name: "generated.nib").load(owner: owner, options: options), owner)
}, check: { try fixture.check($0.0, owner: $0.1) }))
let sharedNib = Nib(graph: graph, name: "generated.nib")
cells.append(BenchCell("nib-reuse", "nib, one `Nib` instantiated again and again (`UINib`'s pattern)", objects: live, run: {
  let owner = BenchOwner()
  return (try sharedNib.load(owner: owner, options: options), owner)
}, check: { try fixture.check($0.0, owner: $0.1) }))
cells.append(BenchCell("nib-bytes", "nib from its bytes: `Nib(data:)` (NIBArchive read) + load", objects: live, run: {
  let owner = BenchOwner()
  return (try Nib(data: bytes, name: "generated.nib").load(owner: owner, options: options), owner)
}, check: { try fixture.check($0.0, owner: $0.1) }))
cells.append(BenchCell("nib-file", "nib from its file: `Nib(contentsOf:)` + load", objects: live, run: {
  let owner = BenchOwner()
  return (try Nib(contentsOf: nibPath).load(owner: owner, options: options), owner)
}, check: { try fixture.check($0.0, owner: $0.1) }))
cells.append(BenchCell("nib-open", "  sub-step: `Nib(data:)` only (bytes read into the graph, layout read; no objects made)", objects: 0, run: {
  try Nib(data: bytes, name: "generated.nib")
}, check: { nib in
  guard nib.graph.objects.count == graph.objects.count else { throw CheckFailure("read \(nib.graph.objects.count) graph objects") }
}))
cells.append(BenchCell("nib-parse", "  sub-step: `NIBArchive(bytes:)` + `NibGraph(_:)` only (the tables' way; `Nib(data:)` skips the tables)", objects: 0, run: {
  NibGraph(try NIBArchive(bytes: bytes))
}, check: { parsed in
  guard parsed.objects.count == graph.objects.count else { throw CheckFailure("parsed \(parsed.objects.count) graph objects") }
}))
let decodeStep: DecodeStep
/// Objects the unarchiver makes for one load: the listed objects and what they refer to that no
/// list names (the check boxes' shared `NSButtonImageSource`).
let madePerLoad: Int
/// Made objects `LoadedNib.objectsByID` cannot hold: an object without an object id is keyed by
/// its graph index, which can be another object's id.
var idCollisions: [String] = []
do {
  decodeStep = try DecodeStep(graph)
  let unarchiver = try decodeStep.run(graph, classes: benchClasses)
  madePerLoad = unarchiver.madeIndices.count
  if case .object(let data)? = graph.objects[graph.root]["IB.objectdata"],
    case .object(let keys)? = graph.objects[data]["NSOidsKeys"], case .object(let values)? = graph.objects[data]["NSOidsValues"]
  {
    var oids: [Int: Int] = [:]
    for (object, id) in zip(graph.members(of: keys) ?? [], graph.members(of: values) ?? []) {
      if let number = unarchiver.graph.objects[id]["NS.intval"].flatMap({ payload -> Int? in
        switch payload {
        case .int8(let value): Int(value)
        case .int16(let value): Int(value)
        case .int32(let value): Int(value)
        case .int64(let value): Int(value)
        default: nil
        }
      }) { oids[object] = number }
    }
    let byID = Dictionary(oids.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    for index in unarchiver.madeIndices where oids[index] == nil {
      if let other = byID[index] {
        idCollisions.append(
          "\(graph.objects[index].className) #\(index) (no object id) and \(graph.objects[other].className) #\(other) (object id \(index))")
      }
    }
  }
} catch {
  fail("the decode step: \(error)")
}
let decodeTitle = "  sub-step: objects made and decoded only (`NibUnarchiver`; no connections, no awake)"
cells.append(BenchCell("nib-decode", decodeTitle, objects: madePerLoad, run: {
  try decodeStep.run(graph, classes: benchClasses)
}, check: { unarchiver in
  guard unarchiver.madeIndices.count == madePerLoad, unarchiver.warnings.isEmpty else {
    throw CheckFailure("the unarchiver made \(unarchiver.madeIndices.count) objects, \(unarchiver.warnings.count) warnings")
  }
}))
cells.append(BenchCell("registry", "  sub-step: `ClassRegistry.interfaceObjects` (what `Nib.Options()` builds)", objects: 0, run: {
  ClassRegistry.interfaceObjects
}, check: { registry in
  guard registry.contains(className: "NSButton") else { throw CheckFailure("the registry lacks NSButton") }
}))
cells.append(BenchCell("ka-items", "KeyedArchive, item graph from its bytes (`unarchivedObject(ofClass:from:)`)", objects: items.objects, run: {
  try StasisItems.unarchive(stasisItems)
}, check: { try StasisItems.check($0, items) }))
cells.append(BenchCell("ka-items-parsed", "KeyedArchive, item graph from its parsed property list", objects: items.objects, run: {
  try StasisItems.unarchive(parsed: stasisItemsParsed)
}, check: { try StasisItems.check($0, items) }))
cells.append(BenchCell("ka-mirror", "KeyedArchive, the nib's tree as `Node`s from bytes", objects: mirror.expected.objects, run: {
  try MirrorGraph.unarchive(mirrorData)
}, check: { try MirrorGraph.check($0, mirror.expected) }))
let mirrorParsedTitle = "KeyedArchive, the nib's tree as `Node`s from its parsed property list"
cells.append(BenchCell("ka-mirror-parsed", mirrorParsedTitle, objects: mirror.expected.objects, run: {
  try MirrorGraph.unarchive(parsed: mirrorParsed)
}, check: { try MirrorGraph.check($0, mirror.expected) }))
if foundationFailure == nil {
  cells.append(BenchCell("foundation-items", "Foundation `NSKeyedUnarchiver`, item graph from its bytes", objects: items.objects, run: {
    try FoundationItems.unarchive(foundationItems)
  }, check: { try FoundationItems.check($0, items) }))
}
var openStoryboards: [Storyboard] = []
for (index, storyboard) in storyboards.enumerated() {
  let name = URL(fileURLWithPath: storyboard.folder).deletingPathExtension().lastPathComponent
  let sceneOptions = storyboard.options
  switch storyboard.scene {
  case .initialController:
    let dagger = storyboard.viewProblem == nil ? "" : " †"
    let coldTitle = "\(name): `Storyboard(contentsOf:)` + initial controller + its view\(dagger)"
    cells.append(BenchCell("sb\(index)-cold", coldTitle, objects: storyboard.objects, run: {
      try storyboard.loadCold(options: sceneOptions)
    }, check: { try storyboard.check($0) }))
    do {
      let open = try Storyboard(contentsOf: storyboard.folder, options: sceneOptions)
      openStoryboards.append(open)
      let manualViewNib = storyboard.manualViewNib
      let openTitle = "\(name): initial controller + its view, storyboard already open\(dagger)"
      cells.append(BenchCell("sb\(index)-open", openTitle, objects: storyboard.objects, run: {
        try StoryboardFixture.instantiate(open, manualViewNib: manualViewNib)
      }, check: { try storyboard.check($0) }))
    } catch {
      storyboardFailures.append("\(name): \(error)")
    }
  case .mainMenu:
    cells.append(BenchCell("sb\(index)-cold", "\(name): `Storyboard(contentsOf:)` + `loadMainMenu(into:)`", objects: storyboard.objects, run: {
      try storyboard.loadCold(options: sceneOptions)
    }, check: { try storyboard.check($0) }))
    do {
      let open = try Storyboard(contentsOf: storyboard.folder, options: sceneOptions)
      openStoryboards.append(open)
      cells.append(BenchCell("sb\(index)-open", "\(name): `loadMainMenu(into:)`, storyboard already open", objects: storyboard.objects, run: {
        try StoryboardFixture.loadMainMenu(open)
      }, check: { try storyboard.check($0) }))
    } catch {
      storyboardFailures.append("\(name): \(error)")
    }
  }
}
if let onlyCells { cells = cells.filter { onlyCells.contains($0.key) } }

// MARK: - Loop mode (profilers)

if let loopKey {
  guard let cell = cells.first(where: { $0.key == loopKey }) else {
    fail("no cell \(loopKey); cells: \(cells.map(\.key).joined(separator: ", "))")
  }
  // Only the operation runs in the loop (results are freed as the next one is made); the last
  // result is checked.
  let start = cpuNow()
  do {
    var last: Any?
    for _ in 0..<loopIterations { last = try cell.run() }
    let elapsed = cpuNow() - start
    if let last { try cell.check(last) }
    let each = elapsed * 1000 / Double(loopIterations)
    progress(String(format: "%@: %d iterations, %.3f ms each (CPU, frees included)", loopKey, loopIterations, each))
  } catch {
    fail("\(loopKey): \(error)")
  }
  finish(0)
}

// MARK: - Measuring

progress("measuring \(cells.count) cells: \(rounds) rounds, ≥ \(minimumTime) s and ≥ \(minimumIterations) iterations each")
runCells(cells, minimumTime: minimumTime, minimumIterations: minimumIterations, warmUp: warmUp, rounds: rounds, progress: progress)

/// First loads in fresh processes: `firstRuns` children per subject, the median of their CPU times.
struct FirstLoad {
  var title: String
  var objects: Int
  var cpu: [Double] = []
  var wall: [Double] = []
  var failure: String?
}
var firstLoads: [FirstLoad] = []
if firstRuns > 0 {
  var subjects: [(title: String, objects: Int, arguments: [String], expected: Int)] = [
    ("generated nib: `Nib(contentsOf:)` + load", live, ["nib", nibPath], live)
  ]
  for storyboard in storyboards {
    let name = URL(fileURLWithPath: storyboard.folder).deletingPathExtension().lastPathComponent
    switch storyboard.scene {
    case .initialController:
      subjects.append((
        "\(name): open + initial controller + view\(storyboard.viewProblem == nil ? "" : " †")", storyboard.objects,
        ["storyboard", storyboard.folder] + (storyboard.manualViewNib.map { [$0.name] } ?? []), storyboard.shape
      ))
    case .mainMenu:
      subjects.append(("\(name): open + `loadMainMenu(into:)`", storyboard.objects, ["menu", storyboard.folder], storyboard.shape))
    }
  }
  for subject in subjects {
    progress("first loads in \(firstRuns) fresh processes: \(subject.title)")
    var result = FirstLoad(title: subject.title, objects: subject.objects)
    for _ in 0..<firstRuns {
      do {
        switch try spawnMemoryChild(arguments: ["--first-load-child"] + subject.arguments) {
        case .failed(let status, let message):
          throw CheckFailure("child exited \(status): \(message)")
        case .report(let fields):
          guard let cpu = fields["cpu"], let wall = fields["wall"], fields["check"] == subject.expected else {
            throw CheckFailure("child reported \(fields), expected check=\(subject.expected)")
          }
          result.cpu.append(Double(cpu) / 1e9)
          result.wall.append(Double(wall) / 1e9)
        }
      } catch {
        result.failure = "\(error)"
        break
      }
    }
    firstLoads.append(result)
  }
}

// MARK: - Report

func milliseconds(_ seconds: Double) -> String {
  let ms = seconds * 1000
  return ms >= 100 ? String(format: "%.0f", ms) : ms >= 10 ? String(format: "%.1f", ms) : String(format: "%.3f", ms)
}
func rate(_ perSecond: Double) -> String {
  perSecond >= 1e6 ? String(format: "%.2f M", perSecond / 1e6) : String(format: "%.0f k", perSecond / 1e3)
}
func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
func kilobytes(_ count: Int) -> String { String(format: "%.1f KB", Double(count) / 1000) }
@MainActor func cell(_ key: String) -> BenchCell? { cells.first { $0.key == key && $0.failure == nil && !$0.times.isEmpty } }

let generated = fixture.generated
let dateFormatter = ISO8601DateFormatter()
print("## Nib loading — \(dateFormatter.string(from: startDate))\n")
print("Library: \(source). Machine: \(machine.architecture), Linux \(machine.kernelRelease), nproc \(machine.processors), "
  + "\(machine.cpuModel); load average \(loadAtStart) at the start, \(loadAverage()) at the end. Release build. "
  + "CPU-time clock (CLOCK_PROCESS_CPUTIME_ID); each cell warmed up for \(warmUp) s, then ≥ \(minimumTime) s and "
  + "≥ \(minimumIterations) iterations spread over \(rounds) rounds that take turns with every other cell; the median "
  + "iteration. Only the operation is timed: every result is checked after the clock stops (object counts, outlets, "
  + "actions and their targets, runtime attributes' effects, graph identities) and freed after the check, untimed.\n")
let colorNote = colorProfiles == nil ? "without ICC profiles (no corpus)" : "with Apple's ICC profiles, as ibtool compiles them"
let declaredNote =
  live == generated.specCount
  ? "exactly the objects the xib declares" : "\(generated.specCount) declared in the xib, the rest added by the compiler"
let attributeNote = denseAttributes ? "dense: on every control and panel" : "one control per panel in turn, plus each panel's two"
var nibText = "**The nib** (generated, seed \(seed)): a window whose content view holds "
nibText += "\(min(8, max(1, generated.groups / 6))) columns of \(generated.groups) panels (custom class `BenchPanel`, each a "
nibText += "label, an editable text field, a push button with a width constraint, a check box, a slider and views nested "
nibText += "1–3 deep around a small button) and a main menu of \(menus) submenus × \(itemsPerMenu) items; catalog colors "
nibText += "\(colorNote); File's Owner is `BenchOwner` (7 outlets in its `KeyTable`, 8 actions in its `ActionTable`). "
nibText += "\(kilobytes(generated.xml.utf8.count)) of xib, compiled once by `CocoaNibCompiler` to \(graph.objects.count) graph "
nibText += "objects, \(kilobytes(bytes.count)) as a NIBArchive. **One load makes \(live) live objects** "
nibText += "(`LoadedNib.objects.count`; \(declaredNote)) and connects \(generated.outlets) outlets, "
nibText += "\(generated.actions) actions (to File's Owner and to the First Responder) and \(generated.attributes) runtime "
nibText += "attributes (\(attributeNote); string, boolean, integer, real and bool numbers, dotted key paths, the custom "
nibText += "class's own keys), then sends `awakeFromNib` to every object. Loads are strict: any unknown class, key or "
nibText += "selector would fail the run."
if madePerLoad != live {
  nibText += " (The unarchiver makes \(madePerLoad) objects per load; `objectsByID` holds \(live) because "
  nibText +=
    idCollisions.isEmpty
    ? "some made objects share an id.)"
    : "an object without an object id is keyed by its graph index, which here is another object's id: "
      + "\(idCollisions.joined(separator: "; ")).)"
}
nibText += "\n"
print(nibText)
/// Entries of a keyed archive's `$objects` (objects, strings, numbers, dates, arrays, class records).
func archiveEntries(_ archive: PropertyListValue) -> Int { archive["$objects"]?.arrayValue?.count ?? 0 }
print("**The equal-sized keyed graphs**: (1) the item graph of Tests/Fixtures/bench/GRAPH.md with N = \(itemCount) items, so "
  + "Store + 50 Categories + \(itemCount) Items = \(items.objects) objects (each item: 2 strings, a 64-bit integer, a date, "
  + "a shared category reference, parent ↔ children cycles every 1,000 items), binary archive "
  + "\(kilobytes(stasisItems.count)) with \(archiveEntries(stasisItemsParsed)) `$objects` entries (Stasis; Foundation's "
  + "\(kilobytes(foundationItems.count))); (2) the nib's own tree "
  + "as a keyed archive of `Node` objects (class name, title, frame string, tag, weak parent, children, a control's "
  + "cell, an action and a weak target), padded to \(mirror.expected.objects) objects, binary archive "
  + "\(kilobytes(mirrorData.count)) with \(archiveEntries(mirrorParsed)) `$objects` entries. (The nib's graph has "
  + "\(graph.objects.count) objects for the same \(live) live ones: its strings, numbers, colors, fonts and the arrays "
  + "of subviews and connections are graph objects too.)\n")

print("| cell | median ms (CPU) | wall ms | iterations | objects | objects/s |")
print("|---|---:|---:|---:|---:|---:|")
for benchCell in cells {
  if let failure = benchCell.failure {
    print("| \(benchCell.title) | FAILED: \(failure) | | | | |")
    continue
  }
  let perSecond = benchCell.objects > 0 ? rate(benchCell.objectsPerSecond) : "—"
  print("| \(benchCell.title) | \(milliseconds(benchCell.median)) | \(milliseconds(benchCell.wallMedian)) | "
    + "\(benchCell.times.count) | \(benchCell.objects > 0 ? String(benchCell.objects) : "—") | \(perSecond) |")
}
if let foundationFailure { print("\nFoundation's NSKeyedUnarchiver could not decode the item graph: \(foundationFailure)") }

var ratioLines: [String] = []
var ratios: [(String, String, String)] = [
  ("nib-bytes", "ka-items", "nib from bytes ÷ KeyedArchive item graph from bytes"),
  ("nib-graph", "ka-items-parsed", "nib from parsed graph ÷ KeyedArchive item graph from parsed plist"),
  ("nib-bytes", "ka-mirror", "nib from bytes ÷ KeyedArchive nib-shaped tree from bytes"),
  ("nib-graph", "ka-mirror-parsed", "nib from parsed graph ÷ KeyedArchive nib-shaped tree from parsed plist"),
  ("nib-bytes", "foundation-items", "nib from bytes ÷ Foundation item graph from bytes"),
  ("nib-open", "nib-bytes", "reading the nib (`Nib(data:)`)'s share of a load from bytes"),
  ("nib-parse", "nib-bytes", "NIBArchive tables + `NibGraph(_:)` ÷ a load from bytes"),
  ("nib-decode", "nib-graph", "making and decoding the objects' share of a load from the graph"),
  ("registry", "nib-graph", "building `ClassRegistry.interfaceObjects` ÷ one load from the graph"),
]
for (numerator, denominator, title) in ratios {
  guard let top = cell(numerator), let bottom = cell(denominator) else { continue }
  ratioLines.append("- \(title): \(ratio(top.median / bottom.median))")
}
if !ratioLines.isEmpty {
  print("\n**Ratios** (same run, CPU medians):\n")
  for line in ratioLines { print(line) }
}

if !firstLoads.isEmpty {
  print("\n**First load in a fresh process** (\(firstRuns) processes each; the class registry is built before the clock; "
    + "file read, parsing, code pages, lazy globals and the allocator all cold; CPU and wall medians):\n")
  print("| subject | objects | CPU ms | wall ms | runs |")
  print("|---|---:|---:|---:|---:|")
  for first in firstLoads {
    if let failure = first.failure {
      print("| \(first.title) | \(first.objects) | FAILED: \(failure) | | |")
    } else {
      print("| \(first.title) | \(first.objects) | \(milliseconds(median(first.cpu))) | \(milliseconds(median(first.wall))) "
        + "| \(first.cpu.count) |")
    }
  }
}
if !storyboards.isEmpty {
  print("\nStoryboards: " + storyboards.map { storyboard in
    "\(storyboard.title): \(storyboard.nibCount) nibs, \(kilobytes(storyboard.bytes)), \(storyboard.objects) objects in the scene"
      + (storyboard.scene == .mainMenu
        ? " (\(storyboard.shape) menu items; it has no initial controller, so its scene is the main menu NSApplication loads at launch)"
        : " (\(storyboard.shape % 10_000_000) views in the controller's view)")
      + (storyboard.warnings.isEmpty
        ? "" : ", lenient-mode warnings on every load: " + storyboard.warnings.map { "“\($0)”" }.joined(separator: " "))
  }.joined(separator: "; ") + ". Each compiled by `CocoaStoryboardCompiler` and written as a `.storyboardc` folder before the run; "
    + "\"cold\" reads it from disk (page cache) with a new `Storyboard` every iteration.")
}

let viewProblems = storyboards.filter { $0.viewProblem != nil }
if !viewProblems.isEmpty {
  print("\n† `Storyboard` does not load the content view controller's view nib: "
    + viewProblems.map { "\(URL(fileURLWithPath: $0.folder).deletingPathExtension().lastPathComponent): \($0.viewProblem!)" }
      .joined(separator: "; ")
    + ". So the rows marked † load that nib in the benchmark, after `instantiateInitialController()`, as AppKit does it "
    + "(the controller as File's Owner with its external objects and the storyboard, then the window's content view set "
    + "to the controller's view), from the graph the storyboard already read; they measure the scene as it should load.")
}

// The figures for Benchmarks/results/nib-bench.json (BENCH_RESULTS, set by run.sh): every cell by
// its key (subject; a storyboard's by its name, cold or open) and title (operation), CPU and wall medians; KeyedArchive's and Foundation's
// decoding of the item graph under one subject and operation, side by side.
var resultsFile = ResultsFile(harness: "nib-bench", loadAtStart: loadAtStart)
for benchCell in cells where benchCell.failure == nil {
  var system = "Stasis", subject = benchCell.key
  var operation = benchCell.title.trimmingCharacters(in: .whitespaces)
  if benchCell.key.hasPrefix("sb"), let name = operation.split(separator: ":").first {
    // A storyboard's cells by its name: opened from disk each time, or already open.
    subject = "\(name), " + (benchCell.key.hasSuffix("-cold") ? "cold" : "open")
  } else if benchCell.key == "ka-items" || benchCell.key == "foundation-items" {
    system = benchCell.key == "ka-items" ? "Stasis" : "Foundation NSKeyedUnarchiver"
    subject = "item graph of \(benchCell.objects) objects"
    operation = "decode from its bytes"
  }
  resultsFile.add(system: system, subject: subject, operation: operation, value: benchCell.median * 1e3, unit: "ms")
  resultsFile.add(system: system, subject: subject, operation: operation, value: benchCell.wallMedian * 1e3, unit: "ms", clock: "wall")
}
for first in firstLoads where first.failure == nil {
  resultsFile.add(system: "Stasis", subject: first.title, operation: "first load in a fresh process", value: median(first.cpu) * 1e3, unit: "ms")
  resultsFile.add(system: "Stasis", subject: first.title, operation: "first load in a fresh process", value: median(first.wall) * 1e3, unit: "ms", clock: "wall")
}
resultsFile.writeIfRequested(source: source)

print("\n**The bars**:\n")
var failed = false
if let graphCell = cell("nib-graph") {
  let perSecond = graphCell.objectsPerSecond
  let pass = perSecond >= 300_000
  failed = failed || !pass
  print("- ≥ 300,000 objects instantiated and connected per second (nib from its graph, \(live) objects): "
    + "\(pass ? "PASS" : "FAIL") — \(rate(perSecond)) objects/s"
    + (cell("nib-bytes").map { "; from bytes \(rate($0.objectsPerSecond)) objects/s" } ?? "") + ".")
}
if let nibCell = cell("nib-bytes"), let archiveCell = cell("ka-items") {
  let value = nibCell.median / archiveCell.median
  let pass = value <= 2
  failed = failed || !pass
  print("- a \(live)-object nib in ≤ 2× the time KeyedArchive takes to decode an equal-sized graph (both from bytes, "
    + "the GRAPH.md item graph of \(items.objects) objects): \(pass ? "PASS" : "FAIL") — \(ratio(value)) "
    + "(\(milliseconds(nibCell.median)) ms vs \(milliseconds(archiveCell.median)) ms)"
    + (cell("ka-mirror").map { "; against the nib-shaped tree \(ratio(nibCell.median / $0.median))" } ?? "") + ".")
}

var failures: [String] = storyboardFailures
for benchCell in cells { if let failure = benchCell.failure { failures.append("\(benchCell.key): \(failure)") } }
for first in firstLoads { if let failure = first.failure { failures.append("first load \(first.title): \(failure)") } }
if !failures.isEmpty {
  print("\nFAILED checks:\n")
  for failure in failures { print("- \(failure)") }
  finish(1)
}
finish(0)
