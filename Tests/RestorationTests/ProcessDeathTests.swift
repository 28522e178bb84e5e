import Foundation
import Restoration
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One run of Tools/stasis-restoration-child, its output in a file (each line written with one
/// `write(2)`, so a kill leaves every line printed before it).
final class RestorationChild {
  nonisolated static let executable = BuiltExecutables.path(named: "stasis-restoration-child")
  nonisolated static let missingReason: Comment = "stasis-restoration-child was not built next to the tests"

  let process = Process()
  let outputPath: String

  init(folder: String, outputPath: String, arguments: [String]) throws {
    self.outputPath = outputPath
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: try #require(Self.executable))
    process.arguments = ["--folder", folder] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    try process.run()
  }

  var lines: [String] { ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

  /// Waits for a line equal to `line`, or for the process to end (at most `seconds`).
  func wait(for line: String, seconds: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if lines.contains(line) { return true }
      if !process.isRunning { return lines.contains(line) }
      usleep(1_000)
    }
    return false
  }

  func kill() {
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

/// The process-death harness: the sample app in a real process is driven to random
/// states and saves again and again; it is SIGKILLed at random moments (often in the middle of a
/// save), sometimes while it is restoring, and sometimes its last snapshot is torn before the
/// next launch. Every relaunch must restore exactly the state of the last completed save —
/// compared line by line, node by node — or, after a tear, the save before it.
///
/// `STASIS_RESTORATION_KILLS` sets the number of launches (40 in the test suite;
/// `Tools/restoration-harness.sh` runs 500).
struct ProcessDeathHarness {
  struct Figures: CustomStringConvertible {
    var launches = 0
    var kills = 0
    var killsDuringSave = 0
    var killsDuringRestore = 0
    var tornSnapshots = 0
    var recoveries = 0
    /// Launches after a recovery whose save was killed before it completed: still on the previous snapshot.
    var stillOnPrevious = 0
    var restores = 0
    var wrongRestores: [String] = []
    var description: String {
      "\(launches) launches, \(kills) kills (\(killsDuringSave) in the middle of a save, \(killsDuringRestore) while restoring), "
        + "\(tornSnapshots) torn snapshots → \(recoveries) recoveries from the previous one (\(stillOnPrevious) more launches still on it, "
        + "the save after the recovery killed before it completed), \(restores) restores checked, "
        + "\(wrongRestores.count) wrong"
    }
  }

  let folder: String
  let scratch: ScratchFolder
  var random: SplitMix64
  var figures = Figures()
  /// The state each generation was saved with (the latest EXPECT lines for it).
  var expected: [Int: [String]] = [0: ["generation 0", "tab 0", "stack List"]]
  /// Generations whose save completed, in order.
  var completed: [Int] = []
  /// The generation being saved when the last run was killed, whose save may or may not have completed.
  var inFlight: Int?
  /// Whether the current snapshot was torn and set aside and no save has completed since: a
  /// launch then restores the previous snapshot again (or the in-flight save, if its write
  /// completed).
  var currentSetAside = false

  init(seed: UInt64) throws {
    scratch = try ScratchFolder("restoration-harness")
    folder = scratch.file("com.example.sample.savedState")
    random = SplitMix64(seed: seed)
  }

  mutating func run(launches: Int) throws {
    var lastWasEarlyKill = false
    for launch in 0..<launches {
      figures.launches += 1
      let output = scratch.file("run-\(launch).txt")
      var expectRecovery: Int?
      // Every tenth launch: a clean run of two saves, then its snapshot is torn.
      if launch % 10 == 9, !completed.isEmpty {
        let clean = try RestorationChild(folder: folder, outputPath: output + ".clean", arguments: ["--seed", "\(launch + 1_000)", "--saves", "2"])
        guard clean.wait(for: "DONE") else { throw TestFailure("the clean run did not finish: \(clean.lines.suffix(3))") }
        clean.process.waitUntilExit()
        try check(clean.lines, expectRecovery: nil)
        absorb(clean.lines)
        try tear(SavedStateFolder(path: folder).currentSnapshotPath)
        figures.tornSnapshots += 1
        expectRecovery = completed.count >= 2 ? completed[completed.count - 2] : 0
        completed.removeLast()
        currentSetAside = true
      }
      let child = try RestorationChild(folder: folder, outputPath: output, arguments: ["--seed", "\(launch)"])
      let earlyKill = !lastWasEarlyKill && expectRecovery == nil && Int.random(in: 0..<10, using: &random) == 0
      lastWasEarlyKill = earlyKill
      if earlyKill {
        usleep(UInt32.random(in: 0..<40_000, using: &random))
        child.kill()
        figures.kills += 1
        if !child.lines.contains("READY") { figures.killsDuringRestore += 1 }
        if child.lines.contains("READY") { try check(child.lines, expectRecovery: expectRecovery) }
        absorb(child.lines)
        continue
      }
      guard child.wait(for: "READY") else { throw TestFailure("launch \(launch) never became ready: \(child.lines.suffix(3))") }
      try check(child.lines, expectRecovery: expectRecovery)
      usleep(UInt32.random(in: 1_000..<60_000, using: &random))
      child.kill()
      figures.kills += 1
      absorb(child.lines)
      if inFlight != nil { figures.killsDuringSave += 1 }
    }
  }

  /// Cuts the snapshot short, or scrambles its middle.
  mutating func tear(_ path: String) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    if Bool.random(using: &random) {
      bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
    } else {
      for _ in 0..<16 { bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= 0xFF }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  /// Checks what a launch restored against what was saved.
  mutating func check(_ lines: [String], expectRecovery: Int?) throws {
    guard let outcome = lines.first(where: { $0.hasPrefix("OUTCOME ") })?.dropFirst(8) else {
      throw TestFailure("no OUTCOME line in \(lines.prefix(3))")
    }
    let state = lines.prefix { $0 != "READY" }.filter { $0.hasPrefix("STATE ") }.map { String($0.dropFirst(6)) }
    guard let generation = state.first.flatMap({ Int($0.split(separator: " ").last ?? "") }) else {
      throw TestFailure("no generation in \(state)")
    }
    figures.restores += 1
    let allowed: Set<Int>
    if let expectRecovery {
      allowed = [expectRecovery]
      if outcome.hasPrefix("recovered from the previous snapshot") || (expectRecovery == 0 && outcome.hasPrefix("discarded")) {
        figures.recoveries += 1
      } else {
        figures.wrongRestores.append("expected a recovery to generation \(expectRecovery), got \(outcome)")
      }
    } else {
      allowed = Set([completed.last ?? 0] + (inFlight.map { [$0] } ?? []))
      let fine: Bool
      if currentSetAside, generation != inFlight, outcome.hasPrefix("recovered from the previous snapshot") {
        // The previous snapshot is still the newest complete one.
        fine = true
        figures.stillOnPrevious += 1
      } else {
        fine = generation == 0 ? ["fresh launch", "restored"].contains(String(outcome)) || outcome.hasPrefix("discarded") && currentSetAside : outcome == "restored"
      }
      if !fine { figures.wrongRestores.append("generation \(generation) came back with outcome \(outcome)") }
      if outcome == "restored" { currentSetAside = false }
    }
    if !allowed.contains(generation) {
      figures.wrongRestores.append("restored generation \(generation); the last completed save was \(completed.last ?? 0), in flight \(inFlight.map(String.init) ?? "none")")
    } else if state != expected[generation] {
      figures.wrongRestores.append("generation \(generation) restored as \(state), saved as \(expected[generation] ?? [])")
    }
    // The in-flight save's fate is now known.
    if let inFlight, generation == inFlight, expectRecovery == nil { completed.append(inFlight) }
    inFlight = nil
  }

  /// Takes in what a run saved.
  mutating func absorb(_ lines: [String]) {
    var pending: [Int: [String]] = [:]
    for line in lines {
      let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
      guard parts.count >= 2, let generation = Int(parts[1]) else { continue }
      switch parts[0] {
      case "EXPECT": pending[generation, default: []].append(parts.count > 2 ? parts[2] : "")
      case "SAVING":
        expected[generation] = pending[generation] ?? []
        inFlight = generation
      case "SAVED":
        completed.append(generation)
        inFlight = nil
        currentSetAside = false
      default: break
      }
    }
  }
}

@MainActor
@Suite("Restoration: a real process killed at random moments", .tags(.integration))
struct ProcessDeathTests {
  @Test("SIGKILL at random (in saves, in restores) and torn snapshots: every relaunch restores the last completed save exactly", .enabled(if: RestorationChild.executable != nil, RestorationChild.missingReason))
  func killedAndRestored() throws {
    let launches = Int(ProcessInfo.processInfo.environment["STASIS_RESTORATION_KILLS"] ?? "") ?? 40
    var harness = try ProcessDeathHarness(seed: UInt64(ProcessInfo.processInfo.environment["STASIS_RESTORATION_SEED"] ?? "") ?? 18)
    try harness.run(launches: launches)
    print("process-death harness: \(harness.figures)")
    #expect(harness.figures.wrongRestores.isEmpty, "\(harness.figures.wrongRestores.prefix(5))")
    #expect(harness.figures.killsDuringSave > 0)
    #expect(harness.figures.recoveries == harness.figures.tornSnapshots)
  }

  @Test("A node whose decoding crashes the process twice: the third launch starts clean, says why, and keeps both snapshots", .enabled(if: RestorationChild.executable != nil, RestorationChild.missingReason))
  func crashLoop() throws {
    let scratch = try ScratchFolder("restoration-crash")
    let folder = scratch.file("app.savedState")
    // Two saves with the detail screen on the stack (seed 5 pushes it in its first mutations).
    var pushed = false
    for seed in 1...40 where !pushed {
      let writer = try RestorationChild(folder: folder, outputPath: scratch.file("write-\(seed).txt"), arguments: ["--seed", "\(seed)", "--saves", "2"])
      #expect(writer.wait(for: "DONE"))
      writer.process.waitUntilExit()
      let snapshots = [SavedStateFolder(path: folder).currentSnapshotPath, SavedStateFolder(path: folder).previousSnapshotPath]
      pushed = try snapshots.allSatisfy { path in
        try Snapshot(contentsOfFile: path).nodes.contains { $0.path.last == "Detail" }
      }
    }
    try #require(pushed, "no seed put the detail screen in both snapshots")
    var signals: [Int32] = []
    for attempt in 1...2 {
      let crashing = try RestorationChild(folder: folder, outputPath: scratch.file("crash-\(attempt).txt"), arguments: ["--crash-on-decode", "--saves", "1"])
      crashing.process.waitUntilExit()
      #expect(crashing.process.terminationReason == .uncaughtSignal)
      signals.append(crashing.process.terminationStatus)
      #expect(!crashing.lines.contains("READY"))
    }
    let third = try RestorationChild(folder: folder, outputPath: scratch.file("third.txt"), arguments: ["--crash-on-decode", "--saves", "1"])
    #expect(third.wait(for: "DONE"))
    third.process.waitUntilExit()
    let outcome = third.lines.first { $0.hasPrefix("OUTCOME ") } ?? ""
    #expect(outcome.hasPrefix("OUTCOME discarded (two launches in a row crashed while restoring"), "\(third.lines.prefix(2)), signals \(signals)")
    let setAside = SavedStateFolder(path: folder).setAsideSnapshots
    #expect(setAside.count == 2)
    #expect(setAside.allSatisfy { (try? Snapshot(contentsOfFile: $0)) != nil })
  }
}
