// interface-bench: Stasis's `ibtool` compiling the corpus xibs and storyboards, one
// whole process per compile, against the Python ibtool clone's published figures; NIBArchive
// reading and writing in MB/s against the Python `nibarchive` package run in the same session;
// peak memory of compiling the largest files. Markdown on stdout, progress on stderr.
//
//   interface-bench --ibtool PATH [--corpus Tests/Fixtures/corpus] [--runs 25] [--loop-rounds 3]
//                   [--rounds 5] [--min-time 2] [--objects 200000] [--python python3]
//                   [--python-script PATH] [--source TEXT] [--note TEXT] [--keep]
//   interface-bench --memory-child DOCUMENT     (internal: one compile in process, prints VmHWM)

import BenchSupport
import Foundation
import Interface
import InterfaceBuilder

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("interface-bench: \(message)\n".utf8))
  exit(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - The Python ibtool clone's figures, measured on this kind of machine

/// `ibtool --compile` of a 200 KB xib (transmission's MainMenu.xib is the corpus's 200 KB xib).
let pythonLargeXib = 0.56
/// Of which Python's start-up.
let pythonStartUp = 0.41
/// Its 168 samples compiled and compared one by one.
let pythonCorpusSeconds = 182.0
let pythonCorpusSamples = 168.0

// MARK: - Options

var ibtool = ""
var corpus = "Tests/Fixtures/corpus"
var runs = 25
var loopRounds = 3
var rounds = 5
var minTime = 2.0
var objectCount = 200_000
var python = "python3"
var pythonScript = ""
var source = "working tree"
var note = ""
var keep = false
var memoryChild: String?

do {
  var arguments = CommandLine.arguments.dropFirst().makeIterator()
  func value(_ option: String) -> String {
    guard let text = arguments.next() else { fail("\(option) needs a value") }
    return text
  }
  func number(_ option: String) -> Int {
    guard let number = Int(value(option)), number > 0 else { fail("\(option) needs a positive number") }
    return number
  }
  while let argument = arguments.next() {
    switch argument {
    case "--ibtool": ibtool = value(argument)
    case "--corpus": corpus = value(argument)
    case "--runs": runs = number(argument)
    case "--loop-rounds": loopRounds = number(argument)
    case "--rounds": rounds = number(argument)
    case "--min-time":
      guard let seconds = Double(value(argument)), seconds > 0 else { fail("--min-time needs seconds") }
      minTime = seconds
    case "--objects": objectCount = number(argument)
    case "--python": python = value(argument)
    case "--python-script": pythonScript = value(argument)
    case "--source": source = value(argument)
    case "--note": note = value(argument)
    case "--keep": keep = true
    case "--memory-child": memoryChild = value(argument)
    default: fail("unknown option \(argument)")
    }
  }
}

// MARK: - Memory child: one document compiled in this process, as ibtool does it

/// Compiles `path` (xib → nib bytes, storyboard → every nib's bytes) and returns the bytes written.
@MainActor func compileInProcess(_ path: String) throws -> Int {
  let document = try InterfaceDocument(contentsOfFile: path)
  let options = compilerOptions(for: path)
  if path.hasSuffix(".storyboard") {
    let output = try CocoaStoryboardCompiler.compile(document, options: options)
    return output.nibs.reduce(0) { $0 + NIBArchive($1.graph, keepingUnreachable: false).encoded().count }
  }
  return NIBArchive(try CocoaNibCompiler.compile(document, options: options), keepingUnreachable: false).encoded().count
}

if let path = memoryChild {
  // Code pages and one-time setup first, with a small document of the same kind.
  let warmUp = corpus + "/xib/ibtool_pairs/correct/" + (path.hasSuffix(".storyboard") ? "sb_basic_wc.storyboard" : "minimal.xib")
  _ = try? compileInProcess(warmUp)
  let before = procStatus("VmRSS") ?? 0
  let wasReset = resetPeakResident()
  do {
    let written = try compileInProcess(path)
    let peak = procStatus("VmHWM") ?? 0
    print("before=\(before) peak=\(peak) reset=\(wasReset ? 1 : 0) written=\(written)")
    exit(0)
  } catch {
    fail("\(path): \(error)")
  }
}

guard !ibtool.isEmpty else { fail("--ibtool PATH is required (Benchmarks/Interface/run.sh passes it)") }
let startDate = Date()
let loadAtStart = loadAverage()
let machine = MachineDescription()
let scratch = FileManager.default.temporaryDirectory.path + "/interface-bench-\(getpid())"
try? FileManager.default.removeItem(atPath: scratch)
try! FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { if !keep { try? FileManager.default.removeItem(atPath: scratch) } }

// MARK: - Helpers

func fileSize(_ path: String) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// Every file under `folder` (recursively) whose name ends with one of `suffixes`, sorted by path.
func files(under folder: String, suffixes: [String]) -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
  var found: [String] = []
  while let relative = enumerator.nextObject() as? String {
    if suffixes.contains(where: { relative.hasSuffix($0) }) { found.append(folder + "/" + relative) }
  }
  return found.sorted()
}

