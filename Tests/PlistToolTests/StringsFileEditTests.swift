import Foundation
import PropertyLists
import TestSupport
import Testing

@testable import PlistTool

/// `-replace`, `-insert` and `-remove` on a `.strings` file edit it as a translator's file:
/// comments, layout, order and encoding stay; only the entry concerned changes.
struct StringsFileEditTests {
  static let translated = """
    /* The title of the main window. */
    "Window Title" = "Fenster";

    /* A button that saves. */
    "Save" = "Sichern";

    // a line comment
    Unquoted = Wert;

    /* A button that quits. */
    "Quit" = "Beenden";

    """

  func text(_ run: ToolRun, _ path: String = "de.strings") -> String { String(decoding: run.file(path) ?? [], as: UTF8.self) }

  @Test func replaceChangesOnlyThatValue() {
    let run = plutil("-replace", "Save", "-string", "Speichern \"jetzt\"", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(text(run) == Self.translated.replacingOccurrences(of: "\"Sichern\"", with: "\"Speichern \\\"jetzt\\\"\""))
  }

  @Test func replaceOfAnUnquotedValueAndOfAMissingKey() {
    let unquoted = plutil("-replace", "Unquoted", "-string", "Neu", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(text(unquoted) == Self.translated.replacingOccurrences(of: "= Wert;", with: "= \"Neu\";"))
    let missing = plutil("-replace", "Open", "-string", "Öffnen", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(text(missing) == Self.translated + "\"Open\" = \"Öffnen\";\n")
  }

  @Test func insertAppendsAndRefusesAnExistingKey() {
    let run = plutil("-insert", "New\nLine", "-string", "Zeile\teins", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(text(run) == Self.translated + "\"New\\nLine\" = \"Zeile\\teins\";\n")
    let again = plutil("-insert", "Save", "-string", "x", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(again.status == 1)
    #expect(text(again) == Self.translated)
  }

  @Test func removeTakesTheEntryAndItsComment() {
    let run = plutil("-remove", "Save", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(text(run) == Self.translated.replacingOccurrences(of: "\n/* A button that saves. */\n\"Save\" = \"Sichern\";\n", with: ""))
  }

  /// A UTF-16 file (as Xcode writes many) stays UTF-16 with its byte-order mark.
  @Test func utf16StaysUTF16() throws {
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in Self.translated.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let run = plutil("-replace", "Quit", "-string", "Schließen", "de.strings", files: ["de.strings": bytes])
    #expect(run.status == 0, "\(run.stderr)")
    let written = try #require(run.file("de.strings"))
    #expect(written.starts(with: [0xFF, 0xFE]))
    let units = stride(from: 2, to: written.count, by: 2).map { UInt16(written[$0]) | UInt16(written[$0 + 1]) << 8 }
    #expect(String(decoding: units, as: UTF16.self) == Self.translated.replacingOccurrences(of: "\"Beenden\"", with: "\"Schließen\""))
  }

  /// Sparkle's German strings: every entry but the one replaced is byte for byte the same.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason)) func aRealTranslatorsFile() throws {
    let original = try Corpus.file("strings/sparkle/de.lproj/Sparkle.strings").bytes()
    let key = "Update Error!"
    let run = plutil(["-replace", key, "-string", "Aktualisierungsfehler!", "Sparkle.strings"], files: ["Sparkle.strings": original])
    #expect(run.status == 0, "\(run.stderr)")
    let before = String(decoding: original, as: UTF8.self).components(separatedBy: "\n")
    let after = String(decoding: try #require(run.file("Sparkle.strings")), as: UTF8.self).components(separatedBy: "\n")
    #expect(before.count == after.count)
    let changed = zip(before, after).filter { $0 != $1 }
    #expect(changed.count == 1)
    #expect(changed.first?.1 == "\"Update Error!\" = \"Aktualisierungsfehler!\";")
  }

  /// A value that is not a string is not an edit of one entry: the document is rewritten as
  /// before (and reads back right); a document in braces is not a strings table.
  @Test func whatIsNotOneStringEntryIsRewritten() throws {
    let run = plutil("-insert", "Extra", "-dictionary", "de.strings", files: ["de.strings": Array(Self.translated.utf8)])
    #expect(run.status == 0, "\(run.stderr)")
    let (value, _) = try PropertyListValue.read(try #require(run.file("de.strings")), policy: .plutil)
    #expect(value.dictionaryValue?["Extra"] == .dictionary([:]))
    #expect(value.dictionaryValue?["Save"] == "Sichern")
    let braced = plutil("-replace", "a", "-string", "z", "b.plist", files: ["b.plist": Array("{ /* c */ a = b; }".utf8)])
    #expect(String(decoding: braced.file("b.plist") ?? [], as: UTF8.self) == "{\n    a = z;\n}\n")
  }
}
