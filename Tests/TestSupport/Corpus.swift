import Foundation

/// Finds the shared corpus of Apple-made files (`../shared/corpus` beside the checkout).
///
/// Tests read corpus files in place; nothing is copied into the repository. A test that needs
/// the corpus declares `.enabled(if: Corpus.isAvailable, Corpus.missingReason)` so that a missing
/// corpus shows as a skip with its reason, never as a silent pass.
public enum Corpus {
  /// The repository root, found from this file's location.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `STASIS_CORPUS` if set, else `<repo>/../shared/corpus`.
  public static let root: URL = {
    if let override = ProcessInfo.processInfo.environment["STASIS_CORPUS"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
  }()

  public static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path)
  }

  public static var missingReason: Comment {
    "shared corpus not found at \(root.path) (set STASIS_CORPUS or place shared/ beside the checkout)"
  }

  /// Every regular file under `folder` (relative to the corpus root), recursively, sorted, skipping
  /// MANIFEST.tsv; `excluding` drops files under the named subfolders.
  public static func files(in folder: String, excluding: Set<String> = []) -> [URL] {
    let base = root.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var result: [URL] = []
    for case let url as URL in enumerator {
      let relative = String(url.path.dropFirst(base.path.count + 1))
      if let top = relative.split(separator: "/").first, excluding.contains(String(top)) { continue }
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
      if url.lastPathComponent == "MANIFEST.tsv" { continue }
      result.append(url)
    }
    return result.sorted { $0.path < $1.path }
  }

  /// The path of a file relative to the corpus root, for messages.
  public static func name(_ url: URL) -> String {
    String(url.path.dropFirst(root.path.count + 1))
  }
}

import Testing