func kilobytes(_ bytes: Int) -> String {
  bytes >= 1_000_000 ? String(format: "%.2f MB", Double(bytes) / 1e6) : String(format: "%.0f KB", Double(bytes) / 1e3)
}
func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
func milliseconds(_ seconds: Double) -> String {
  seconds >= 10 ? String(format: "%.0f ms", seconds * 1e3) : String(format: "%.1f ms", seconds * 1e3)
}
func seconds(_ value: Double) -> String { value >= 10 ? String(format: "%.1f s", value) : String(format: "%.2f s", value) }
func rate(_ value: Double) -> String { value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value) }
func ratio(_ value: Double) -> String { value >= 10 ? String(format: "%.0f×", value) : String(format: "%.2f×", value) }
@MainActor func name(_ path: String) -> String {
  let prefix = corpus + "/xib/"
  return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
}

/// The ICC profiles of catalog colors come from two of Apple's nibs, as in the project's tests
/// (Stasis does not ship AppKit's profiles): `--color-profiles-from`, and `--module TestModule` for
/// the pair viraptor/ibtool's harness compiled with a module.
@MainActor func profileNibs() -> [String] { ["test3.nib", "test6_whitecolor.nib"].map { corpus + "/nib/ibtool_pairs/correct/" + $0 } }
@MainActor func compileArguments(_ input: String, to output: String) -> [String] {
  var arguments = [ibtool, "--compile", output]
  for nib in profileNibs() { arguments += ["--color-profiles-from", nib] }
  if input.hasSuffix("/module_override.xib") { arguments += ["--module", "TestModule"] }
  return arguments + [input]
}
@MainActor func compilerOptions(for input: String) -> CocoaNibCompiler.Options {
  let nibs = profileNibs().compactMap { try? NIBArchive(contentsOfFile: $0) }
  return CocoaNibCompiler.Options(
    colorProfiles: ColorProfiles(extractingFrom: nibs), module: input.hasSuffix("/module_override.xib") ? "TestModule" : nil)
}

/// The output ibtool writes for `input`: a `.nib`, or a `.storyboardc` folder.
@MainActor func outputPath(for input: String, index: Int) -> String {
  scratch + "/out-\(index)" + (input.hasSuffix(".storyboard") ? ".storyboardc" : ".nib")
}

/// The Apple-compiled nib of an ibtool pair: nib/ibtool_pairs/… at the same path, `.nib` for a xib
/// and a `.out` folder for a storyboard.
@MainActor func appleOutput(for input: String) -> String? {
  let pairs = corpus + "/xib/ibtool_pairs/"
  guard input.hasPrefix(pairs) else { return nil }
  var relative = String(input.dropFirst(pairs.count))
  relative = relative.hasSuffix(".xib") ? String(relative.dropLast(4)) + ".nib" : String(relative.dropLast(11)) + ".out"
  let path = corpus + "/nib/ibtool_pairs/" + relative
  return FileManager.default.fileExists(atPath: path) ? path : nil
}

// MARK: - 1. The corpus: every ibtool pair compiled once (which compile, and why the others not)

let pairsFolder = corpus + "/xib/ibtool_pairs/correct"
let pairDocuments = files(under: pairsFolder, suffixes: [".xib", ".storyboard"])
guard !pairDocuments.isEmpty else { fail("no .xib or .storyboard under \(pairsFolder)") }
let pairBytes = pairDocuments.reduce(0) { $0 + fileSize($1) }
progress("probing \(pairDocuments.count) documents under \(pairsFolder) with \(ibtool)")

var compiles: [String: Bool] = [:]
var refusals: [String: String] = [:]
@MainActor func probe(_ path: String, index: Int) -> Bool {
  if let known = compiles[path] { return known }
  let log = scratch + "/probe.log"
  let run = runProcess(compileArguments(path, to: outputPath(for: path, index: index)), outputPath: log)
  compiles[path] = run.succeeded
  if !run.succeeded {
    refusals[path] = (run.status > 128 ? "killed by signal \(run.status - 128): " : "") + firstErrorDescription(inFile: log)
  }
  return run.succeeded
}
for (index, path) in pairDocuments.enumerated() { _ = probe(path, index: index) }
let compiledPairs = pairDocuments.filter { compiles[$0] == true }
progress("\(compiledPairs.count) of \(pairDocuments.count) compile")

