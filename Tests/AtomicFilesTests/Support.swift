import AtomicFiles
import Foundation
import Testing

/// The `stasis-crash-writer` this package built, found next to the test bundle.
enum CrashWriter {
  static let path: String? = {
    let runner = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    var folder = runner.deletingLastPathComponent()
    // On Linux the runner is `<bin>/<Package>PackageTests.xctest`; on Darwin it is deeper inside the bundle.
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("stasis-crash-writer").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }()

  static var isAvailable: Bool { path != nil }
  static var missingReason: Comment {
    "the built stasis-crash-writer was not found next to the test bundle (run `swift build` before `swift test`)"
  }

  /// Starts the writer with `arguments`; its standard error goes to `log`.
  static func start(_ arguments: [String], log: URL? = nil) throws -> Process {
    guard let path else {
      throw TestFailure("the built stasis-crash-writer was not found next to the test bundle (run `swift build` first)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    if let log {
      _ = FileManager.default.createFile(atPath: log.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: log)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    return process
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct ScratchFolder {
  let url: URL
  var path: String { url.path }

  init(_ label: String) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> String { url.appendingPathComponent(name).path }

  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The names in `folder` that are temporary files of an atomic write.
func temporaryNames(in folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".stasis-tmp.") }.sorted()
}

/// Runs `body` expecting an `AtomicFileError` with `code`, and returns it.
@discardableResult
func expectAtomicFileError(
  _ code: AtomicFileError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws(AtomicFileError) -> Void
) -> AtomicFileError? {
  do {
    try body()
    Issue.record("expected AtomicFileError .\(code), but nothing was thrown. \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    return nil
  } catch {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    return error
  }
}
