import AtomicFiles
import Foundation
import Testing
import TestSupport

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
