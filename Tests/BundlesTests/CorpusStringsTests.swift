import Bundles
import FoundationEssentials
import PropertyLists
import TestSupport
import Testing
import StasisSystem

@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct CorpusStringsTests {
  static let files: [CorpusFile] = Corpus.files(in: "strings").filter { ["strings", "stringsdict"].contains($0.pathExtension) }
  static let stringsdictFiles: [CorpusFile] = files.filter { $0.pathExtension == "stringsdict" }

  /// The entries of a `.strings` or `.stringsdict` file (in the language of its `.lproj`).
  static func entryCount(_ file: CorpusFile) throws -> Int {
    if file.pathExtension == "strings" {
      return try StringTable.readStrings(atPath: file.path).count
    }
    let language = file.url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
    return try StringTable.readStringsdict(atPath: file.path, language: language).count
  }

  /// The per-file tests below have one case per file; this keeps a missing or emptied folder
  /// from passing with no cases, and checks the tables together hold what they should.
  @Test func corpusHoldsTheTables() throws {
    #expect(Self.files.count >= 60)
    let entries = Self.files.reduce(0) { $0 + ((try? Self.entryCount($1)) ?? 0) }
    #expect(entries > 1000)
  }

  @Test(arguments: files)
  func everyTableLoads(_ file: CorpusFile) throws {
    do {
      _ = try Self.entryCount(file)
    } catch {
      Issue.record("\(file.name): \(error)")
    }
  }

  /// Every plural entry of every corpus `.stringsdict` formats for the sample numbers in its own
  /// language, and picks a category the rules can produce.
  @Test(arguments: stringsdictFiles)
  func everyStringsdictEntryFormats(_ file: CorpusFile) throws {
    let language = file.url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
    for (key, entry) in try StringTable.readStringsdict(atPath: file.path, language: language) {
      guard case .format(let format) = entry else { continue }
      let numericVariables = format.variables.values.filter { $0.ruleType == "NSStringPluralRuleType" }.count
      guard numericVariables == format.variables.count else { continue }
      for number in [0, 1, 2, 3, 5, 11, 21, 22, 101] {
        // Variants may name later arguments (%2$@); every argument is the number, which %@ prints too.
        let arguments = Array(repeating: FormatValue.int(Int64(number)), count: 4)
        do {
          _ = try format.formatted(arguments)
        } catch {
          // Variants that print a string (%@) are fine with a number too; only real faults fail.
          Issue.record("\(file.name) \(key) \(number): \(error)")
        }
      }
    }
  }

  @Test func russianCorpusVariantsMatchCLDR() throws {
    let path = Corpus.root.appendingPathComponent("strings/mightytabrefresh/ru.lproj/Localizable.stringsdict").path
    let table = try StringTable.readStringsdict(atPath: path, language: "ru")
    guard case .format(let format)? = table["refresh every %d seconds"] else {
      Issue.record("entry missing")
      return
    }
    #expect(try format.formatted(2) == "перезагружать каждые 2 секунды")  // few
    #expect(try format.formatted(22) == "перезагружать каждые 22 секунды")  // few
    #expect(try format.formatted(5) == "перезагружать каждые 5 секунд")  // many
    #expect(try format.formatted(11) == "перезагружать каждые 11 секунд")  // many
  }

  /// Variants that skip their number, and variants mixing `%d` with `%2$@`, keep every argument
  /// in its place.
  @Test func corpusVariantsKeepArgumentsInPlace() throws {
    let french = try StringTable.readStringsdict(
      atPath: Corpus.root.appendingPathComponent("strings/kraftstoff/fr.lproj/Localizable.stringsdict").path, language: "fr")
    guard case .format(let imported)? = french["Imported %d car(s) with %d fuel event(s)."] else {
      Issue.record("kraftstoff entry missing")
      return
    }
    #expect(try imported.formatted(1, 2) == "Un véhicule importé avec 2 records.")
    #expect(try imported.formatted(3, 1) == "3 véhicules importés avec un record.")
    #expect(try imported.formatted(0, 5) == "Un véhicule importé avec 5 records.")  // fr: 0 is "one"
    let russian = try StringTable.readStringsdict(
      atPath: Corpus.root.appendingPathComponent("strings/deltachat/ru.lproj/Localizable.stringsdict").path, language: "ru")
    guard case .format(let forward)? = russian["ask_forward_messages"] else {
      Issue.record("deltachat entry missing")
      return
    }
    #expect(try forward.formatted(3, "Bob") == "Переслать 3 сообщения пользователю Bob?")
    #expect(try forward.formatted(21, "Bob") == "Переслать сообщение пользователю Bob?")
    #expect(try forward.formatted(12, "Bob") == "Переслать 12 сообщений пользователю Bob?")
  }

  @Test func utf16CorpusFilesDecode() throws {
    // UTF-16BE with a byte-order mark; unquoted `ascii = ascii;` and non-ASCII quoted keys.
    let utf16 = try StringTable.readStrings(
      atPath: Corpus.root.appendingPathComponent("strings/gnustep/non_ascii_utf16.strings").path)
    #expect(utf16["ascii"] == "ascii")
    #expect(utf16.keys.contains { $0.unicodeScalars.contains { $0.value == 0xE5 } })
    // The UTF-8 file (with BOM) holds the same text encoded twice (GNUstep's fixture), so it
    // decodes to the mojibake its bytes spell.
    let utf8 = try StringTable.readStrings(
      atPath: Corpus.root.appendingPathComponent("strings/gnustep/non_ascii_utf8.strings").path)
    #expect(utf8["ascii"] == "ascii")
    #expect(utf8.count == utf16.count)
  }

  @Test func corpusFolderOpensAsABundle() throws {
    let folder = Corpus.root.appendingPathComponent("strings/sparkle").path
    let bundle = try Bundle(path: folder, environment: .languages(["zh-Hans-CN"]))
    #expect(bundle.preferredLocalizations == ["zh_CN"])
    let english = try Bundle(path: folder, environment: .languages(["en"]))
    #expect(english.localizations.contains("Base"))
    #expect(english.path(forResource: "Sparkle", ofType: "strings")?.hasSuffix("Base.lproj/Sparkle.strings") == true)
  }
}
