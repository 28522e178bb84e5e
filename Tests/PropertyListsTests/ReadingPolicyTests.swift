import Foundation
import PropertyLists
import TestSupport
import Testing

// The reading policies that replaced the hand-written "detect, then fall back" ladders: which
// formats each tries in which order, and which error it reports when all fail.

private typealias Policy = PropertyListReadingPolicy

/// Every named policy, with the name used in messages.
private let namedPolicies: [(name: String, policy: Policy)] = [
  ("automatic", .automatic), ("foundationDecoder", .foundationDecoder), ("plutilLint", .plutilLint),
  ("plutil", .plutil), ("plutilXMLArgument", .plutilXMLArgument), ("stringsFile", .stringsFile),
  ("stringsdictFile", .stringsdictFile),
]

private func read(_ text: String, _ policy: Policy) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
  try PropertyListValue.read(Array(text.utf8), policy: policy)
}

/// The error `body` throws, which must be a ``PropertyListError``.
private func failure(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Any
) -> PropertyListError? {
  do {
    let result = try body()
    Issue.record("expected an error, read \(result)", sourceLocation: sourceLocation)
  } catch let error as PropertyListError {
    return error
  } catch {
    Issue.record("expected a PropertyListError, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

@Suite("Reading policies: the ladders as data")
struct ReadingPolicyTableTests {
  @Test func theConstantsAreTheDocumentedTable() {
    let strings = Policy.Attempt(.strings, reportedAs: .openStep, requiresNonEmptyDictionary: true)
    let table: [(Policy, [Policy.Attempt], [Policy.Attempt], [Policy.Attempt], Policy.Attempt?, Policy.ReportedError)] = [
      (.automatic, [.binary], [.xml, .openStep], [.openStep, .json], nil, .firstOrJSONForBracket),
      (.foundationDecoder, [.binary], [.xml], [.openStep, strings], nil, .first),
      (.plutilLint, [.binary], [.xml], [.openStep], nil, .first),
      (.plutil, [.binary], [.xml], [.openStep], .json, .combined),
      (.plutilXMLArgument, [.binary], [.xml], [.openStep], nil, .first),
      (.stringsFile, [.binary], [.xml], [.strings], nil, .first),
      (.stringsdictFile, [.binary], [.xml], [.openStep, .json], nil, .firstOrJSONForBracket),
    ]
    for (policy, binary, xml, text, lastResort, reported) in table {
      #expect(policy.ladder(for: .binary) == binary)
      #expect(policy.ladder(for: .xml) == xml)
      #expect(policy.ladder(for: .openStep) == text && policy.ladder(for: .json) == text)
      #expect(policy.lastResort == lastResort)
      #expect(policy.reportedError == reported)
      #expect(policy.usesContentDetection)
      #expect(policy.limits == .default)
    }
    #expect(Policy.automatic.allowedFormats == [.binary, .xml, .openStep, .json])
    #expect(Policy.plutil.allowedFormats == [.binary, .xml, .openStep, .json])
    #expect(Policy.foundationDecoder.allowedFormats == [.binary, .xml, .openStep, .strings])
    #expect(Policy.foundationDecoder.emptyDocument == .refusedWithoutText)
    #expect(Policy.automatic.emptyDocument == .readAsAnyOther)
    for format in PropertyListFormat.allCases {
      let only = Policy.only(format)
      #expect(!only.usesContentDetection)
      #expect(only.allowedFormats == [format])
      #expect(only.lastResort == nil)
    }
  }
}

@Suite("Reading policies: order and reported errors")
struct ReadingPolicyBehaviourTests {
  // MARK: automatic (PropertyListValue(decoding:))

  @Test func automaticTriesOpenStepThenJSON() throws {
    #expect(try read(#"{ a = b; }"#, .automatic).format == .openStep)
    #expect(try read(#"{"a": 1}"#, .automatic) == (["a": 1], .json))
    #expect(try read("[1, 2]", .automatic).format == .json)
    // The default entry points are this policy.
    #expect(try PropertyListValue.decodeWithFormat(Data(#"{"a": 1}"#.utf8)).format == .json)
  }

  @Test func automaticReportsJSONsErrorOnlyForABracket() {
    #expect(failure { try read("[1, 2", .automatic) }?.format == .json)
    #expect(failure { try read(" \n\t[1,", .automatic) }?.format == .json)
    #expect(failure { try read("(1, 2", .automatic) }?.format == .openStep)
    #expect(failure { try read(#"{"a": }"#, .automatic) }?.format == .openStep)
  }

  @Test func automaticReportsXMLsErrorAfterTheOpenStepTry() {
    let broken = #"<?xml version="1.0"?><plist version="1.0"><dict><key>a</key></plist>"#
    #expect(failure { try read(broken, .automatic) }?.format == .xml)
    #expect(failure { try read(broken, .plutilLint) }?.format == .xml)
  }

  @Test func onlyReadsOneFormatAndNamesIt() throws {
    let binary = try PropertyListValue.dictionary(["a": 1]).encoded(as: .binary)
    #expect(failure { try PropertyListValue.read(binary, policy: .only(.xml)) }?.format == .xml)
    #expect(try PropertyListValue.read(binary, policy: .only(.binary)).format == .binary)
    var small = Policy.only(.json)
    small.limits.maximumByteCount = 3
    let tooLarge = failure { try read("[1, 2]", small) }
    #expect(tooLarge?.code == .limitExceeded && tooLarge?.format == .json)
    var detecting = Policy.automatic
    detecting.limits.maximumByteCount = 3
    let unnamed = failure { try read("[1, 2]", detecting) }
    #expect(unnamed?.code == .limitExceeded && unnamed?.format == nil)
  }

  // MARK: Foundation's decoder

  @Test func foundationDecoderNeverTriesJSON() {
    #expect(failure { try read(#"{"a": 1}"#, .foundationDecoder) }?.format == .openStep)
    #expect(failure { try read("[1, 2]", .foundationDecoder) }?.format == .openStep, "no bracket rule")
    let decoder = PropertyLists.PropertyListDecoder()
    #expect(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: Data(#"{"a": 1}"#.utf8)) }
  }

  @Test func foundationDecoderRefusesDocumentsWithoutText() throws {
    let empty = failure { try read("", .foundationDecoder) }
    #expect(empty?.code == .truncated && empty?.format == .openStep && empty?.position == .byteOffset(0))
    let mark = failure { try PropertyListValue.read([0xEF, 0xBB, 0xBF] as [UInt8], policy: .foundationDecoder) }
    #expect(mark?.position == .byteOffset(3))
    #expect(try read(" \n", .foundationDecoder) == ([:], .openStep))
    var format = PropertyListFormat.binary
    let table = try PropertyLists.PropertyListDecoder().decode([String: String].self, from: Data(#""a" = "b";"#.utf8), format: &format)
    #expect(table == ["a": "b"] && format == .openStep)
  }

  @Test func aConditionalAttemptFailsOnAnEmptyTable() throws {
    let stringsOnly = Policy(
      binary: [], xml: [], text: [Policy.Attempt(.strings, reportedAs: .openStep, requiresNonEmptyDictionary: true)])
    #expect(try read(#""a" = "b";"#, stringsOnly) == (["a": "b"], .openStep))
    #expect(failure { try read("  ", stringsOnly) }?.format == .strings)
    let noFormats = Policy(binary: [], xml: [], text: [])
    #expect(failure { try read("x", noFormats) }?.code == .unknownFormat)
  }

  // MARK: plutil

  @Test func plutilLintReadsTheDetectedFormatOnly() {
    #expect(failure { try read(#"{"a": 1}"#, .plutilLint) }?.format == .openStep)
    let empty = failure { try read("", .plutilLint) }
    #expect(empty?.code == .truncated && empty?.format == nil && empty?.detail == "the input is empty (zero bytes)")
    let value = failure { try read("", .plutilXMLArgument) }
    #expect(value?.code == .truncated && value?.description == "the value is empty")
    #expect(failure { try read(#"{"a": 1}"#, .plutilXMLArgument) }?.format == .openStep)
  }

  @Test func plutilFallsBackToJSONAndReportsBoth() throws {
    #expect(try read(#"{"a": 1}"#, .plutil) == (["a": 1], .json))
    let both = failure { try read(#"{"a": "#, .plutil) }
    #expect(both?.format == nil && both?.position == nil)
    #expect(both?.detail.hasPrefix("Property List error: OpenStep property list: ") == true)
    #expect(both?.detail.contains(" / JSON error: JSON: ") == true)
    let openStep = failure { try read(#"{"a": "#, .plutilLint) }
    #expect(both?.code == openStep?.code, "the combined error keeps the property-list reader's code")
    let empty = failure { try read("", .plutil) }
    #expect(empty?.detail.hasPrefix("Property List error: the input is empty (zero bytes) / JSON error: ") == true)
    let binary = failure { try PropertyListValue.read(Array("bplist00 broken".utf8), policy: .plutil) }
    #expect(binary?.detail.hasPrefix("Property List error: binary property list: ") == true)
  }

  // MARK: string tables

  @Test func stringTablesReadTextAsTheirOwnKind() throws {
    #expect(try read(#""a" = "b";"#, .stringsFile) == (["a": "b"], .strings))
    #expect(try read("", .stringsFile) == ([:], .strings), "an empty .strings file is an empty table")
    #expect(failure { try read(#"{"a": "b"}"#, .stringsFile) }?.format == .strings, "JSON is not tried")
    #expect(try read(#"{"a": "b"}"#, .stringsdictFile) == (["a": "b"], .json))
    #expect(failure { try read("[", .stringsdictFile) }?.format == .json)
    #expect(failure { try read("(", .stringsdictFile) }?.format == .openStep)
  }
}

@Suite("Reading policies: corpus files", .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct ReadingPolicyCorpusTests {
  /// Binary and XML files read the same under every policy: no policy falls back from them.
  @Test func binaryAndXMLFilesReadAlikeUnderEveryPolicy() throws {
    let files = Corpus.files(in: "bplist", excluding: ["invalid"]) + Corpus.files(in: "xmlplist", excluding: ["json_pass"])
      + Corpus.files(in: "strings").filter { $0.pathExtension == "stringsdict" }
    var checked = 0
    for file in files {
      let data = try file.data()
      guard let (value, format) = try? PropertyListValue.read(data, policy: .automatic), format == .binary || format == .xml
      else { continue }
      checked += 1
      for (name, policy) in namedPolicies {
        let result = try? PropertyListValue.read(data, policy: policy)
        #expect(result?.format == format && result?.value == value, "\(file.name) under \(name)")
      }
    }
    #expect(checked > 50)
  }

  /// `.strings` files are OpenStep text: strings-file mode for a table, OpenStep elsewhere.
  @Test func stringsFilesReadAsTablesOrOpenStep() throws {
    let files = Corpus.files(in: "strings").filter { $0.pathExtension == "strings" }
    #expect(files.count > 20)
    for file in files {
      let data = try file.data()
      let table = try PropertyListValue.read(data, policy: .stringsFile)
      #expect(table.format == .strings, "\(file.name)")
      if data.isEmpty {
        // An empty table (there is one in the corpus) is a table, but no OpenStep document.
        #expect(table.value == [:])
        #expect(failure { try PropertyListValue.read(data, policy: .automatic) }?.code == .truncated)
        continue
      }
      for policy in [Policy.automatic, .foundationDecoder, .plutil, .plutilLint] {
        let other = try PropertyListValue.read(data, policy: policy)
        #expect(other.format == .openStep && other.value == table.value, "\(file.name)")
      }
    }
  }

  /// Broken binary files report the binary reader's error under every policy but ``plutil``,
  /// which adds JSON's.
  @Test func invalidBinaryFilesReportTheBinaryError() throws {
    for file in Corpus.files(in: "bplist/invalid") {
      let data = try file.data()
      guard data.starts(with: Array("bplist0".utf8)) else { continue }
      for (name, policy) in namedPolicies {
        guard let error = failure({ try PropertyListValue.read(data, policy: policy) }) else {
          continue  // a few "invalid" files are readable by design (a cycle CF tolerates…)
        }
        if policy.reportedError == .combined {
          #expect(error.detail.hasPrefix("Property List error: binary property list: "), "\(file.name) under \(name)")
        } else {
          #expect(error.format == .binary, "\(file.name) under \(name): \(error)")
        }
      }
    }
  }
}

@Suite("Reading policies: generated documents")
struct ReadingPolicyGeneratedTests {
  /// Which format a policy reports for a document written in `written`, predicted from its table
  /// alone: the first attempt whose reader reads that format (the `.strings` mode reads a braced
  /// OpenStep dictionary), or `nil` when none does.
  fileprivate static func predicted(_ policy: Policy, written: PropertyListFormat, value: PropertyListValue) -> PropertyListFormat? {
    let detected: PropertyListFormat = written == .binary || written == .xml ? written : .openStep
    for attempt in policy.ladder(for: detected) + (policy.lastResort.map { [$0] } ?? []) {
      let reads = attempt.format == written || (attempt.format == .strings && written == .openStep)
      guard reads else { continue }
      if attempt.requiresNonEmptyDictionary, value.dictionaryValue?.isEmpty != false { continue }
      return attempt.reportedFormat
    }
    return nil
  }

  @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64])
  func eachPolicyReadsWhatItsTablePredicts(seed: UInt64) throws {
    let kinds: [(PropertyListFormat, RandomPropertyList.Kinds)] = [
      (.binary, .binary), (.xml, .xml), (.openStep, .openStep), (.json, .json),
    ]
    for (index, (format, kind)) in kinds.enumerated() {
      var generator = RandomPropertyList(seed: seed &* 31 &+ UInt64(index), kinds: kind)
      for _ in 0..<8 {
        // A dictionary root with a key, so that JSON text is never also OpenStep text.
        let value: PropertyListValue = ["root": generator.value()]
        let bytes = try value.encodedBytes(as: format)
        let reference = try PropertyListValue.read(bytes, policy: .only(format)).value
        for (name, policy) in namedPolicies + [("only(\(format))", .only(format))] {
          let expected = Self.predicted(policy, written: format, value: reference)
          let result = try? PropertyListValue.read(bytes, policy: policy)
          #expect(result?.format == expected, "\(format) document under \(name), seed \(seed)")
          if let result, result.format != .strings { #expect(result.value == reference) }
        }
      }
    }
  }
}
