// Keeps the articles' code and the compiled examples in this folder identical.
//
// Every ```swift block in the PropertyLists and KeyedArchive DocC catalogs must equal one region
// `// snippet: <name>` … `// end-snippet` of a Swift file in this folder (compared after removing
// the region's common indentation; `import` lines of the article's block are left out, since
// imports sit at the top of the test files, and a block of imports alone is not checked), and every region must be shown by some article.
import Foundation
import Testing

@Suite("Documentation snippets match the compiled examples")
struct SnippetSyncTests {
  static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let repositoryRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
  static let catalogs = [
    "Sources/PropertyLists/PropertyLists.docc",
    "Sources/KeyedArchive/KeyedArchive.docc",
  ]

  /// The snippet regions of the Swift files in this folder, by name.
  static func snippets() throws -> [String: String] {
    var result: [String: String] = [:]
    let files = try FileManager.default.contentsOfDirectory(atPath: testsFolder.path).filter { $0.hasSuffix(".swift") }
    for file in files.sorted() {
      let lines = try String(contentsOf: testsFolder.appendingPathComponent(file), encoding: .utf8)
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
    let folder = repositoryRoot.appendingPathComponent(catalog)
    guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var blocks: [(String, String)] = []
    for case let file as String in walker where file.hasSuffix(".md") {
      let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
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
          if !code.isEmpty { blocks.append((catalog + "/" + file, code)) }   // a block of imports only
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
