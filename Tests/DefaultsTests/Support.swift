import Defaults
import Foundation
import TestSupport
import PropertyLists
import Sandbox

#if canImport(Glibc)
  import Glibc
#endif

/// A container root in a fresh scratch folder, removed when the value goes away.
final class TemporaryRoot: Sendable {
  let folder: ScratchFolder
  var path: String { folder.path }
  var root: ContainerRoot { ContainerRoot(path: path) }

  init() {
    folder = try! ScratchFolder("defaults")
  }

  /// A configuration over this root; nothing is saved on a timer unless `flushDelay` is given.
  func configuration(
    arguments: [String] = ["app"], languages: [String] = [], flushDelay: Double? = nil, main: String? = nil
  ) -> UserDefaults.Configuration {
    UserDefaults.Configuration(
      containerRoot: root, arguments: arguments, languages: languages, flushDelay: flushDelay, mainBundleIdentifier: main)
  }

  func defaults(
    _ identifier: String = "com.example.app", arguments: [String] = ["app"], languages: [String] = [], flushDelay: Double? = nil
  ) throws -> UserDefaults {
    try UserDefaults(
      bundleIdentifier: identifier,
      configuration: configuration(arguments: arguments, languages: languages, flushDelay: flushDelay, main: identifier))
  }

  /// The preferences file of `identifier`, as another process would see it.
  func file(_ identifier: String) throws -> PreferencesFile {
    PreferencesFile(path: try root.container(for: identifier).preferencesFilePath)
  }

  var globalFile: PreferencesFile { PreferencesFile(path: root.globalPreferencesPath) }

  /// What is on disk for `identifier` (read without going through any UserDefaults instance).
  func onDisk(_ identifier: String) throws -> PropertyListDictionary? {
    try file(identifier).read()
  }
}

/// The outcome of a child process.
struct ChildOutcome {
  var status: Int32
  var output: String
}

/// The helper executable built next to the test bundle.
enum BuiltExecutable {
  static var child: String? { BuiltExecutables.path(named: "stasis-defaults-child") }

  /// Starts `executable`; the caller waits or kills.
  static func start(_ executable: String, _ arguments: [String], output: URL? = nil) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let output {
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: output)
    } else {
      process.standardOutput = FileHandle.nullDevice
    }
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs to completion and collects standard output.
  static func run(_ executable: String, _ arguments: [String]) throws -> ChildOutcome {
    let scratch = try ScratchFolder("child")
    defer { scratch.remove() }
    let output = scratch.url.appendingPathComponent("output")
    let process = try start(executable, arguments, output: output)
    process.waitUntilExit()
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    return ChildOutcome(status: process.terminationStatus, output: text)
  }
}

/// Collects values from @Sendable callbacks.
final class Recorder<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Value] = []
  func append(_ value: Value) {
    lock.lock()
    stored.append(value)
    lock.unlock()
  }
  var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
