import Foundation
import TestSupport
import Testing

import DefaultsTool

/// The man page and shell completions `Tools/install.sh` installs for defaults are written by
/// hand (its grammar is Apple's): each command and value type of `defaults help` must be in the
/// page and in each completion.
@Suite struct InstalledDocumentationTests {
  /// The commands (the first word of each indented line of the command list) and the value
  /// types (`-string`, `-int[eger]`…) of the help.
  static let helpWords: Set<String> = {
    var words: Set<String> = []
    for line in DefaultsTool.helpText.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
      let word = line.dropFirst(2).prefix { $0 != " " }
      if word.first?.isLetter == true { words.insert(String(word)) }
      if word.hasPrefix("-") {
        // -int[eger] → -int and -integer; -bool[ean] → -bool and -boolean.
        if let open = word.firstIndex(of: "[") {
          let stem = word[..<open]
          words.insert(String(stem))
          words.insert(String(stem) + word[word.index(after: open)...].filter { $0 != "]" })
        } else {
          words.insert(String(word))
        }
      }
    }
    return words
  }()

  @Test func theHelpListsTheWordsThisTestLooksFor() {
    #expect(Self.helpWords.isSuperset(of: ["read", "read-type", "write", "rename", "delete", "import", "export", "domains", "find", "help"]))
    #expect(Self.helpWords.isSuperset(of: ["-string", "-int", "-integer", "-bool", "-boolean", "-array-add", "-dict-add"]))
  }

  @Test(arguments: ["Tools/man/defaults.1", "Tools/completions/defaults.bash", "Tools/completions/defaults.zsh", "Tools/completions/defaults.fish"])
  func everyCommandAndTypeIsDocumented(_ path: String) throws {
    let text = try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
      .replacingOccurrences(of: "\\-", with: "-")
    let isFish = path.hasSuffix(".fish")
    let isMan = path.hasSuffix(".1")
    for word in Self.helpWords.sorted() {
      var found: Bool
      if word.hasPrefix("-") {
        let plain = String(word.dropFirst())
        found = isFish ? text.contains("-o \(plain) ") : text.contains(word)
        // The page writes -int[eger] and -bool[ean] as Apple's help does.
        if isMan, !found { found = text.contains("-int [ eger ]") && word == "-integer" || text.contains("-bool [ ean ]") && word == "-boolean" }
      } else {
        found = text.contains(word)
      }
      #expect(found, "\(path) does not mention \(word)")
    }
  }
}
