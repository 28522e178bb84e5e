import Foundation
import Testing

/// The folders the documentation's shell examples make in the working copy (a containers root
/// such as `export STASIS_CONTAINERS_ROOT=demo-root`, a `mkdir`) are in `.gitignore`, so that
/// trying an example leaves `git status` clean.
struct DemoFoldersIgnoredTests {
  static let root = SnippetSyncTests.repositoryRoot

  /// The relative folders the examples of `text` create.
  static func createdFolders(in text: String) -> Set<String> {
    var folders: Set<String> = []
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ").map(String.init)
      for (index, word) in words.enumerated() {
        var folder: String?
        if let range = word.range(of: "STASIS_CONTAINERS_ROOT=") { folder = String(word[range.upperBound...]) }
        if word == "mkdir", index + 1 < words.count { folder = words[(index + 1)...].first { !$0.hasPrefix("-") } }
        guard var name = folder?.trimmingCharacters(in: CharacterSet(charactersIn: "\"'`;")), !name.isEmpty else { continue }
        // Only folders inside the working copy: not absolute, not from a variable or the home.
        guard !name.hasPrefix("/"), !name.hasPrefix("$"), !name.hasPrefix("~"), !name.hasPrefix("..") else { continue }
        if name.hasPrefix("./") { name.removeFirst(2) }
        folders.insert(String(name.split(separator: "/").first ?? ""))
      }
    }
    return folders
  }

  /// Whether a `.gitignore` line (`name`, `name/`, `/name/`, `/name`) ignores the top-level folder.
  static func isIgnored(_ folder: String, by rules: [String]) -> Bool {
    rules.contains { rule in
      var pattern = rule.trimmingCharacters(in: .whitespaces)
      guard !pattern.isEmpty, !pattern.hasPrefix("#"), !pattern.hasPrefix("!") else { return false }
      if pattern.hasPrefix("/") { pattern.removeFirst() }
      if pattern.hasSuffix("/") { pattern.removeLast() }
      return pattern == folder
    }
  }

  @Test func everyDemoFolderIsIgnored() throws {
    let rules = try String(contentsOf: Self.root.appendingPathComponent(".gitignore"), encoding: .utf8).components(separatedBy: "\n")
    var documents = ["README.md", "Examples/Homepwner/README.md"]
    let docs = Self.root.appendingPathComponent("Docs")
    documents += (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") }.map { "Docs/" + $0 }
    var checked = 0
    for document in documents {
      guard let text = try? String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8) else { continue }
      for folder in Self.createdFolders(in: text) {
        checked += 1
        #expect(Self.isIgnored(folder, by: rules), "\(document) makes \(folder)/ in the working copy; .gitignore does not list it")
      }
    }
    #expect(checked > 0, "the README's containers-root example was not found")
  }

  @Test func theRulesAreReadAsGitReadsThem() {
    #expect(Self.createdFolders(in: "$ export STASIS_CONTAINERS_ROOT=demo-root\nmkdir -p out/x\nmkdir /tmp/y") == ["demo-root", "out"])
    #expect(Self.isIgnored("demo-root", by: ["/demo-root/"]) && Self.isIgnored("out", by: ["out"]))
    #expect(!Self.isIgnored("demo-root", by: ["# demo-root", "/demo-root.txt"]))
  }
}
