import Foundation
import PropertyLists
import Testing

@testable import PlistTool

@Suite("plutil -extract and -type")
struct ExtractTests {
  static let document: PropertyListValue = [
    "s": "hello", "i": 42, "neg": -3, "big": .integer(PropertyListInteger(UInt64.max)), "f": 1.5, "tenth": 0.1,
    "t": true, "no": false, "d": .date(Samples.created), "data": .data(Data([0, 1, 0x68, 0x65, 0x6C, 0x6C, 0x6F])),
    "arr": [1, 2, 3], "dict": ["b": 1, "a": 2, "B": 3, "a10": 1, "a9": 2], "dot.key": "dotted",
    "nested": ["x": [["y": "deep"]]], "u": .uid(7), "": "empty key",
  ]

  func run(_ arguments: String...) throws -> ToolRun {
    plutil(arguments, files: ["e.plist": try Samples.bytes(Self.document, .binary)])
  }

  @Test(arguments: [
    ("s", "hello"), ("i", "42"), ("neg", "-3"), ("big", "18446744073709551615"), ("f", "1.500000"),
    ("tenth", "0.100000"), ("t", "true"), ("no", "false"), ("d", "2020-01-06T10:40:00Z"), ("data", "AAFoZWxsbw=="),
    ("arr", "3"), ("dict", "a\na9\na10\nb\nB"), ("dot\\.key", "dotted"), ("nested.x.0.y", "deep"),
  ])
  func raw(keyPath: String, expected: String) throws {
    let run = try run("-extract", keyPath, "raw", "e.plist")
    #expect(run.status == 0)
    #expect(run.stdout == expected + "\n")
    #expect(run.environment.writtenPaths.isEmpty)
    let bare = try self.run("-extract", keyPath, "raw", "-n", "e.plist")
    #expect(bare.stdout == expected)
  }

  @Test func rawToAFileHasNoNewline() throws {
    let run = try run("-extract", "s", "raw", "-o", "out.txt", "e.plist")
    #expect(run.status == 0)
    #expect(run.stdout == "")
    #expect(run.file("out.txt") == Array("hello".utf8))
  }

  @Test func uidsHaveNoRawForm() throws {
    let run = try run("-extract", "u", "raw", "e.plist")
    #expect(run.status == 1)
    #expect(run.stderr == "e.plist: Value at u is a uid type and cannot be extracted in raw format\n")
  }

