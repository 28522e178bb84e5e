public import Foundation
public import Testing

/// Finds the corpus of real Apple-made files vendored with the tests (`Tests/Fixtures/corpus`).
///
/// The files, their provenance (`MANIFEST.tsv` in each folder) and their licenses
/// (`Tests/Fixtures/corpus/licenses`) live in the repository, so a clone needs nothing beside it.
/// Tests read the files in place. A test over corpus
/// files takes them as arguments, one test case per file, so that a failure names its file:
///
/// ```swift
/// @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: Corpus.files(in: "xmlplist"))
/// func reads(_ file: CorpusFile) throws { … }
/// ```
///
/// Without the corpus the list is empty and the `.enabled` trait (on the test or its suite) makes
/// the test show as skipped with ``missingReason``, never as a silent pass. A test that checks
/// how many files there are keeps an empty or renamed folder from passing with no cases.
public enum Corpus {
  /// The repository root, found from this file's location.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `STASIS_CORPUS` if set (another copy of the same layout), else `<repo>/Tests/Fixtures/corpus`.
  public static let root: URL = {
    if let override = ProcessInfo.processInfo.environment["STASIS_CORPUS"], !override.isEmpty {
      return URL(fileURLWithPath: override)
    }
    return repositoryRoot.appendingPathComponent("Tests/Fixtures/corpus")
  }()

  public static var isAvailable: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path)
  }

  public static var missingReason: Comment {
    "corpus not found at \(root.path) (the repository's Tests/Fixtures/corpus, or STASIS_CORPUS)"
  }

  /// Every regular file under `folder` (relative to the corpus root), recursively, sorted, skipping
  /// MANIFEST.tsv; `excluding` drops files under the named subfolders. Empty without the corpus.
  public static func files(in folder: String, excluding: Set<String> = []) -> [CorpusFile] {
    let base = root.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    var result: [CorpusFile] = []
    for case let url as URL in enumerator {
      let relative = String(url.path.dropFirst(base.path.count + 1))
      if let top = relative.split(separator: "/").first, excluding.contains(String(top)) { continue }
      guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
      if url.lastPathComponent == "MANIFEST.tsv" { continue }
      result.append(CorpusFile(url: url))
    }
    return result.sorted { $0.path < $1.path }
  }

  /// The file at `name` (relative to the corpus root), whether or not it exists.
  public static func file(_ name: String) -> CorpusFile {
    CorpusFile(url: root.appendingPathComponent(name))
  }

  /// The path of a file relative to the corpus root, for messages.
  public static func name(_ url: URL) -> String {
    String(url.path.dropFirst(root.path.count + 1))
  }
}

/// One file of the corpus, as a test argument: its test case is named by ``name``.
public struct CorpusFile: Sendable, Hashable, Codable, CustomStringConvertible, CustomTestStringConvertible {
  public let url: URL

  public init(url: URL) { self.url = url }

  /// The path relative to the corpus root, such as `xmlplist/gnustep/non_baseplane_utf8.plist`.
  public var name: String { Corpus.name(url) }
  public var path: String { url.path }
  public var pathExtension: String { url.pathExtension }
  public var lastPathComponent: String { url.lastPathComponent }
  public var description: String { name }
  public var testDescription: String { name }

  /// The file's contents.
  public func data() throws -> Data { try Data(contentsOf: url) }

  /// The file's contents as bytes.
  public func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}
