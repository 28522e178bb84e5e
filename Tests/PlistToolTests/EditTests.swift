import Foundation
import PropertyLists
import Testing

@testable import PlistTool

@Suite("plutil -insert, -replace, -remove")
struct EditTests {
  static let base: PropertyListValue = ["arr": [1, 2, 3], "d": ["k": "v"], "s": "x", "a.b": ["c": 1]]

  /// Runs an edit on a binary copy of `base` and returns the run and the file's new value.
  func edit(_ arguments: String...) throws -> (ToolRun, PropertyListValue?) {
    let run = plutil(arguments + ["f.plist"], files: ["f.plist": try Samples.bytes(Self.base, .binary)])
    return (run, Samples.decode(run.file("f.plist")))
  }

  func expectEdit(
    _ arguments: [String], _ change: (inout PropertyListValue) -> Void, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let run = plutil(arguments + ["f.plist"], files: ["f.plist": try Samples.bytes(Self.base, .binary)])
    #expect(run.status == 0, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr == "", sourceLocation: sourceLocation)
    #expect(run.stdout == "", sourceLocation: sourceLocation)
    var expected = Self.base
    change(&expected)
    #expect(Samples.decode(run.file("f.plist")) == expected, "\(arguments)", sourceLocation: sourceLocation)
  }

  func expectFailure(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let input = try Samples.bytes(Self.base, .binary)
    let run = plutil(arguments + ["f.plist"], files: ["f.plist": input])
    #expect(run.status == 1, sourceLocation: sourceLocation)
    #expect(run.stderr == message, sourceLocation: sourceLocation)
    #expect(run.file("f.plist") == input, "unchanged", sourceLocation: sourceLocation)
    #expect(run.environment.writtenPaths.isEmpty, sourceLocation: sourceLocation)
  }

  @Test func insertIntoDictionaries() throws {
    try expectEdit(["-insert", "new", "-string", "hi"]) { $0 = .dictionary($0.dictionaryValue!.inserting("new", "hi")) }
    try expectEdit(["-insert", "d.n", "-integer", "-5"]) { $0 = Self.setting($0, ["d", "n"], -5) }
    try expectEdit(["-insert", "a\\.b.z", "-bool", "YES"]) { $0 = Self.setting($0, ["a.b", "z"], true) }
    try expectEdit(["-insert", "", "-string", "empty key"]) { $0 = Self.setting($0, [""], "empty key") }
  }

  @Test func insertIntoArrays() throws {
    try expectEdit(["-insert", "arr.0", "-string", "first"]) { $0 = Self.setting($0, ["arr"], ["first", 1, 2, 3]) }
    try expectEdit(["-insert", "arr.3", "-string", "last"]) { $0 = Self.setting($0, ["arr"], [1, 2, 3, "last"]) }
    try expectEdit(["-insert", "arr", "-float", "2.5", "-append"]) { $0 = Self.setting($0, ["arr"], [1, 2, 3, 2.5]) }
  }

  @Test func appendToAMissingKeySetsTheValue() throws {
    // Apple's plutil: with -append, a key that does not exist yet simply receives the value.
    try expectEdit(["-insert", "fresh", "-string", "v", "-append"]) { $0 = Self.setting($0, ["fresh"], "v") }
  }

  @Test func appendIntoAnArrayInsideAnArray() throws {
    let nested: PropertyListValue = ["m": [[1], [2]]]
    let run = plutil("-insert", "m.1", "-integer", "3", "-append", "f.plist", files: ["f.plist": try Samples.bytes(nested, .binary)])
    #expect(run.status == 0)
    #expect(Samples.decode(run.file("f.plist")) == ["m": [[1], [2, 3]]])
  }

