import Foundation
import PropertyLists
import TestSupport
import Testing

/// Stasis's plutil against the Swift toolchain's port of Apple's plutil, on the shared corpus and
/// on seeded generated values.
///
/// What is compared, and the differences that are allowed (each is listed in Docs/plutil.md):
/// - `-lint`: the exit status.
/// - `-convert xml1 -o -`: byte for byte.
/// - `-convert json -o -`: the values read back (key order is unspecified in JSON, and the
///   toolchain writes `3.0` as `3`, so an integral real may come back as an integer).
/// - `-convert binary1`: read back by the other tool and converted to XML, byte for byte.
/// - `-p`: the text, with data bytes elided (the port prints them wrongly); files with UIDs are
///   skipped (the port prints a memory address).
/// - UIDs: the port cannot write them at all, so generated values hold none.
@Suite(
  "Comparison with the toolchain's plutil",
  .enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason))
struct ToolchainComparisonTests {
  // MARK: Corpus

  static let corpusFiles: [CorpusFile] = {
    guard Corpus.isAvailable else { return [] }
    let folders = ["bplist", "xmlplist", "openstep", "keyedarchive", "strings"]
    return folders.flatMap { Corpus.files(in: $0, excluding: ["invalid"]) }
  }()

  static let invalidCorpusFiles: [CorpusFile] = Corpus.isAvailable ? Corpus.files(in: "bplist/invalid") : []

  /// Valid corpus files on which the two tools disagree because Stasis's binary reader decides
  /// differently from the toolchain's (Docs/plutil.md, "Differences that come from the
  /// readers") are checked for that difference, so that the documentation is updated when it
  /// goes away.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: corpusFiles)
  func corpusFile(_ file: CorpusFile) throws {
    let path = file.path
    let name = file.name
    switch URL(fileURLWithPath: path).lastPathComponent {
    case "goplist_CF_Keyed_Archiver_UIDs_interface.bplist":
      // UIDs of 5 and 8 bytes: the toolchain rejects UIDs above 2^32 − 1; Stasis reads them.
      #expect(try ToolchainPlutil.run(["-lint", path]).status == 1)
      #expect(CapturingEnvironment.run(["-lint", path]).status == 0)
      return
    case "goplist_Duplicate_Dictionary_Keys.bplist":
      // A binary dictionary listing one key twice: both keep the first value, as CF does.
      #expect(try ToolchainPlutil.run(["-extract", "key", "raw", path]).stdoutText == "value\n")
      #expect(String(decoding: CapturingEnvironment.run(["-extract", "key", "raw", path]).stdout, as: UTF8.self) == "value\n")
      return
    default: break
    }
    let theirLint = try ToolchainPlutil.run(["-lint", path])
    let ourLint = CapturingEnvironment.run(["-lint", path])
    #expect(ourLint.status == theirLint.status, "\(name): -lint exit status; toolchain said \(theirLint.stderrText), we said \(ourLint.stderr)")

    let theirXML = try ToolchainPlutil.run(["-convert", "xml1", "-o", "-", path])
    let ourXML = CapturingEnvironment.run(["-convert", "xml1", "-o", "-", path])
    if theirXML.stderrText.contains("Dictionaries are required to have string keys") {
      // The port cannot write a keyed archive's UIDs; we can (Apple's macOS plutil can too).
      #expect(ourXML.status == 0, "\(name): \(ourXML.stderr)")
      return
    }
    #expect(ourXML.status == theirXML.status, "\(name): -convert xml1 exit status; toolchain: \(theirXML.stderrText) ours: \(ourXML.stderr)")
    guard theirXML.status == 0, ourXML.status == 0 else { return }
    #expect(ourXML.stdout == [UInt8](theirXML.stdout), "\(name): -convert xml1 output differs")

    // Our binary, read by the toolchain, is the same document.
    let ourBinary = CapturingEnvironment.run(["-convert", "binary1", "-o", "-", path])
    #expect(ourBinary.status == 0, "\(name): \(ourBinary.stderr)")
    let theirReading = try ToolchainPlutil.run(["-convert", "xml1", "-o", "-", "-"], standardInput: Data(ourBinary.stdout))
    #expect(theirReading.stdout == theirXML.stdout, "\(name): the toolchain reads our binary1 differently: \(theirReading.stderrText)")

    // -p, with data bytes elided.
    let theirListing = try ToolchainPlutil.run(["-p", path])
    let ourListing = CapturingEnvironment.run(["-p", path])
    #expect(ourListing.status == theirListing.status, "\(name): -p exit status")
    #expect(
      Agreement.listingWithoutDataBytes(String(decoding: ourListing.stdout, as: UTF8.self))
        == Agreement.listingWithoutDataBytes(theirListing.stdoutText), "\(name): -p output differs")