  @Test(arguments: ["nested.x.5", "nope", "", "s.x", "arr.one", "arr.-1", "nested."])
  func missingValues(keyPath: String) throws {
    let run = try run("-extract", keyPath, "raw", "e.plist")
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr == "e.plist: Could not extract value, error: No value at that key path or invalid key path: \(keyPath)\n")
  }

  @Test func documentFormatsReplaceTheInputUnlessToldOtherwise() throws {
    // Like Apple's plutil: without -o, -extract writes the extracted document over the file.
    let inPlace = try run("-extract", "nested", "xml1", "e.plist")
    #expect(inPlace.status == 0)
    #expect(inPlace.environment.writtenPaths == ["e.plist"])
    #expect(Samples.decode(inPlace.file("e.plist")) == Self.document["nested"])
    let printed = try run("-extract", "dict", "json", "-o", "-", "e.plist")
    #expect(printed.stdoutBytes == (try Samples.bytes(Self.document["dict"]!, .json)))
    let readable = try run("-extract", "dict", "json", "-r", "-o", "-", "e.plist")
    #expect(
      readable.stdoutBytes
        == (try Self.document["dict"]!.encodedBytes(as: .json, options: PropertyListWritingOptions(prettyPrinted: true, sortedKeys: true))))
    let scalar = try run("-extract", "s", "xml1", "-o", "-", "e.plist")
    #expect(scalar.stdoutBytes == (try Samples.bytes("hello", .xml)))
    let binary = try run("-extract", "arr", "binary1", "-o", "-", "e.plist")
    #expect(binary.stdoutBytes == (try Samples.bytes([1, 2, 3], .binary)))
  }

  @Test func jsonCannotHoldAScalar() throws {
    let run = try run("-extract", "s", "json", "-o", "-", "e.plist")
    #expect(run.status == 1)
    #expect(run.stderr == "e.plist: Invalid object in plist for JSON format\n")
  }

  @Test func expect() throws {
    let matching = try run("-extract", "i", "raw", "-expect", "integer", "e.plist")
    #expect(matching.status == 0)
    #expect(matching.stdout == "42\n")
    let mismatched = try run("-extract", "i", "raw", "-expect", "string", "e.plist")
    #expect(mismatched.status == 1)
    #expect(mismatched.stdout == "")
    #expect(mismatched.stderr == "e.plist: Value at [i] expected to be string but is integer\n")
  }

  /// plutil's messages name a Boolean `boolean` (as the toolchain's plutil does, both ways round),
  /// while `-type` prints `bool` and `-expect` takes `bool` only.
  @Test func messagesSayBoolean() throws {
    let notBoolean = try run("-extract", "s", "raw", "-expect", "bool", "e.plist")
    #expect(notBoolean.status == 1)
    #expect(notBoolean.stderr == "e.plist: Value at [s] expected to be boolean but is string\n")
    let boolean = try run("-type", "t", "-expect", "integer", "e.plist")
    #expect(boolean.stderr == "e.plist: Value at [t] expected to be integer but is boolean\n")
    #expect(try run("-type", "t", "e.plist").stdout == "bool\n")
    let refused = try run("-type", "t", "-expect", "boolean", "e.plist")
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("-expect type [boolean] not valid."), "\(refused.stderr)")
  }

  @Test(arguments: [
    ("s", "string"), ("i", "integer"), ("big", "integer"), ("f", "float"), ("t", "bool"), ("d", "date"),
    ("data", "data"), ("arr", "array"), ("dict", "dictionary"), ("u", "uid"),
  ])
  func type(keyPath: String, expected: String) throws {
    let run = try run("-type", keyPath, "e.plist")
    #expect(run.status == 0)
    #expect(run.stdout == expected + "\n")
    #expect(try self.run("-type", keyPath, "-n", "e.plist").stdout == expected)
    #expect(try self.run("-type", keyPath, "-expect", expected, "e.plist").status == 0)
  }

  @Test func typeFailures() throws {
    let missing = try run("-type", "nope", "e.plist")
    #expect(missing.status == 1)
    #expect(missing.stderr == "e.plist: Could not extract value, error: No value at that key path or invalid key path: nope\n")
    let mismatched = try run("-type", "s", "-expect", "integer", "e.plist")
    #expect(mismatched.status == 1)
    #expect(mismatched.stdout == "")
    #expect(mismatched.stderr == "e.plist: Value at [s] expected to be integer but is string\n")
  }

  @Test func typeToAFile() throws {
    let run = try run("-type", "s", "-o", "t.txt", "e.plist")
    #expect(run.file("t.txt") == Array("string".utf8))
  }

  @Test(arguments: [
    (["-extract"], "'Extract' requires a key path and a plist format.\n"),
    (["-extract", "s"], "'Extract' requires a key path and a plist format.\n"),
    (["-extract", "s", "yaml", "e.plist"], "Unknown format specifier: yaml\n"),
    (["-extract", "s", "raw", "-expect"], "-expect requires a type argument.\n"),
    (["-extract", "s", "raw", "-expect", "number", "e.plist"], "-expect type [number] not valid.\n"),
    (["-type"], "'Type' requires a key path.\n"),
    (["-type", "s", "-expect", "str", "e.plist"], "-expect type [str] not valid.\n"),
    (["-type", "s"], "No files specified.\n"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let run = plutil(arguments, files: ["e.plist": try Samples.bytes(Self.document, .binary)])
    #expect(run.status == 1)
    #expect(run.stderr == message)
    #expect(run.stdout == "")
  }
}

@Suite("plutil -create")
struct CreateTests {
  @Test(arguments: [("xml1", PropertyListFormat.xml), ("binary1", .binary), ("json", .json), ("openstep", .openStep)])
  func createsAnEmptyDictionary(name: String, format: PropertyListFormat) throws {
    let run = plutil("-create", name, "new.plist", "-")
    #expect(run.status == 0)
    let expected = try Samples.bytes([:], format)
    #expect(run.file("new.plist") == expected)
    #expect(run.stdoutBytes == expected)
  }

  @Test func readableJSON() throws {
    let run = plutil("-create", "json", "-r", "-")
    #expect(run.stdoutBytes == (try PropertyListValue.dictionary([:]).encodedBytes(as: .json, options: PropertyListWritingOptions(prettyPrinted: true, sortedKeys: true))))
  }

  @Test func createOverwritesAnExistingFile() throws {
    let run = plutil("-create", "binary1", "old.plist", files: ["old.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.status == 0)
    #expect(Samples.decode(run.file("old.plist")) == [:])
  }

  @Test func rawAndTypeAndLiterals() {
    #expect(plutil("-create", "raw", "-").stdout == "\n\n")
    #expect(plutil("-create", "raw", "-n", "-").stdout == "\n")
    #expect(plutil("-create", "swift", "-").stdout == "/// Generated from -\nlet _ : [String : Any] = [:]\n")
    #expect(
      plutil("-create", "objc", "-").stdout
        == "/// Generated from -\n__attribute__((visibility(\"hidden\")))\nNSDictionary * const _ = @{\n};\n")
  }

  @Test func usageErrors() {
    #expect(plutil("-create").stderr == "'Create' requires a plist format.\n")
    #expect(plutil("-create", "xml1").stderr == "No files specified.\n")
    #expect(plutil("-create", "plist", "x").stderr == "Unknown format specifier: plist\n")
  }

  @Test func unwritableDestination() {
    let run = plutil("-create", "xml1", "ro.plist") { $0.unwritablePaths = ["ro.plist"] }
    #expect(run.status == 1)
    #expect(run.stderr == "ro.plist: (cannot create a temporary file: Permission denied)\n")
  }
}

@Suite("plutil -help and the command line")
struct CommandLineTests {
  @Test func helpGoesToStandardOutputAndSucceeds() {
    let run = plutil("-help", "ignored", "arguments")
    #expect(run.status == 0)
    #expect(run.stdout == HelpText.text(programName: "plutil"))
    #expect(run.stdout.hasPrefix("plutil: [command_option] [other_options] file...\n"))
    #expect(run.stderr == "")
  }

  @Test func helpNamesTheProgramAsInvoked() {
    let environment = MemoryEnvironment()
    #expect(PlistTool(environment: environment.host).run(["/usr/local/bin/myplutil", "-help"]) == 0)
    #expect(String(decoding: environment.standardOutput, as: UTF8.self).hasPrefix("myplutil: [command_option]"))
  }

  @Test func noArguments() {
    let environment = MemoryEnvironment()
    #expect(PlistTool(environment: environment.host).run(["plutil"]) == 1)
    #expect(String(decoding: environment.standardError, as: UTF8.self) == "No files specified.\n")
    #expect(PlistTool(environment: environment.host).run([]) == 1)
  }

  @Test func usageErrorsReadNothing() {
    let run = plutil("-p", "-", "-o", "x", stdin: [0x28, 0x29])
    #expect(run.status == 1)
    #expect(run.environment.readStandardInputCount == 0)
  }

  @Test func keyPathSplitting() {
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "a.b.0") == ["a", "b", "0"])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "a\\.b.c") == ["a.b", "c"])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "a\\b") == ["a\\b"], "a backslash before anything but a dot stays")
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "") == [""])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "a.") == ["a", ""])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: ".") == ["", ""])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "\\.") == ["."])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "a\\\\.b") == ["a\\.b"])
    #expect(PropertyListKeyPathSyntax.plutil.components(of: "é.😀") == ["é", "😀"])
  }

  @Test func extensionReplacement() {
    #expect(Options.replacingExtension(of: "a.plist", with: "json") == "a.json")
    #expect(Options.replacingExtension(of: "dir.d/a", with: "json") == "dir.d/a.json")
    #expect(Options.replacingExtension(of: "a.b.c", with: "x") == "a.b.x")
    #expect(Options.replacingExtension(of: "/tmp/.hidden", with: "x") == "/tmp/.hidden.x")
    #expect(Options.stem(of: "/x/My File.plist") == "My File")
    #expect(Literal.variableName("/x/my-file $1+2.plist") == "my_file_12")
  }
}