  @Test func insertEveryType() throws {
    try expectEdit(["-insert", "v", "-bool", "true"]) { $0 = Self.setting($0, ["v"], true) }
    try expectEdit(["-insert", "v", "-bool", "no"]) { $0 = Self.setting($0, ["v"], false) }
    try expectEdit(["-insert", "v", "-integer", "12abc"]) { $0 = Self.setting($0, ["v"], 12) }
    try expectEdit(["-insert", "v", "-float", "1e3"]) { $0 = Self.setting($0, ["v"], 1000.0) }
    try expectEdit(["-insert", "v", "-data", "aGVsbG8="]) { $0 = Self.setting($0, ["v"], .data(Data("hello".utf8))) }
    try expectEdit(["-insert", "v", "-date", "2020-01-06T10:40:00Z"]) { $0 = Self.setting($0, ["v"], .date(Samples.created)) }
    try expectEdit(["-insert", "v", "-json", #"{"a": [1, "x"]}"#]) { $0 = Self.setting($0, ["v"], ["a": [1, "x"]]) }
    try expectEdit(["-insert", "v", "-json", #""fragment""#]) { $0 = Self.setting($0, ["v"], "fragment") }
    try expectEdit(["-insert", "v", "-xml", "<plist><array><integer>7</integer></array></plist>"]) { $0 = Self.setting($0, ["v"], [7]) }
    try expectEdit(["-insert", "v", "-xml", "(a, b)"]) { $0 = Self.setting($0, ["v"], ["a", "b"]) }
    try expectEdit(["-insert", "v", "-array"]) { $0 = Self.setting($0, ["v"], []) }
    try expectEdit(["-insert", "v", "-dictionary"]) { $0 = Self.setting($0, ["v"], [:]) }
  }

  @Test func replace() throws {
    try expectEdit(["-replace", "s", "-integer", "5"]) { $0 = Self.setting($0, ["s"], 5) }
    try expectEdit(["-replace", "missing", "-string", "new"]) { $0 = Self.setting($0, ["missing"], "new") }
    // Unlike the toolchain's port, which inserts, -replace overwrites an array element.
    try expectEdit(["-replace", "arr.0", "-string", "one"]) { $0 = Self.setting($0, ["arr"], ["one", 2, 3]) }
    try expectEdit(["-replace", "arr.3", "-string", "four"]) { $0 = Self.setting($0, ["arr"], [1, 2, 3, "four"]) }
    // -append is accepted and ignored.
    try expectEdit(["-replace", "arr", "-string", "x", "-append"]) { $0 = Self.setting($0, ["arr"], "x") }
  }

  @Test func remove() throws {
    try expectEdit(["-remove", "arr.1"]) { $0 = Self.setting($0, ["arr"], [1, 3]) }
    try expectEdit(["-remove", "d.k"]) { $0 = Self.setting($0, ["d"], [:]) }
    try expectEdit(["-remove", "a\\.b"]) { value in
      var dictionary = value.dictionaryValue!
      dictionary["a.b"] = nil
      value = .dictionary(dictionary)
    }
  }

  @Test func editFailures() throws {
    try expectFailure(["-insert", "s", "-string", "hi"], "f.plist: Value already exists at key path s\n")
    try expectFailure(["-insert", "arr.4", "-string", "hi"], "f.plist: Index 4 out of bounds in array at key path arr.4\n")
    try expectFailure(["-insert", "arr.-1", "-string", "hi"], "f.plist: Index -1 out of bounds in array at key path arr.-1\n")
    try expectFailure(["-insert", "arr.9", "-string", "hi", "-append"], "f.plist: Index 9 out of bounds in array at key path arr.9\n")
    try expectFailure(["-insert", "arr.0", "-string", "hi", "-append"], "f.plist: Attempt to append value to non-array at key path arr.0\n")
    try expectFailure(["-insert", "d", "-string", "hi", "-append"], "f.plist: Appending to a non-array at key path d\n")
    try expectFailure(["-insert", "d.x.y", "-string", "hi"], "f.plist: Key path not found d.x.y\n")
    try expectFailure(["-insert", "s.x", "-string", "hi"], "f.plist: Unable to insert value at key path s.x\n")
    try expectFailure(["-insert", "arr.foo", "-string", "hi"], "f.plist: Unable to index into array with key path arr.foo\n")
    try expectFailure(["-insert", "arr.7.x", "-string", "hi"], "f.plist: Index 7 out of bounds in array at key path arr.7.x\n")
    try expectFailure(["-remove", "nope"], "f.plist: No value to remove at key path nope\n")
    try expectFailure(["-remove", "arr.9"], "f.plist: No value to remove at key path arr.9\n")
    try expectFailure(["-remove", "s.x"], "f.plist: No value to remove at key path s.x\n")
    try expectFailure(["-remove", ""], "f.plist: No value to remove at key path \n")
    try expectFailure(["-remove", "d."], "f.plist: No value to remove at key path d.\n")
  }

  @Test func editedFilesKeepTheirFormat() throws {
    for format in [PropertyListFormat.xml, .binary, .json] {
      let run = plutil("-insert", "added", "-integer", "1", "f", files: ["f": try Samples.bytes(Samples.jsonSafe, format)])
      #expect(run.status == 0, "\(format): \(run.stderr)")
      let written = try #require(run.file("f"))
      let (value, writtenFormat) = try PropertyListValue.decodeWithFormat(Data(written))
      #expect(writtenFormat == format)
      #expect(value == Self.setting(Samples.jsonSafe, ["added"], 1))
    }
  }

  @Test func jsonFilesCannotTakeADate() throws {
    let input = try Samples.bytes(Samples.jsonSafe, .json)
    let run = plutil("-insert", "when", "-date", "2020-01-01T00:00:00Z", "f.json", files: ["f.json": input])
    #expect(run.status == 1)
    #expect(run.stderr == "f.json: Invalid object in plist for JSON format\n")
    #expect(run.file("f.json") == input)
  }

  @Test func outputOptionsApplyToEdits() throws {
    let input = try Samples.bytes(Self.base, .binary)
    let toStandardOutput = plutil("-remove", "arr", "-o", "-", "f.plist", files: ["f.plist": input])
    #expect(toStandardOutput.status == 0)
    #expect(toStandardOutput.file("f.plist") == input)
    #expect(Samples.decode(toStandardOutput.stdoutBytes) == ["d": ["k": "v"], "s": "x", "a.b": ["c": 1]])
    let elsewhere = plutil("-insert", "n", "-integer", "1", "-o", "copy.plist", "f.plist", files: ["f.plist": input])
    #expect(elsewhere.environment.writtenPaths == ["copy.plist"])
  }

  @Test func severalFiles() throws {
    let input = try Samples.bytes(Self.base, .binary)
    let run = plutil("-insert", "arr.3", "-integer", "4", "a", "missing", "b", files: ["a": input, "b": input])
    #expect(run.status == 1)
    #expect(run.environment.writtenPaths == ["a", "b"])
    #expect(run.stderr == "missing: (cannot open the file for reading: No such file or directory)\n")
  }

  @Test(arguments: [
    (["-insert"], "'Insert' and 'Replace' require a key path, a type, and a value.\n"),
    (["-insert", "k"], "'Insert' and 'Replace' require a key path, a type, and a value.\n"),
    (["-replace", "k", "-string"], "'Insert' and 'Replace' require a key path, a type, and a value.\n"),
    (["-insert", "k", "-foo", "x", "f.plist"], "Unknown insert or replace type -foo\n"),
    (["-insert", "k", "-string", "x"], "No files specified.\n"),
    (["-insert", "k", "-data", "!!!", "f.plist"], "Invalid base64 data in argument\n"),
    (["-insert", "k", "-data", "abc", "f.plist"], "Invalid base64 data in argument\n"),
    (["-insert", "k", "-string", "x", "f.plist", "-append"], "unrecognized option: -append\n"),
    (["-remove"], "'Remove' requires a key path.\n"),
    (["-remove", "k"], "No files specified.\n"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = plutil(arguments, files: ["f.plist": try Samples.bytes(Self.base, .binary)])
    #expect(run.status == 1)
    #expect(run.stderr == message)
    #expect(run.environment.writtenPaths.isEmpty)
  }

  @Test(arguments: ["garbage", "2020-01-01T00:00:00", "2020-01-01", "</date><string>x</string><date>", ""])
  func badDates(_ text: String) throws {
    let run = plutil("-insert", "k", "-date", text, "f.plist", files: ["f.plist": try Samples.bytes(Self.base, .binary)])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("Invalid date in argument"))
    #expect(run.environment.writtenPaths.isEmpty)
  }

  @Test func outOfRangeDateFieldsCarryOverAsInApplesReader() throws {
    // Like CoreFoundation (and the toolchain's plutil): month 13 is January of the next year.
    let run = plutil("-insert", "k", "-date", "2020-13-01T00:00:00Z", "-o", "-", "f.plist", files: ["f.plist": try Samples.bytes(Self.base, .binary)])
    #expect(run.status == 0)
    #expect(Samples.decode(run.stdoutBytes)?["k"] == .date(Date(timeIntervalSinceReferenceDate: 631_152_000)))
  }

  @Test func badXMLAndJSONValues() throws {
    let files = ["f.plist": try Samples.bytes(Self.base, .binary)]
    let xml = plutil("-insert", "k", "-xml", "<plist><array>", "f.plist", files: files)
    #expect(xml.status == 1)
    #expect(xml.stderr.hasPrefix("Unable to parse xml property list: XML property list: "))
    let json = plutil("-insert", "k", "-json", "{bad", "f.plist", files: files)
    #expect(json.status == 1)
    #expect(json.stderr.hasPrefix("Unable to parse JSON: JSON: "))
    let two = plutil("-insert", "k", "-json", "1, 2", "f.plist", files: files)
    #expect(two.status == 1)
  }

  /// `value` with `newValue` set at `path` (every component but the last must exist).
  static func setting(_ value: PropertyListValue, _ path: [String], _ newValue: PropertyListValue) -> PropertyListValue {
    var copy = value
    do {
      try copy.replace(newValue, atPath: path)
    } catch {
      Issue.record("cannot build the expected value: \(error)")
    }
    return copy
  }
}

extension PropertyListDictionary {
  fileprivate func inserting(_ key: String, _ value: PropertyListValue) -> PropertyListDictionary {
    var copy = self
    copy[key] = value
    return copy
  }
}