// The files timed one by one.
let bySizeDown = { (paths: [String]) in paths.sorted { fileSize($0) > fileSize($1) } }
let transmission = pairsFolder + "/transmission_MainMenu.xib"
guard let largestXib = bySizeDown(compiledPairs.filter { $0.hasSuffix(".xib") }).first else { fail("no xib compiles") }
guard let smallestXib = compiledPairs.filter({ $0.hasSuffix(".xib") }).min(by: { fileSize($0) < fileSize($1) }) else {
  fail("no xib compiles")
}
let rectangle = corpus + "/xib/rectangle/Rectangle_Base.lproj_Main.storyboard"
let storyboards = bySizeDown(files(under: corpus + "/xib", suffixes: [".storyboard"]))
var largestStoryboard: String?
var storyboardsTried: [String] = []
for (index, path) in ([rectangle] + storyboards.filter { $0 != rectangle }).enumerated() {
  storyboardsTried.append(path)
  if probe(path, index: 10_000 + index) {
    largestStoryboard = path
    break
  }
}

struct Timed {
  var path: String
  var role: String
  var walls: [Double] = []
  var cpus: [Double] = []
  var peaks: [Int] = []
}
var timed: [Timed] = []
timed.append(Timed(path: largestXib, role: largestXib == transmission ? "largest xib (200 KB, the issue's file)" : "largest xib that compiles"))
if let storyboard = largestStoryboard {
  timed.append(Timed(path: storyboard, role: storyboard == rectangle ? "Rectangle's Main.storyboard" : "largest storyboard that compiles"))
}
timed.append(Timed(path: smallestXib, role: "smallest xib (start-up floor)"))

// MARK: - 2. Whole-process compiles of single files, interleaved run by run

progress("timing \(timed.count) files × \(runs) runs (2 warm-up runs each), one process per compile")
for (index, file) in timed.enumerated() {
  for _ in 0 ..< 2 {
    let run = runProcess(compileArguments(file.path, to: outputPath(for: file.path, index: 20_000 + index)))
    guard run.succeeded else { fail("\(name(file.path)) compiled in the probe but not now (status \(run.status))") }
  }
}
for _ in 0 ..< runs {
  for index in timed.indices {
    let run = runProcess(compileArguments(timed[index].path, to: outputPath(for: timed[index].path, index: 20_000 + index)))
    guard run.succeeded else { fail("\(name(timed[index].path)) failed in a timed run (status \(run.status))") }
    timed[index].walls.append(run.wall)
    timed[index].cpus.append(run.cpu)
    timed[index].peaks.append(run.peakResident)
  }
}
for file in timed {
  progress("  \(name(file.path)): wall median \(milliseconds(median(file.walls))), min \(milliseconds(file.walls.min()!))")
}

// MARK: - 3. The corpus in one loop, a process per file (and compile + compare with Apple's nib)

struct LoopRound {
  var compileTotal = 0.0
  var compiledTotal = 0.0  // only the files that compiled
  var compiled = 0
  var compareTotal = 0.0
  var compared = 0
  var equal = 0
}
var loopResults: [LoopRound] = []
progress("corpus loop: \(pairDocuments.count) documents, \(loopRounds) rounds")
for round in 0 ..< loopRounds {
  var result = LoopRound()
  let start = wallNow()
  for (index, path) in pairDocuments.enumerated() {
    let run = runProcess(compileArguments(path, to: outputPath(for: path, index: index)))
    if run.succeeded {
      result.compiled += 1
      result.compiledTotal += run.wall
    }
  }
  result.compileTotal = wallNow() - start
  // Each compiled document's output against Apple's, one process each (Stasis's --compare).
  let compareStart = wallNow()
  for (index, path) in pairDocuments.enumerated() where compiles[path] == true {
    guard let apple = appleOutput(for: path) else { continue }
    let run = runProcess([ibtool, "--compare", apple, outputPath(for: path, index: index)])
    result.compared += 1
    if run.succeeded { result.equal += 1 }
  }
  result.compareTotal = wallNow() - compareStart
  progress("  round \(round + 1): \(result.compiled) compiled in \(seconds(result.compileTotal)); \(result.equal) of \(result.compared) equal to Apple's, compared in \(seconds(result.compareTotal))")
  loopResults.append(result)
}

// MARK: - 4. In-process stages of the timed files (CPU time)

