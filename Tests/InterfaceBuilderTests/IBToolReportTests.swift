import Foundation
import Interface
import PropertyLists
import TestSupport
import Testing

/// ibtool's report: `--errors`, `--warnings` and `--notices` choose what is reported, in Apple's
/// document-keyed shape (`com.apple.ibtool.document.warnings` → path → messages), in xml1 and in
/// human-readable text; and the `--print-…` listings of compiled storyboards.
@Suite(.enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"))
struct IBToolReportTests {
  static func run(_ arguments: [String], in folder: ScratchFolder) throws -> ToolOutcome {
    try ToolProcess.run(try #require(builtIBTool), arguments, in: folder.path)
  }

  static func plist(_ outcome: ToolOutcome) throws -> [String: Any] {
    try #require(try PropertyListSerialization.propertyList(from: Data(outcome.stdout), format: nil) as? [String: Any], "\(outcome.stdoutText)")
  }

  /// A document whose compile has a warning on line 7: a text field's `textCompletion="NO"`,
  /// whose encoding no Apple-compiled nib here confirms.
  static func colors(in folder: ScratchFolder) throws {
    let document = IBToolTests.catalogColorXib.replacingOccurrences(of: #"<textField id="tf1">"#, with: #"<textField id="tf1" textCompletion="NO">"#)
    try folder.write(Array(document.utf8), to: "Colors.xib")
  }

  @Test func errorsAloneReportsNoWarnings() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    try Self.colors(in: folder)
    let outcome = try Self.run(["--errors", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(outcome.status == 0)
    let report = try Self.plist(outcome)
    #expect(Set(report.keys) == ["com.apple.ibtool.document.errors"], "\(outcome.stdoutText)")
    #expect((report["com.apple.ibtool.document.errors"] as? [String: Any])?.isEmpty == true, "no errors: an empty dictionary, as Apple prints it")
    let text = try Self.run(["--errors", "--output-format", "human-readable-text", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(text.stdoutText.isEmpty, "\(text.stdoutText)")
  }

  @Test func warningsAreKeyedByDocument() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    try Self.colors(in: folder)
    let outcome = try Self.run(["--warnings", "--notices", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    let report = try Self.plist(outcome)
    #expect(Set(report.keys) == ["com.apple.ibtool.document.warnings", "com.apple.ibtool.document.notices"], "\(outcome.stdoutText)")
    let byDocument = try #require(report["com.apple.ibtool.document.warnings"] as? [String: Any])
    #expect(Array(byDocument.keys) == ["Colors.xib"])
    let messages = try #require(byDocument["Colors.xib"] as? [[String: Any]])
    let first = try #require(messages.first)
    #expect((first["message"] as? String)?.hasPrefix(#"<textField> textCompletion="NO""#) == true, "\(first)")
    #expect((first["description"] as? String)?.hasPrefix(#"Colors.xib:7: <textField> textCompletion="NO""#) == true)
    #expect(first["type"] as? String == "warning")
    #expect(first["line"] as? Int == 7)
  }

  @Test func humanReadableTextHasApplesLines() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    try Self.colors(in: folder)
    let outcome = try Self.run(["--warnings", "--output-format", "human-readable-text", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    let lines = outcome.stdoutText.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "/* com.apple.ibtool.document.warnings */", "\(outcome.stdoutText)")
    #expect(lines.dropFirst().first?.hasPrefix(#"Colors.xib:7: warning: <textField> textCompletion="NO""#) == true, "\(outcome.stdoutText)")
  }

  /// Problems of the run (a flag) are the run's, under `com.apple.ibtool.errors`, reported even
  /// when only warnings were asked for; its notices only when notices are.
  @Test func theRunsOwnProblems() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    try Self.colors(in: folder)
    let bad = try Self.run(["--warnings", "--target-device", "toaster", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(bad.status == 1)
    let errors = try #require(try Self.plist(bad)["com.apple.ibtool.errors"] as? [[String: String]])
    #expect(errors.first?["description"]?.hasPrefix("--target-device toaster: not a device") == true)
    let noted = try Self.run(["--minimum-deployment-target", "14.0", "--target-device", "mac", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    let report = try Self.plist(noted)
    #expect((report["com.apple.ibtool.notices"] as? [[String: String]])?.first?["description"]?.hasPrefix("--minimum-deployment-target 14.0") == true)
    #expect(report["com.apple.ibtool.document.warnings"] != nil, "no category flagged: every category with something in it")
    let warningsOnly = try Self.plist(
      try Self.run(["--warnings", "--minimum-deployment-target", "14.0", "--target-device", "mac", "--compile", "Colors.nib", "Colors.xib"], in: folder))
    #expect(warningsOnly["com.apple.ibtool.notices"] == nil)
  }

  /// A document error is the document's, keyed by its path.
  @Test func aDocumentErrorIsKeyedByTheDocument() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    try folder.write(Array("<document".utf8), to: "Cut.xib")
    let outcome = try Self.run(["--errors", "--compile", "Cut.nib", "Cut.xib"], in: folder)
    #expect(outcome.status == 1)
    let documents = try #require(try Self.plist(outcome)["com.apple.ibtool.document.errors"] as? [String: [[String: Any]]])
    #expect(documents["Cut.xib"]?.first?["type"] as? String == "error")
    #expect(documents["Cut.xib"]?.first?["line"] as? Int == 1)
  }

  /// Every `--print-…` listing reads a compiled storyboard folder, as `--compare` does: each nib
  /// under its name.
  @Test func printOptionsReadACompiledStoryboard() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    let storyboard = Corpus.repositoryRoot.appendingPathComponent("Examples/Items.storyboard").path
    #expect(try Self.run(["--stasis-runtime", "--compile", "Items.storyboardc", storyboard], in: folder).status == 0)
    let connections = try Self.run(["--print-connections", "Items.storyboardc"], in: folder)
    #expect(connections.status == 0, "\(connections.stdoutText)")
    #expect(connections.stdoutText.contains("== Items.nib ==\nUIRuntimeEventConnection \"perform:\""), "\(connections.stdoutText)")
    for flag in ["--print-hierarchy", "--print-objects", "--print-classes"] {
      let listing = try Self.run([flag, "Items.storyboardc"], in: folder)
      #expect(listing.status == 0, "\(flag): \(listing.stdoutText)")
      #expect(listing.stdoutText.contains("== Detail.nib ==") && listing.stdoutText.contains("== Items.nib =="), "\(flag)")
    }
    let fromSource = try Self.run(["--print-hierarchy", "--stasis-runtime", storyboard], in: folder)
    let fromFolder = try Self.run(["--print-hierarchy", "Items.storyboardc"], in: folder)
    #expect(fromSource.stdoutText == fromFolder.stdoutText)
  }

  /// A title with quotes and a line break stays one line of the hierarchy, escaped.
  @Test func hierarchyEscapesTitles() throws {
    let folder = try ScratchFolder("ibtool-report")
    defer { folder.remove() }
    let text = try String(contentsOfFile: IBToolTests.demo, encoding: .utf8)
      .replacingOccurrences(of: "title=\"Save\"", with: #"title="Say &quot;hi&quot;&#10;now \""#)
    try folder.write(Array(text.utf8), to: "Quoted.xib")
    let outcome = try Self.run(["--print-hierarchy", "Quoted.xib"], in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.contains(#"#23 NSButtonCell "Say \"hi\"\nnow \\""#), "\(outcome.stdoutText)")
    #expect(!outcome.stdoutText.split(separator: "\n").contains { $0.hasPrefix("now") })
    #expect(QuotedText.oneLine("a\u{1}b\tc") == #""a\u{1}b\tc""#)
  }
}
