// A scratch folder for the examples that write files (outside the snippets, which only see `path`).
import Foundation

struct TemporaryFolder {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-docs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  func remove() { try? FileManager.default.removeItem(atPath: path) }
}