struct Stage {
  var name: String
  var seconds: Double
}
func timeStage(_ body: () throws -> Int) rethrows -> Double {
  var times: [Double] = []
  var spent = 0.0
  var checksum = 0
  checksum &+= try body()  // warm-up
  while times.count < 5 || spent < 0.5 {
    let start = cpuNow()
    checksum &+= try body()
    let elapsed = cpuNow() - start
    times.append(elapsed)
    spent += elapsed
  }
  if checksum == 42 { progress("") }
  return median(times)
}
var stages: [(path: String, stages: [Stage])] = []
for file in timed where file.path != smallestXib {
  let path = file.path
  do {
    let bytes = readFileBytes(path) ?? []
    let document = try InterfaceDocument(bytes: bytes, path: path)
    let options = compilerOptions(for: path)
    var list = [Stage(name: "read the document (libxml2 + element tree)", seconds: try timeStage { try InterfaceDocument(bytes: bytes, path: path).root.children.count })]
    if path.hasSuffix(".storyboard") {
      let output = try CocoaStoryboardCompiler.compile(document, options: options)
      list.append(Stage(name: "compile (CocoaStoryboardCompiler)", seconds: try timeStage { try CocoaStoryboardCompiler.compile(document, options: options).nibs.count }))
      list.append(Stage(name: "graphs to NIBArchive tables", seconds: timeStage { output.nibs.reduce(0) { $0 + NIBArchive($1.graph, keepingUnreachable: false).objects.count } }))
      let archives = output.nibs.map { NIBArchive($0.graph, keepingUnreachable: false) }
      list.append(Stage(name: "encode the nibs", seconds: timeStage { archives.reduce(0) { $0 + $1.encoded().count } }))
    } else {
      let graph = try CocoaNibCompiler.compile(document, options: options)
      list.append(Stage(name: "compile (CocoaNibCompiler)", seconds: try timeStage { try CocoaNibCompiler.compile(document, options: options).objects.count }))
      list.append(Stage(name: "graph to NIBArchive tables", seconds: timeStage { NIBArchive(graph, keepingUnreachable: false).objects.count }))
      let archive = NIBArchive(graph, keepingUnreachable: false)
      list.append(Stage(name: "encode the nib", seconds: timeStage { archive.encoded().count }))
    }
    stages.append((path, list))
  } catch {
    fail("in-process compile of \(name(path)): \(error)")
  }
}

// MARK: - 5. NIBArchive reading and writing, Stasis and Python's nibarchive in the same rounds

let nibPaths = files(under: corpus + "/nib", suffixes: [""]).filter { path in
  guard let handle = FileHandle(forReadingAtPath: path) else { return false }
  defer { try? handle.close() }
  return NIBArchive.isNIBArchive([UInt8]((try? handle.read(upToCount: 10)) ?? Data()))
}
let corpusNibs = nibPaths.map { readFileBytes($0) ?? [] }
let corpusNibBytes = corpusNibs.reduce(0) { $0 + $1.count }
progress("NIBArchive: \(corpusNibs.count) corpus nibs, \(kilobytes(corpusNibBytes)); building a synthetic graph of ~\(objectCount) objects")

var corpusArchives: [NIBArchive] = []
for (path, bytes) in zip(nibPaths, corpusNibs) {
  do {
    let archive = try NIBArchive(bytes: bytes)
    guard archive.encoded() == bytes else { fail("\(path): Stasis does not write back the same bytes") }
    corpusArchives.append(archive)
  } catch {
    fail("\(path): \(error)")
  }
}
let corpusGraphs = corpusArchives.map { NibGraph($0) }
let graphBuildStart = cpuNow()
let synthetic = syntheticGraph(objectCount: objectCount)
let graphBuildTime = cpuNow() - graphBuildStart
let syntheticArchive = NIBArchive(synthetic)
let syntheticBytes = syntheticArchive.encoded()
let syntheticPath = scratch + "/synthetic.nib"
do {
  try syntheticArchive.write(toFile: syntheticPath)
  let readBack = try NIBArchive(contentsOfFile: syntheticPath)
  guard readBack == syntheticArchive, readBack.encoded() == syntheticBytes else { fail("the synthetic nib does not read back equal") }
  guard NibGraph(readBack).objects.count == synthetic.objects.count else { fail("the synthetic graph does not come back whole") }
} catch {
  fail("synthetic nib: \(error)")
}
let syntheticValues = syntheticArchive.values.count
progress("synthetic nib: \(synthetic.objects.count) objects, \(syntheticValues) values, \(kilobytes(syntheticBytes.count)) (graph built in \(milliseconds(graphBuildTime)))")

struct Cell {
  var data: String
  var operation: String
  var bytes: Int
  var body: () throws -> Int
  var times: [Double] = []
}
var cells: [Cell] = [
  Cell(data: "corpus", operation: "read `NIBArchive(bytes:)`", bytes: corpusNibBytes) {
    try corpusNibs.reduce(0) { $0 + (try NIBArchive(bytes: $1)).objects.count }
  },
  Cell(data: "corpus", operation: "write `.encoded()`", bytes: corpusNibBytes) {
    corpusArchives.reduce(0) { $0 + $1.encoded().count }
  },
  Cell(data: "corpus", operation: "tables → `NibGraph`", bytes: corpusNibBytes) {
    corpusArchives.reduce(0) { $0 + NibGraph($1).objects.count }
  },
  Cell(data: "corpus", operation: "`NibGraph` → tables", bytes: corpusNibBytes) {
    corpusGraphs.reduce(0) { $0 + NIBArchive($1).values.count }
  },
  Cell(data: "synthetic", operation: "read `NIBArchive(bytes:)`", bytes: syntheticBytes.count) {
    try NIBArchive(bytes: syntheticBytes).objects.count
  },
  Cell(data: "synthetic", operation: "write `.encoded()`", bytes: syntheticBytes.count) {
    syntheticArchive.encoded().count
  },
  Cell(data: "synthetic", operation: "tables → `NibGraph`", bytes: syntheticBytes.count) {
    NibGraph(syntheticArchive).objects.count
  },
  Cell(data: "synthetic", operation: "`NibGraph` → tables", bytes: syntheticBytes.count) {
    NIBArchive(synthetic).values.count
  },
]

