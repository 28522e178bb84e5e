// Keeps the articles' code and the compiled examples in this folder identical.
//
// Every ```swift block in README.md, Docs/*.md and every DocC catalog must equal one region
// `// snippet: <name>` … `// end-snippet` of a Swift file in this folder or in
// Examples/ReadmeExamples (the program that ReadmeExampleTests runs) (compared after removing
// the region's common indentation; `import` lines of the article's block are left out, since
// imports sit at the top of the test files, and a block of imports alone is not checked), and every region must be shown by some article.
import Foundation
import Testing

@Suite("Documentation snippets match the compiled examples")
struct SnippetSyncTests {
  static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let repositoryRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
  /// Every DocC catalog of the package, and the Markdown pages outside them (each a "catalog" of
  /// one file): the README, CONTRIBUTING, the Homepwner README and every page in Docs/.
  static var catalogs: [String] {
    let sources = repositoryRoot.appendingPathComponent("Sources")
    let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
    let found = modules.sorted().compactMap { module -> String? in
      let catalog = "Sources/\(module)/\(module).docc"
      return FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(catalog).path) ? catalog : nil
    }
    let docs = ((try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Docs").path)) ?? [])
      .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
    return found + ["README.md", "CONTRIBUTING.md", "Examples/Homepwner/README.md"] + docs
  }

  /// The folders whose Swift files hold snippet regions.
  static let snippetFolders = [testsFolder, repositoryRoot.appendingPathComponent("Examples/ReadmeExamples")]

  /// The snippet regions of the Swift files in this folder, by name.
  static func snippets() throws -> [String: String] {
    var result: [String: String] = [:]
    let files = try snippetFolders.flatMap { folder in
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
        .map { folder.appendingPathComponent($0) }
    }
    for url in files {
      let file = url.lastPathComponent
      let lines = try String(contentsOf: url, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
      var name: String?
      var body: [Substring] = []
      for line in lines {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("// snippet: ") {
          name = String(trimmed.dropFirst("// snippet: ".count))
          body = []
        } else if trimmed == "// end-snippet", let current = name {
          #expect(result[current] == nil, "snippet \(current) is defined twice")
          result[current] = dedented(body)
          name = nil
        } else if name != nil {
          body.append(line)
        }
      }
      #expect(name == nil, "\(file): snippet \(name ?? "") has no // end-snippet")
    }
    return result
  }

  /// The ```swift blocks of every article of `catalog`, with the file each came from.
  static func articleBlocks(in catalog: String) throws -> [(file: String, code: String)] {
    var markdownFiles: [(name: String, url: URL)] = []
    if catalog.hasSuffix(".md") {
      markdownFiles = [(catalog, repositoryRoot.appendingPathComponent(catalog))]
    } else {
      let folder = repositoryRoot.appendingPathComponent(catalog)
      guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
      for case let file as String in walker where file.hasSuffix(".md") {
        markdownFiles.append((catalog + "/" + file, folder.appendingPathComponent(file)))
      }
    }
    var blocks: [(String, String)] = []
    for (name, url) in markdownFiles {
      let lines = try String(contentsOf: url, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
      var inside = false
      var body: [Substring] = []
      for line in lines {
        if !inside, line.trimmingCharacters(in: .whitespaces) == "```swift" {
          inside = true
          body = []
        } else if inside, line.trimmingCharacters(in: .whitespaces) == "```" {
          inside = false
          let code = dedented(body.filter { !$0.hasPrefix("import ") })
          if !code.isEmpty { blocks.append((name, code)) }   // a block of imports only
        } else if inside {
          body.append(line)
        }
      }
    }
    return blocks
  }

  static func dedented(_ lines: [Substring]) -> String {
    var lines = lines
    while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
    while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
    let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
  }

  @Test("Every Swift block of the articles is compiled here, and every snippet is shown")
  func articlesMatchSnippets() throws {
    let snippets = try Self.snippets()
    #expect(!snippets.isEmpty)
    var shown = Set<String>()
    var blockCount = 0
    for catalog in Self.catalogs {
      for block in try Self.articleBlocks(in: catalog) {
        blockCount += 1
        let matches = snippets.filter { $0.value == block.code }.map(\.key)
        #expect(!matches.isEmpty, "\(block.file): this ```swift block is not a snippet of Tests/DocumentationExamplesTests:\n\(block.code)")
        shown.formUnion(matches)
      }
    }
    #expect(blockCount > 0)
    for name in snippets.keys.sorted() where !shown.contains(name) {
      Issue.record("snippet \(name) is not shown by any article")
    }
  }
}
