public import Foundation
public import StasisSystem
public import StasisSystemTesting

/// A write path run in-process against an ``StasisSystemTesting/InMemoryFileSystem`` failing at
/// each call in turn (with each ``StasisSystemTesting/FileFault/Kind``) and crashing after each
/// call (after a kill and after a power cut), as SQLite's tests inject faults. At every point:
///
/// - every target (a file or a folder tree) is byte-identical to what it was before the write or
///   to what a clean write makes — never torn, truncated or lost;
/// - a failed write's error names the file (`names`);
/// - a write that reports success has written the new contents;
/// - the next run, on the disk the failed one left, succeeds and leaves exactly the files a clean
///   write leaves (no debris for good).
///
/// The calls are those the write makes after ``prepare`` set up the disk.
public struct FaultSweep {
  /// What the sweep is about, in messages.
  public var name: String
  /// Sets up the disk before the write (the old files), through the disk's own seeding or calls.
  public var prepare: (InMemoryFileSystem) throws -> Void
  /// The write, through the environment's file system.
  public var write: (HostEnvironment) throws -> Void
  /// The absolute paths of the files or folders the write replaces.
  public var targets: [String]
  /// Text one of which a failed write's error must contain: the targets, the folders on their
  /// way (a folder that could not be made or looked at is what failed), and any given.
  public var names: [String]
  /// The targets the next clean run must leave with the new contents (by default all; a write
  /// that rotates files, such as restoration's `data.archive` → `previous.archive`, rotates
  /// again when the failed run had already put the new contents in place).
  public var rerunTargets: [String]

  public init(
    _ name: String, targets: [String], names: [String] = [], rerunTargets: [String]? = nil,
    prepare: @escaping (InMemoryFileSystem) throws -> Void, write: @escaping (HostEnvironment) throws -> Void
  ) {
    self.name = name
    self.targets = targets
    var folders: [String] = []
    for target in targets {
      var folder = Substring(target)
      while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
        folder = folder[..<slash]
        folders.append(String(folder) + ":")
      }
    }
    self.names = targets + folders + names
    self.rerunTargets = rerunTargets ?? targets
    self.prepare = prepare
    self.write = write
  }

  /// What a sweep found.
  public struct Outcome: CustomStringConvertible {
    /// The calls of a clean write.
    public var calls = 0
    /// Fault points tried (call × fault kind) and crash points tried (call × crash model).
    public var faultPoints = 0
    public var crashPoints = 0
    /// How many fault points made the write fail (the others hit a call whose failure the
    /// write tolerates, such as the sweep of old temporary files).
    public var failedWrites = 0
    /// Every broken invariant, one line each.
    public var violations: [String] = []

    public var description: String {
      "\(calls) calls, \(faultPoints) fault points (\(failedWrites) failed the write), \(crashPoints) crash points, \(violations.count) violations"
        + violations.prefix(10).map { "\n  " + $0 }.joined()
    }
  }

  /// A target's contents: relative path → bytes (`""` for a file), nil when it is absent.
  public static func contents(of target: String, on disk: InMemoryFileSystem) -> [String: Data]? {
    if let data = disk.file(target) { return ["": data] }
    let prefix = target + "/"
    let paths = disk.allPaths
    guard paths.contains(prefix) else { return nil }
    var result: [String: Data] = [:]
    for path in paths where path.hasPrefix(prefix) && !path.hasSuffix("/") {
      result[String(path.dropFirst(prefix.count))] = disk.file(path) ?? Data()
    }
    return result
  }

  func environment(_ disk: InMemoryFileSystem) -> HostEnvironment { HostEnvironment(fileSystem: disk) }

  func prepared() throws -> (disk: InMemoryFileSystem, base: Int) {
    let disk = InMemoryFileSystem()
    try prepare(disk)
    return (disk, disk.callCount)
  }

  /// Runs every point.
  public func run(kinds: [FileFault.Kind] = FileFault.Kind.allCases, models: [CrashModel] = CrashModel.allCases) throws -> Outcome {
    var outcome = Outcome()
    let (clean, base) = try prepared()
    let before = targets.map { Self.contents(of: $0, on: clean) }
    try write(environment(clean))
    let after = targets.map { Self.contents(of: $0, on: clean) }
    let cleanPaths = clean.allPaths
    outcome.calls = clean.callCount - base

    func check(_ disk: InMemoryFileSystem, _ point: String, succeeded: Bool, only: [String]? = nil) {
      for (index, target) in targets.enumerated() where only?.contains(target) ?? true {
        let found = Self.contents(of: target, on: disk)
        if succeeded {
          if found != after[index] { outcome.violations.append("\(name) \(point): reported success but \(target) is not the new contents") }
        } else if found != before[index] && found != after[index] {
          outcome.violations.append("\(name) \(point): \(target) is neither the old nor the new contents: \(found.map { $0.keys.sorted() } ?? [])")
        }
      }
    }

    func rerun(_ disk: InMemoryFileSystem, _ point: String) {
      do {
        try write(environment(disk))
      } catch {
        outcome.violations.append("\(name) \(point): the next clean run failed: \(error)")
        return
      }
      check(disk, point + ", then a clean run", succeeded: true, only: rerunTargets)
      if disk.allPaths != cleanPaths {
        let extra = Set(disk.allPaths).symmetricDifference(cleanPaths).sorted()
        outcome.violations.append("\(name) \(point): after the next clean run the disk differs from a clean write's: \(extra)")
      }
    }

    for call in 1...max(outcome.calls, 1) {
      for kind in kinds {
        outcome.faultPoints += 1
        let point = "\(kind) at call \(call)"
        let (disk, base) = try prepared()
        disk.inject(.at(base + call, kind))
        var failure: (any Error)?
        do { try write(environment(disk)) } catch { failure = error }
        check(disk, point, succeeded: failure == nil)
        if let failure {
          outcome.failedWrites += 1
          let message = String(describing: failure)
          if !names.contains(where: message.contains) {
            outcome.violations.append("\(name) \(point): the error names none of \(names): \(message)")
          }
        }
        rerun(disk.restarted(after: .processKill), point)
      }
    }
    for call in 0..<max(outcome.calls, 1) {
      for model in models {
        outcome.crashPoints += 1
        let point = "crash after call \(call) (\(model))"
        let (disk, base) = try prepared()
        disk.crash(afterCalls: base + call)
        _ = try? write(environment(disk))
        let next = disk.restarted(after: model)
        check(next, point, succeeded: false)
        rerun(next, point)
      }
    }
    // STASIS_FAULT_TABLE=1 prints one row per sweep, for the harness's table.
    if ProcessInfo.processInfo.environment["STASIS_FAULT_TABLE"] == "1" { print("fault sweep | \(name) | \(outcome)") }
    return outcome
  }
}