// Python: the corpus list and the synthetic nib, one process per round.
let listPath = scratch + "/nibs.txt"
try! nibPaths.joined(separator: "\n").write(toFile: listPath, atomically: true, encoding: .utf8)
var pythonTimes: [String: [Double]] = [:]
var pythonCounts: [String: [Int]] = [:]
var pythonProblem: String?
if pythonScript.isEmpty { pythonProblem = "no --python-script given" }

func stasisCounts(_ archives: [NIBArchive]) -> [Int] {
  [
    archives.reduce(0) { $0 + $1.objects.count }, archives.reduce(0) { $0 + $1.keys.count },
    archives.reduce(0) { $0 + $1.values.count }, archives.reduce(0) { $0 + $1.classNames.count },
  ]
}
let expectedCounts = ["corpus-read": stasisCounts(corpusArchives), "synthetic-read": stasisCounts([syntheticArchive])]

let roundTime = minTime / Double(rounds)
progress("timing \(cells.count) Stasis cells and 2 Python cells over \(rounds) rounds of ≥ \(String(format: "%.2f", roundTime)) s per cell")
do {
  var checksum = 0
  for index in cells.indices { checksum &+= try cells[index].body() }  // warm-up
  for round in 0 ..< rounds {
    for index in cells.indices {
      var spent = 0.0
      repeat {
        let start = cpuNow()
        checksum &+= try cells[index].body()
        let elapsed = cpuNow() - start
        cells[index].times.append(elapsed)
        spent += elapsed
      } while spent < roundTime
    }
    if pythonProblem == nil {
      let log = scratch + "/python.out"
      let run = runProcess([python, pythonScript, String(roundTime), listPath, syntheticPath], outputPath: log)
      let text = String(decoding: readFileBytes(log) ?? [], as: UTF8.self)
      if !run.succeeded {
        pythonProblem = "the Python nibarchive script failed (status \(run.status)): " + String(text.suffix(400))
      } else {
        for line in text.split(separator: "\n") {
          let fields = line.split(separator: " ").map(String.init)
          guard fields.count >= 3 else { continue }
          if fields[0] == "counts" {
            pythonCounts[fields[1]] = fields.dropFirst(2).compactMap { Int($0) }
          } else {
            pythonTimes[fields[0], default: []] += fields.dropFirst(2).compactMap { Double($0) }
          }
        }
      }
    }
    progress("  round \(round + 1) of \(rounds) done")
  }
  if checksum == 42 { progress("") }
} catch {
  fail("NIBArchive cell: \(error)")
}
var countMismatch: [String] = []
for (cell, expected) in expectedCounts where pythonProblem == nil {
  if pythonCounts[cell] != expected {
    countMismatch.append("\(cell): Python read \(pythonCounts[cell] ?? []) (objects, keys, values, classes), Stasis \(expected)")
  }
}

// MARK: - 6. Peak memory of compiling the largest files, in process (VmHWM)

struct Memory {
  var path: String
  var before = 0
  var peak = 0
  var problem: String?
}
var memories: [Memory] = []
for file in timed where file.path != smallestXib {
  var memory = Memory(path: file.path)
  do {
    switch try spawnMemoryChild(arguments: ["--corpus", corpus, "--memory-child", file.path]) {
    case .report(let fields):
      memory.before = fields["before"] ?? 0
      memory.peak = fields["peak"] ?? 0
      if fields["reset"] != 1 { memory.problem = "the kernel did not reset VmHWM" }
    case .failed(let status, let message):
      memory.problem = "memory child failed (\(status)): \(message)"
    }
  } catch {
    memory.problem = "cannot start the memory child: \(error)"
  }
  memories.append(memory)
}

// MARK: - Report

/// Prints a long line of the report given in pieces (so that the source stays readable).
func paragraph(_ pieces: String...) { print(pieces.joined()) }

