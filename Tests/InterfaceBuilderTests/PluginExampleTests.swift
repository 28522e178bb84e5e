import Foundation
import TestSupport
import Testing

/// `Examples/PluginExample` built with `swift build`: its target's `Notes.xib` and
/// `Base.lproj/Items.storyboard` go through `IBToolPlugin` (Stasis's ibtool) into its resource
/// bundle, and the program, run, reads them back from `Bundle.module`.
///
/// The build has its own scratch folder (`.build-plugin-example` in the package root, kept between
/// runs so that a later run rebuilds only what changed, and emptied when the library's list of source
/// files changed, which SwiftPM would not notice); a first build compiles ibtool and its
/// modules once more, some minutes on a loaded machine. Past `STASIS_PLUGIN_EXAMPLE_TIME_LIMIT`
/// seconds (default 900) the build is stopped and the test cancelled with the reason.
///
/// That build compiles the library a second time (the example is its own package), so it is a
/// long-tier test: it runs with `STASIS_PLUGIN_EXAMPLE=1` (`STASIS_PLUGIN_EXAMPLE=1 Tools/test.sh
/// --filter PluginExampleTests`) and is otherwise reported as skipped with that reason.
@Suite struct PluginExampleTests {
  static let requested = ProcessInfo.processInfo.environment["STASIS_PLUGIN_EXAMPLE"] == "1"

  static let swift: String? = {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let candidate = "\(folder)/swift"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// Runs `executable` with `arguments`, its output (both streams) into a file; `nil` on timeout.
  static func run(_ executable: String, _ arguments: [String], limit: Double, log: URL) throws -> (status: Int32, output: String)? {
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = handle
    process.standardError = handle
    process.standardInput = FileHandle.nullDevice
    let done = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in done.signal() }
    try process.run()
    if done.wait(timeout: .now() + limit) == .timedOut {
      process.terminate()
      done.wait()
      return nil
    }
    return (process.terminationStatus, String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))
  }

  /// The library's source files, one relative path a line, sorted: what the build was planned for.
  static func sourceFileList(under folder: URL) -> String {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    return paths.filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }.sorted().joined(separator: "\n") + "\n"
  }

  @Test(
    .enabled(if: requested, "a long-tier test (a second build of the library): run with STASIS_PLUGIN_EXAMPLE=1"),
    .enabled(if: swift != nil, "swift is not on PATH"))
  func theExamplePackageBuildsAndReadsItsCompiledDocuments() throws {
    let root = Corpus.repositoryRoot
    let package = root.appendingPathComponent("Examples/PluginExample").path
    let scratch = root.appendingPathComponent(".build-plugin-example").path
    let limit = Double(ProcessInfo.processInfo.environment["STASIS_PLUGIN_EXAMPLE_TIME_LIMIT"] ?? "") ?? 900
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-plugin-example-\(getpid()).log")
    defer { try? FileManager.default.removeItem(at: log) }
    // SwiftPM does not notice a file added to a path dependency in a folder it has planned once:
    // when the library's list of source files changed since the last build here, start afresh.
    let sourceList = Self.sourceFileList(under: root.appendingPathComponent("Sources"))
    let stamp = scratch + "/stasis-source-files.txt"
    if (try? String(contentsOfFile: stamp, encoding: .utf8)) != sourceList {
      try? FileManager.default.removeItem(atPath: scratch)
    }
    guard let build = try Self.run(Self.swift!, ["build", "--package-path", package, "--scratch-path", scratch], limit: limit, log: log)
    else {
      try Test.cancel("building Examples/PluginExample took over \(Int(limit)) s (STASIS_PLUGIN_EXAMPLE_TIME_LIMIT); stopped")
    }
    #expect(build.status == 0, "\(build.output.suffix(4000))")
    guard build.status == 0 else { return }
    try sourceList.write(toFile: stamp, atomically: true, encoding: .utf8)

    let binary = scratch + "/debug/PluginExample"
    guard let run = try Self.run(binary, [], limit: 60, log: log) else {
      Issue.record("the example program did not finish in 60 s")
      return
    }
    #expect(run.status == 0, "\(run.output)")
    let lines = run.output.split(separator: "\n").map(String.init)
    // Notes.xib's window, text field and button, as AppKit classes.
    #expect(lines.contains { $0.hasPrefix("Notes.nib: ") && $0.contains("NSWindowTemplate") && $0.contains("NSButton") }, "\(run.output)")
    // The storyboard, in its .lproj folder, with its entry point.
    #expect(lines.contains { $0.hasPrefix("Base.lproj/Items.storyboardc: entry point ") || $0.hasPrefix("en.lproj/Items.storyboardc: entry point ") }, "\(run.output)")
  }
}
