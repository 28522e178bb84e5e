import Foundation
import TestSupport
import Testing

@testable import PlistTool

/// The man page and shell completions `Tools/install.sh` installs for plutil are written by hand
/// (its grammar is Apple's): each option of `plutil -help` must be in the page and in each
/// completion, so that an option added to the tool without them fails here.
@Suite struct InstalledDocumentationTests {
  /// The options `plutil -help` lists: the first word of each line that starts with `-`.
  static let helpOptions: Set<String> = {
    var options: Set<String> = []
    for line in HelpText.text(programName: "plutil").split(separator: "\n") {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("-"), line.hasPrefix(" ") else { continue }
      let word = trimmed.prefix { $0 != " " && $0 != ":" }
      options.insert(String(word))
    }
    // The value types of -insert, listed as "-bool:" and the like.
    for type in ["-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json", "-dictionary", "-array", "-append"] {
      options.insert(type)
    }
    return options
  }()

  static func repositoryFile(_ path: String) throws -> String {
    try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theHelpListsTheOptionsThisTestLooksFor() {
    #expect(Self.helpOptions.isSuperset(of: ["-help", "-lint", "-convert", "-extract", "-p", "-archive", "-s", "-o", "-e", "-r", "-n", "--"]))
  }

  @Test(arguments: ["Tools/man/plutil.1", "Tools/completions/plutil.bash", "Tools/completions/plutil.zsh", "Tools/completions/plutil.fish"])
  func everyOptionIsDocumented(_ path: String) throws {
    // roff writes a minus as "\-"; fish names an option "-o NAME" as "-o NAME".
    let text = try Self.repositoryFile(path).replacingOccurrences(of: "\\-", with: "-")
    for option in Self.helpOptions.sorted() where option != "--" {
      let plain = String(option.dropFirst())
      let found = path.hasSuffix(".fish") ? text.contains("-o \(plain) ") || text.contains("-o \(plain)\n") || text.contains("for type in") && text.contains(" \(plain)") : text.contains(option)
      #expect(found, "\(path) does not mention \(option)")
    }
  }
}