let loadAtEnd = loadAverage()
let formatter = ISO8601DateFormatter()
print("## Interface files — interface-bench, \(formatter.string(from: startDate))\n")
print("- machine: \(machine.cpuModel), \(machine.processors) cores, Linux \(machine.kernelRelease) \(machine.architecture)")
print("- load average at start: \(loadAtStart), at end: \(loadAtEnd)\(note.isEmpty ? "" : "; \(note)")")
print("- Stasis built from: \(source), `swift build -c release` (`ibtool` and this benchmark)")
paragraph(
  "- Python: `\(python)`, the `nibarchive` package; the Python ibtool clone (viraptor/ibtool) ",
  "is not installable here (`pip download ibtool`: no such distribution), so its figures are ",
  "the ones the bar was set against, measured on this kind of machine")
print("")

print("### Whole-process `ibtool --compile`\n")
paragraph(
  "Each run is a new process (`posix_spawn` … `wait4`, wall time on `CLOCK_MONOTONIC` around ",
  "the two; output to a scratch folder, standard output and error to /dev/null): `ibtool --compile ",
  "OUT --color-profiles-from test3.nib --color-profiles-from test6_whitecolor.nib IN`, as the ",
  "project's tests compile the pairs (Stasis does not ship AppKit's ICC profiles, so catalog ",
  "colors take them from two of Apple's nibs; module_override.xib also gets `--module TestModule`). ",
  "\(runs) runs per file after 2 warm-up runs, the files interleaved run by run. CPU is the ",
  "child's user + system time; peak resident is its `ru_maxrss` (the kernel's VmHWM high-water ",
  "mark at exit).\n")
print("| file | what | size | wall median | wall min | CPU median | peak resident | Python ibtool (issue) | Stasis speed-up |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for file in timed {
  let wall = median(file.walls)
  var peer = "—", speedUp = "—"
  if file.path == transmission {
    peer = seconds(pythonLargeXib)
    speedUp = "**\(ratio(pythonLargeXib / wall))** (min \(ratio(pythonLargeXib / file.walls.min()!)))"
  } else {
    // Not the issue's file: the clone cannot take less than its own start-up on any file.
    peer = "≥ \(seconds(pythonStartUp)) (its start-up alone)"
    speedUp = "≥ \(ratio(pythonStartUp / wall))"
  }
  paragraph(
    "| \(name(file.path)) | \(file.role) | \(kilobytes(fileSize(file.path))) | \(milliseconds(wall)) ",
    "| \(milliseconds(file.walls.min()!)) | \(milliseconds(median(file.cpus))) | \(megabytes(file.peaks.max()!)) ",
    "| \(peer) | \(speedUp) |")
}
print("")
if largestXib != transmission {
  paragraph(
    "transmission_MainMenu.xib (\(kilobytes(fileSize(transmission)))) does not compile yet: \(refusals[transmission] ?? "?"). ",
    "The largest xib that compiles is \(name(largestXib)), \(kilobytes(fileSize(largestXib))). ",
    "The clone's 0.56 s is for the 200 KB xib, so there is no same-file ratio; on the other files ",
    "the clone's start-up alone (0.41 s, which it spends on any file) gives a lower bound of ",
    "the speed-up.\n")
}
if largestStoryboard != rectangle {
  print("Rectangle's Main.storyboard (\(kilobytes(fileSize(rectangle)))) does not compile yet: \(refusals[rectangle] ?? "?").")
  if let storyboard = largestStoryboard {
    let skipped = storyboardsTried.dropLast().dropFirst()
    print("The largest storyboard in the corpus that compiles is \(name(storyboard)) (\(kilobytes(fileSize(storyboard))))\(skipped.isEmpty ? "" : "; larger ones refused: " + skipped.map { "\(name($0)) (\(kilobytes(fileSize($0))))" }.joined(separator: ", ")).\n")
  } else {
    print("No storyboard of the corpus compiles.\n")
  }
}

print("### The corpus in one loop\n")
let loopMedian = median(loopResults.map(\.compileTotal))
let loopMin = loopResults.map(\.compileTotal).min()!
let compiledMedian = median(loopResults.map(\.compiledTotal))
let compareMedian = median(loopResults.map(\.compareTotal))
let compiledCount = loopResults[0].compiled
let comparedCount = loopResults[0].compared
let equalCount = loopResults[0].equal
paragraph(
  "Every .xib and .storyboard under `xib/ibtool_pairs/correct` (\(pairDocuments.count) documents, ",
  "\(kilobytes(pairBytes))) compiled one process each, with the same flags; \(loopRounds) round\(loopRounds == 1 ? "" : "s"), ",
  "the median round shown (min in brackets). Documents Stasis cannot compile yet exit 1 early ",
  "and are counted in the total but not as compiled. Then each compiled document's output is ",
  "compared with Apple's nib (`ibtool --compare APPLE OUT`, one process each).\n")