    // JSON: the same verdict, and the same values when both can write it.
    let theirJSON = try ToolchainPlutil.run(["-convert", "json", "-o", "-", path])
    let ourJSON = CapturingEnvironment.run(["-convert", "json", "-o", "-", path])
    #expect(ourJSON.status == theirJSON.status, "\(name): -convert json exit status; toolchain: \(theirJSON.stderrText) ours: \(ourJSON.stderr)")
    if theirJSON.status == 0, ourJSON.status == 0 {
      let theirs = try PropertyListValue(decoding: theirJSON.stdout, format: .json)
      let ours = try PropertyListValue(decoding: ourJSON.stdout, format: .json)
      let difference = Agreement.difference(ours, theirs, [.integralRealsAsIntegers])
      #expect(difference == nil, "\(name): -convert json values differ: \(difference ?? "")")
    }
  }

  /// Corpus files on which the two tools disagree on purpose (Docs/plutil.md, "Deliberate
  /// differences"), with what Stasis does instead.
  static let knownLintDifferences: [String: String] = [
    // CoreFoundation accepts dictionary keys that are not strings; the value model does not.
    "goplist_invalid_21_Dictionary_non_string_key.bplist": "rejected: a boolean dictionary key",
    "Test_82142612.bad": "rejected: a data dictionary key",
  ]

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: invalidCorpusFiles)
  func invalidCorpusFile(_ file: CorpusFile) throws {
    let path = file.path
    let theirs = try ToolchainPlutil.run(["-lint", path])
    let ours = CapturingEnvironment.run(["-lint", path])
    let name = file.name
    if Self.knownLintDifferences[URL(fileURLWithPath: path).lastPathComponent] != nil {
      #expect(theirs.status == 0 && ours.status == 1, "\(name): the documented difference no longer holds")
      return
    }
    #expect(ours.status == theirs.status, "\(name): toolchain said \(theirs.stderrText)\(theirs.stdoutText), we said \(ours.stderr)")
    if ours.status != 0 {
      #expect(ours.stderr.hasPrefix(path + ": ("), "\(name): message shape")
    }
  }

  // MARK: Generated values

  static let valueCount = 300

  /// Generated documents the toolchain can represent in `format` (no UIDs; JSON has no dates,
  /// data or special reals).
  static func documents(for format: PropertyListFormat) -> [PropertyListValue] {
    var kinds: RandomPropertyList.Kinds
    switch format {
    case .json: kinds = .json
    case .xml: kinds = .xml
    default: kinds = .binary
    }
    kinds.remove(.uids)
    return (0..<UInt64(valueCount)).map { seed in
      var generator = RandomPropertyList(seed: seed &* 7919 &+ UInt64(format.hashValue & 0xFF), kinds: kinds)
      return generator.document()
    }
  }

  @Test(arguments: [("xml1", PropertyListFormat.xml), ("binary1", .binary), ("json", .json)])
  func generatedValuesAgree(name: String, format: PropertyListFormat) throws {
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    let values = Self.documents(for: format)
    // Inputs: our binary encoding of each value.
    var inputs: [String] = []
    for (index, value) in values.enumerated() {
      try folder.write(try value.encodedBytes(as: .binary), to: "v\(index).plist")
      inputs.append(folder.file("v\(index).plist"))
    }
    func outputs(_ pathExtension: String) -> [String] { (0..<values.count).map { folder.file("v\($0).\(pathExtension)") } }
    func read(_ path: String, _ format: PropertyListFormat? = nil) -> PropertyListValue? {
      guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
      return try? PropertyListValue(decoding: data, format: format)
    }
    var mismatches: [String] = []

    // Baseline: how the toolchain reads our inputs, as XML. It must be the value we wrote
    // (in whole seconds: XML has no fractions of a second).
    let baseline = try ToolchainPlutil.run(["-convert", "xml1", "-e", "base"] + inputs)
    #expect(baseline.status == 0, "toolchain could not read our binary inputs: \(baseline.stderrText)")
    for (index, path) in outputs("base").enumerated() {
      guard let value = read(path, .xml) else {
        mismatches.append("value \(index): baseline unreadable")
        continue
      }
      if let difference = Agreement.difference(value, values[index], [.wholeSecondDates]) {
        mismatches.append("value \(index): the toolchain reads our binary input differently: \(difference)")
      }
    }

    // 1. Our -convert output, read by the toolchain, is the same document as the input.
    let ours = CapturingEnvironment.run(["-convert", name, "-e", "ours"] + inputs)
    #expect(ours.status == 0, "\(ours.stderr)")
    let theirReading = try ToolchainPlutil.run(["-convert", "xml1", "-e", "reread"] + outputs("ours"))
    #expect(theirReading.status == 0, "\(theirReading.stderrText)")
    let baselines = outputs("base"), rereads = outputs("reread")
    for index in values.indices {
      let expected = try? Data(contentsOf: URL(fileURLWithPath: baselines[index]))
      let actual = try? Data(contentsOf: URL(fileURLWithPath: rereads[index]))
      guard expected == nil || expected != actual else { continue }
      var detail = Self.firstDifference(expected, actual)
      if format == .json, let left = read(baselines[index], .xml), let right = read(rereads[index], .xml) {
        guard let difference = Agreement.difference(left, right, [.integralRealsAsIntegers, .toolchainJSONNumbers]) else { continue }
        detail = difference
      }
      mismatches.append("value \(index): the toolchain reads our \(name) as a different document: \(detail)")
    }

    // 2. The toolchain's -convert output, read by Stasis, is the same value.
    let theirs = try ToolchainPlutil.run(["-convert", name, "-e", "theirs"] + inputs)
    #expect(theirs.status == 0, "\(theirs.stderrText)")
    let tolerance: Agreement.Tolerance = format == .json ? [.integralRealsAsIntegers] : format == .xml ? [.wholeSecondDates] : []
    for (index, path) in outputs("theirs").enumerated() {
      guard let value = read(path) else {
        mismatches.append("value \(index): we cannot read the toolchain's \(name)")
        continue
      }
      if let difference = Agreement.difference(value, values[index], tolerance) {
        mismatches.append("value \(index): we read the toolchain's \(name) as a different value: \(difference)")
      }
    }

    // 3. -p prints the same listing, with data bytes elided and with dates before 1970 that
    // have a fraction of a second printed as the toolchain does: its Date.description rounds
    // toward 1970 (1960-03-09 04:31:02.7 prints as …:03), Stasis rounds down (…:02).
    let theirListing = try ToolchainPlutil.run(["-p"] + inputs)
    var ourListings: [String] = []
    for value in values {
      let run = plutil(["-p", "v.plist"], files: ["v.plist": try Agreement.datesRoundedTowardZero(value).encodedBytes(as: .binary)])
      ourListings.append(Agreement.listingWithoutDataBytes(run.stdout))
    }
    if ourListings.joined() != Agreement.listingWithoutDataBytes(theirListing.stdoutText) {
      for (index, input) in inputs.enumerated() {
        let one = Agreement.listingWithoutDataBytes(try ToolchainPlutil.run(["-p", input]).stdoutText)
        if one != ourListings[index] {
          mismatches.append("value \(index): -p differs: \(Self.firstDifference(Data(one.utf8), Data(ourListings[index].utf8)))")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) mismatches for \(name): \(mismatches.prefix(12).joined(separator: "\n"))")
  }

  /// The first line where two texts differ, for failure messages.
  static func firstDifference(_ expected: Data?, _ actual: Data?) -> String {
    let left = String(decoding: expected ?? Data(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let right = String(decoding: actual ?? Data(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(left.count, right.count) {
      let l = index < left.count ? String(left[index]) : "<end>"
      let r = index < right.count ? String(right[index]) : "<end>"
      if l != r { return "line \(index + 1): expected \(l.debugDescription), got \(r.debugDescription)" }
    }
    return "no difference"
  }

  // MARK: Edits

  /// Edits on which both tools must produce the same XML file, or fail alike.
  static let edits: [[String]] = [
    ["-insert", "new", "-string", "hi"], ["-insert", "s", "-string", "hi"], ["-replace", "s", "-integer", "5"],
    ["-insert", "arr.0", "-string", "first"], ["-insert", "arr.3", "-bool", "YES"], ["-insert", "arr.4", "-string", "x"],
    ["-insert", "arr", "-float", "2.5", "-append"], ["-insert", "d", "-string", "x", "-append"],
    ["-insert", "fresh", "-integer", "7", "-append"], ["-insert", "d.x.y", "-string", "x"], ["-insert", "s.x", "-string", "x"],
    ["-insert", "arr.foo", "-string", "x"], ["-insert", "b", "-integer", "12abc"], ["-insert", "b", "-float", "1.5e3x"],
    ["-insert", "b", "-data", "aGVsbG8="], ["-insert", "b", "-date", "2020-01-01T00:00:00Z"],
    ["-insert", "b", "-json", #"{"a": [1, 2.5, "x", true]}"#], ["-insert", "b", "-xml", "<plist><array><integer>1</integer></array></plist>"],
    ["-insert", "b", "-array"], ["-insert", "b", "-dictionary"], ["-insert", "d.k2", "-string", "v2"], ["-insert", "a\\.b.c", "-integer", "2"],
    ["-remove", "arr.1"], ["-remove", "d.k"], ["-remove", "nope"], ["-remove", "arr.9"], ["-remove", "s.x"], ["-remove", "a\\.b"],
    ["-replace", "d.k", "-dictionary"],
  ]

  @Test(arguments: edits)
  func editMatchesTheToolchain(_ edit: [String]) throws {
    let base: PropertyListValue = ["arr": [1, 2, 3], "d": ["k": "v"], "s": "x", "a.b": ["z": 0]]
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try base.encodedBytes(as: .xml), to: "theirs.plist")
    try folder.write(try base.encodedBytes(as: .xml), to: "ours.plist")
    let theirs = try ToolchainPlutil.run(edit + [folder.file("theirs.plist")])
    let ours = CapturingEnvironment.run(edit + [folder.file("ours.plist")])
    #expect(ours.status == theirs.status, "\(edit): toolchain \(theirs.stderrText), ours \(ours.stderr)")
    #expect(try folder.read("ours.plist") == (try folder.read("theirs.plist")), "\(edit)")
    #expect(
      ours.stderr.replacingOccurrences(of: "ours.plist", with: "theirs.plist") == theirs.stderrText
        || theirs.status == 0, "\(edit): messages differ")
  }

  // MARK: -extract raw and -type

  @Test func rawAndTypeOfGeneratedScalars() throws {
    var generator = RandomPropertyList(seed: 2024, kinds: [.integers, .reals, .bools, .dates, .data, .bigUnsigned, .unicode])
    var dictionary = PropertyListDictionary()
    for index in 0..<40 { dictionary["k\(index)"] = generator.scalar() }
    dictionary["list"] = [1, 2]
    dictionary["map"] = ["b": 1, "a10": 2, "a9": 3, "B": 4, "_": 5]
    let folder = try ScratchFolder("plutil")
    defer { folder.remove() }
    try folder.write(try PropertyListValue.dictionary(dictionary).encodedBytes(as: .binary), to: "s.plist")
    let path = folder.file("s.plist")
    for key in dictionary.keys {
      for arguments in [["-extract", key, "raw"], ["-type", key]] {
        let theirs = try ToolchainPlutil.run(arguments + [path])
        let ours = CapturingEnvironment.run(arguments + [path])
        #expect(ours.status == theirs.status, "\(arguments)")
        #expect(String(decoding: ours.stdout, as: UTF8.self) == theirs.stdoutText, "\(arguments): \(dictionary[key]!)")
      }
    }
  }
}
