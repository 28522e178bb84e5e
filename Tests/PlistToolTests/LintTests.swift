import Foundation
import PropertyLists
import Testing

@testable import PlistTool

@Suite("plutil -lint")
struct LintTests {
  @Test func goodFilePrintsOK() throws {
    let run = plutil("-lint", "Info.plist", files: ["Info.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.status == 0)
    #expect(run.stdout == "Info.plist: OK\n")
    #expect(run.stderr == "")
  }

  @Test func lintIsTheDefaultCommand() throws {
    let run = plutil("Info.plist", files: ["Info.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.status == 0)
    #expect(run.stdout == "Info.plist: OK\n")
  }

  @Test func everyFormatButJSONIsAccepted() throws {
    let files = [
      "a.plist": try Samples.bytes(Samples.document, .binary),
      "b.plist": try Samples.bytes(Samples.document, .xml),
      "c.plist": Array("{ key = value; list = (1, 2); }".utf8),
    ]
    let run = plutil("-lint", "a.plist", "b.plist", "c.plist", files: files)
    #expect(run.status == 0)
    #expect(run.stdout == "a.plist: OK\nb.plist: OK\nc.plist: OK\n")
  }

  @Test func jsonIsNotAPropertyList() {
    // Apple's -lint never reads JSON; every other command does.
    let run = plutil("-lint", "a.json", files: ["a.json": Array(#"{"a": 1}"#.utf8)])
    #expect(run.status == 1)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("a.json: ("))
    #expect(run.stderr.hasSuffix(")\n"))
  }

  @Test func oneBadFileFailsTheRunButTheOthersAreChecked() throws {
    let files = [
      "good.plist": try Samples.bytes(Samples.document, .binary),
      "bad.plist": Array("bplist00 but not really".utf8),
    ]
    let run = plutil("-lint", "good.plist", "bad.plist", "good.plist", files: files)
    #expect(run.status == 1)
    #expect(run.stdout == "good.plist: OK\ngood.plist: OK\n")
    #expect(run.stderr.hasPrefix("bad.plist: (binary property list: "))
    #expect(run.stderr.hasSuffix(")\n"))
    #expect(run.stderr.split(separator: "\n").count == 1)
  }

  @Test func missingFile() {
    let run = plutil("-lint", "missing.plist")
    #expect(run.status == 1)
    #expect(run.stderr == "missing.plist: (cannot open the file for reading: No such file or directory)\n")
  }

  @Test func emptyFileIsNotAPropertyList() {
    let run = plutil("-lint", "empty.plist", files: ["empty.plist": []])
    #expect(run.status == 1)
    #expect(run.stderr == "empty.plist: (the input is empty (zero bytes))\n")
  }

  @Test func emptyPath() {
    let run = plutil("-lint", "")
    #expect(run.status == 1)
    #expect(run.stderr == ": Empty path specified\n")
  }

  @Test func silentPrintsNothingOnSuccessButStillReportsErrors() throws {
    let files = ["good.plist": try Samples.bytes(Samples.document, .binary), "bad.plist": Array("(1, 2".utf8)]
    let quiet = plutil("-lint", "-s", "good.plist", files: files)
    #expect(quiet.status == 0)
    #expect(quiet.stdout == "")
    let failing = plutil("-s", "good.plist", "bad.plist", files: files)
    #expect(failing.status == 1)
    #expect(failing.stdout == "")
    #expect(failing.stderr.hasPrefix("bad.plist: ("))
  }

  @Test func standardInputIsNamedStdin() throws {
    let run = plutil("-lint", "-", stdin: try Samples.bytes(Samples.document, .binary))
    #expect(run.status == 0)
    #expect(run.stdout == "<stdin>: OK\n")
    let bad = plutil("-", stdin: Array("bplist00".utf8))
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("<stdin>: ("))
  }

  @Test func readingLimitsApply() throws {
    let environment = MemoryEnvironment(files: ["big.plist": try Samples.bytes(Samples.document, .binary)])
    let tool = PlistTool(environment: environment.host, readingOptions: PropertyListReadingOptions(maximumByteCount: 10))
    #expect(tool.run(["plutil", "-lint", "big.plist"]) == 1)
    #expect(String(decoding: environment.standardError, as: UTF8.self).hasPrefix("big.plist: (file of "))
  }

  @Test(arguments: [
    (["-lint", "-o", "x", "a.plist"], "-o is not used with -lint.\n"),
    (["-lint", "-e", "xml", "a.plist"], "-e is not used with -lint.\n"),
    (["a.plist", "-o", "x"], "-o is not used with -lint.\n"),
    (["-lint"], "No files specified.\n"),
    (["-lint", "-x", "a.plist"], "unrecognized option: -x\n"),
    (["-lint", "-o"], "Missing argument for -o.\n"),
  ])
  func usageErrors(arguments: [String], message: String) {
    let run = plutil(arguments, files: ["a.plist": [0x28, 0x29]])
    #expect(run.status == 1)
    #expect(run.stderr == message)
    #expect(run.stdout == "")
  }

  @Test func doubleDashMakesTheRestFileNames() throws {
    let bytes = try Samples.bytes(Samples.document, .binary)
    let run = plutil("-lint", "--", "-s", "-o", files: ["-s": bytes, "-o": bytes])
    #expect(run.status == 0)
    #expect(run.stdout == "-s: OK\n-o: OK\n")
  }
}