print("| loop | documents | compiled | total wall | per document | Python ibtool (issue) | Stasis speed-up |")
print("|---|---:|---:|---:|---:|---:|---:|")
let perPythonSample = pythonCorpusSeconds / pythonCorpusSamples
print("| compile all | \(pairDocuments.count) | \(compiledCount) | \(seconds(loopMedian)) (\(seconds(loopMin))) | \(milliseconds(loopMedian / Double(pairDocuments.count))) | — | — |")
print("| compile the ones that compile | \(compiledCount) | \(compiledCount) | \(seconds(compiledMedian)) | \(milliseconds(compiledMedian / Double(compiledCount))) | — | — |")
let compileAndCompare = (compiledMedian + compareMedian) / Double(compiledCount)
paragraph(
  "| compile + compare with Apple's (\(equalCount) of \(comparedCount) equal) | \(compiledCount) ",
  "| \(compiledCount) | \(seconds(compiledMedian + compareMedian)) | \(milliseconds(compileAndCompare)) ",
  "| \(seconds(pythonCorpusSeconds)) for \(Int(pythonCorpusSamples)) samples = \(milliseconds(perPythonSample)) ",
  "each | **\(ratio(perPythonSample / compileAndCompare))** per sample |")
print("")
paragraph(
  "Python's 182 s cover its 168 samples, this loop \(compiledCount) documents; the ratio is ",
  "per sample (\(milliseconds(perPythonSample)) against \(milliseconds(compileAndCompare)) ",
  "for a compile and a compare of a document that compiles). At Stasis's rate, 168 samples ",
  "would take \(seconds(compileAndCompare * pythonCorpusSamples)).\n")

print("### In-process stages of the largest files (CPU time, median)\n")
print("| file | stage | time |")
print("|---|---|---:|")
for (path, list) in stages {
  for stage in list { print("| \(name(path)) | \(stage.name) | \(milliseconds(stage.seconds)) |") }
  print("| \(name(path)) | **sum** | **\(milliseconds(list.reduce(0) { $0 + $1.seconds }))** |")
}
print("")

print("### NIBArchive reading and writing (in process, CPU time)\n")
paragraph(
  "corpus: the \(corpusNibs.count) NIBArchives under `nib/` (files starting with `NIBArchive`), ",
  "\(kilobytes(corpusNibBytes)) in all, each processed once per iteration (every one is written ",
  "back byte for byte before timing). synthetic: a `NibGraph` of \(synthetic.objects.count) ",
  "objects (\(syntheticArchive.values.count) values: strings, integers, bools, doubles, data, ",
  "references) encoded to \(kilobytes(syntheticBytes.count)), written to a file and read back ",
  "equal. MB/s = nib bytes (10⁶) / median iteration; \(rounds) rounds, each running every Stasis ",
  "cell for ≥ \(String(format: "%.2f", roundTime)) s and then one Python process that runs ",
  "its two cells (≥ \(String(format: "%.2f", roundTime)) s and ≥ 1 iteration each, `time.process_time()`; ",
  "the corpus cell after one untimed iteration, the synthetic one, seconds an iteration, without), ",
  "after one untimed warm-up of every Stasis cell. Python's `nibarchive` 1.1.0: `NIBArchiveParser().parse(io.BytesIO(bytes))`; ",
  "its writer is not timed (it fails on every nib: `encode_header` packs 32-bit fields with ",
  "`bytes([...])`).\n")
print("| data | size | operation | Stasis MB/s | Python `nibarchive` MB/s | Stasis ÷ Python | iterations (Stasis / Python) |")
print("|---|---:|---|---:|---:|---:|---:|")
var readRates: [Double] = []
for cell in cells {
  let stasisRate = Double(cell.bytes) / 1e6 / median(cell.times)
  var peerRate = "—", speedUp = "—", iterations = "\(cell.times.count)"
  if cell.operation.hasPrefix("read") {
    readRates.append(stasisRate)
    if let times = pythonTimes[cell.data + "-read"], !times.isEmpty {
      let pythonRate = Double(cell.bytes) / 1e6 / median(times)
      peerRate = rate(pythonRate)
      speedUp = "**\(ratio(stasisRate / pythonRate))**"
      iterations += " / \(times.count)"
    }
  }
  print("| \(cell.data) | \(kilobytes(cell.bytes)) | \(cell.operation) | \(rate(stasisRate)) | \(peerRate) | \(speedUp) | \(iterations) |")
}
print("")
if let problem = pythonProblem { print("Python peer: \(problem)\n") }
if !countMismatch.isEmpty { print("Counts differ: " + countMismatch.joined(separator: "; ") + "\n") }
if pythonProblem == nil && countMismatch.isEmpty {
  print("Both read the same tables: objects, keys, values and class names counted alike on every file (corpus \(expectedCounts["corpus-read"]!), synthetic \(expectedCounts["synthetic-read"]!)).\n")
}

print("### Peak memory of compiling the largest files\n")
paragraph(
  "Whole process: the peak resident set of `ibtool --compile` (largest over its runs, in the ",
  "first table). In process: a child of this benchmark compiles a small document of the same ",
  "kind first (code pages and one-time setup resident), resets its peak (`/proc/self/clear_refs` ",
  "← 5), then reads, compiles (with the same color profiles) and encodes the document as ibtool ",
  "does; VmHWM after it, minus VmRSS before.\n")
print("| file | size | whole `ibtool` process (peak RSS) | in process: VmHWM − VmRSS before | × document |")
print("|---|---:|---:|---:|---:|")
for memory in memories {
  let process = timed.first { $0.path == memory.path }!.peaks.max()!
  if let problem = memory.problem {
    print("| \(name(memory.path)) | \(kilobytes(fileSize(memory.path))) | \(megabytes(process)) | \(problem) | — |")
  } else {
    let extra = memory.peak - memory.before
    print("| \(name(memory.path)) | \(kilobytes(fileSize(memory.path))) | \(megabytes(process)) | \(megabytes(extra)) | \(String(format: "%.1f×", Double(extra) / Double(fileSize(memory.path)))) |")
  }
}
print("")

// The figures for Benchmarks/results/interface-bench.json (BENCH_RESULTS, set by run.sh): what
// this run measured (the Python ibtool clone is not run here, so its figures are not among them).
var resultsFile = ResultsFile(harness: "interface-bench", loadAtStart: loadAtStart)
for file in timed {
  let subject = "\(name(file.path)), \(kilobytes(fileSize(file.path)))"
  resultsFile.add(system: "Stasis", subject: subject, operation: "ibtool --compile, whole process", value: median(file.walls) * 1e3, unit: "ms", clock: "wall")
  resultsFile.add(system: "Stasis", subject: subject, operation: "ibtool --compile, whole process", value: median(file.cpus) * 1e3, unit: "ms", clock: "cpu")
}
resultsFile.add(
  system: "Stasis", subject: "\(pairDocuments.count) corpus documents", operation: "compile all, per document", value: loopMedian / Double(pairDocuments.count) * 1e3,
  unit: "ms", clock: "wall")
resultsFile.add(
  system: "Stasis", subject: "\(compiledCount) corpus documents", operation: "compile + compare with Apple's, per document",
  value: compileAndCompare * 1e3, unit: "ms", clock: "wall")
for cell in cells {
  let subject = "\(cell.data) nibs, \(kilobytes(cell.bytes))"
  let operation = String(cell.operation.split(separator: " ").first ?? "")
  resultsFile.add(system: "Stasis", subject: subject, operation: operation, value: Double(cell.bytes) / 1e6 / median(cell.times), unit: "MB/s")
  if let times = pythonTimes[cell.data + "-" + operation], !times.isEmpty {
    resultsFile.add(system: "Python nibarchive", subject: subject, operation: operation, value: Double(cell.bytes) / 1e6 / median(times), unit: "MB/s")
  }
}
resultsFile.writeIfRequested(source: source)

print("### The bar\n")
let largest = timed[0]
if largest.path == transmission {
  let speedUp = pythonLargeXib / median(largest.walls)
  print("- Whole process ≥ 20× the Python clone on the 200 KB xib: \(speedUp >= 20 ? "PASS" : "FAIL") (\(milliseconds(median(largest.walls))) against 0.56 s: \(ratio(speedUp))).")
} else {
  let bound = pythonStartUp / median(largest.walls)
  paragraph(
    "- Whole process ≥ 20× the Python clone on the 200 KB xib: NOT MEASURED on that file (transmission_MainMenu.xib ",
    "does not compile yet). On the largest xib that compiles, \(name(largest.path)) (\(kilobytes(fileSize(largest.path)))), ",
    "\(milliseconds(median(largest.walls))) against at least the clone's 0.41 s start-up: ≥ \(ratio(bound)) ",
    "(\(bound >= 20 ? "above" : "below") 20× even by that lower bound).")
}
let corpusSpeedUp = perPythonSample / compileAndCompare
paragraph(
  "- Whole process ≥ 20× on the corpus, per sample compiled and compared: \(corpusSpeedUp >= 20 ? "PASS" : "FAIL") ",
  "(\(ratio(corpusSpeedUp)); \(compiledCount) of \(pairDocuments.count) documents compile).")
let slowestRead = readRates.min() ?? 0
print("- Reading a nib ≥ 200 MB/s: \(slowestRead >= 200 ? "PASS" : "FAIL") (slowest read \(rate(slowestRead)) MB/s).")
print("")

print("### Documents of the loop that do not compile yet (\(pairDocuments.count - compiledPairs.count))\n")
for path in pairDocuments where compiles[path] == false {
  var reason = refusals[path] ?? "?"
  if let range = reason.range(of: path + ":") { reason.removeSubrange(range) }
  reason = reason.trimmingCharacters(in: .whitespaces)
  if reason.count > 140 { reason = String(reason.prefix(140)) + "…" }
  print("- \(name(path).replacingOccurrences(of: "ibtool_pairs/correct/", with: "")): \(reason)")
}
