import Foundation
import PropertyLists
import StasisSystemTesting
import Testing

@testable import PlistTool

@Suite("plutil -convert")
struct ConvertTests {
  @Test(arguments: [("xml1", PropertyListFormat.xml), ("binary1", .binary), ("openstep", .openStep), ("openStep", .openStep)])
  func rewritesTheFileInPlace(name: String, format: PropertyListFormat) throws {
    let value: PropertyListValue = ["key": "value", "list": ["a", "b"], "blob": .data(Data([1, 2, 3]))]
    let run = plutil("-convert", name, "doc.plist", files: ["doc.plist": try Samples.bytes(value, .binary)])
    #expect(run.status == 0)
    #expect(run.stdout == "")
    #expect(run.stderr == "")
    #expect(run.file("doc.plist") == (try Samples.bytes(value, format)))
  }

  @Test func jsonInPlace() throws {
    let run = plutil("-convert", "json", "doc.plist", files: ["doc.plist": try Samples.bytes(Samples.jsonSafe, .binary)])
    #expect(run.status == 0)
    #expect(run.file("doc.plist") == (try Samples.bytes(Samples.jsonSafe, .json)))
  }

  @Test func readableJSONIsIndentedAndSorted() throws {
    let run = plutil("-convert", "json", "-r", "-o", "-", "doc.plist", files: ["doc.plist": try Samples.bytes(Samples.jsonSafe, .binary)])
    #expect(run.status == 0)
    let expected = try Samples.jsonSafe.encodedBytes(as: .json, options: PropertyListWritingOptions(prettyPrinted: true, sortedKeys: true))
    #expect(run.stdoutBytes == expected)
  }

  @Test func outputPathAndStandardOutput() throws {
    let input = try Samples.bytes(Samples.document, .binary)
    let toFile = plutil("-convert", "xml1", "-o", "out/result.xml", "in.plist", files: ["in.plist": input]) { $0.disk.seedFolder("out") }
    #expect(toFile.status == 0)
    #expect(toFile.file("out/result.xml") == (try Samples.bytes(Samples.document, .xml)))
    #expect(toFile.file("in.plist") == input, "the input is untouched")
    let toStandardOutput = plutil("-convert", "binary1", "-o", "-", "in.plist", files: ["in.plist": try Samples.bytes(Samples.document, .xml)])
    #expect(toStandardOutput.status == 0)
    #expect(Samples.decode(toStandardOutput.stdoutBytes) == Samples.document)
    #expect(Array(toStandardOutput.stdoutBytes.prefix(8)) == Array("bplist00".utf8))
    #expect(toStandardOutput.environment.writtenPaths.isEmpty)
  }

  @Test func extensionOption() throws {
    let input = try Samples.bytes(Samples.jsonSafe, .binary)
    let files = ["dir.v2/doc.plist": input, "noext": input, ".hidden": input]
    let run = plutil("-convert", "json", "-e", "json", "dir.v2/doc.plist", "noext", ".hidden", files: files)
    #expect(run.status == 0)
    #expect(run.environment.writtenPaths == ["dir.v2/doc.json", "noext.json", ".hidden.json"])
    #expect(run.file("dir.v2/doc.plist") == input)
  }

  @Test func standardInputGoesToStandardOutput() throws {
    let run = plutil("-convert", "xml1", "-", stdin: try Samples.bytes(Samples.document, .binary))
    #expect(run.status == 0)
    #expect(run.stdoutBytes == (try Samples.bytes(Samples.document, .xml)))
    #expect(run.environment.writtenPaths.isEmpty)
  }

  @Test func jsonInputIsAccepted() throws {
    let run = plutil("-convert", "binary1", "-o", "-", "doc.json", files: ["doc.json": try Samples.bytes(Samples.jsonSafe, .json)])
    #expect(run.status == 0)
    #expect(Samples.decode(run.stdoutBytes) == Samples.jsonSafe)
  }

  @Test(arguments: [
    PropertyListValue.dictionary(["when": .date(Samples.created)]),
    ["blob": .data(Data([1]))],
    ["uid": .uid(3)],
    ["nan": .real(.nan)],
    ["infinity": [.real(-.infinity)]],
    "a top-level string",
    42,
  ])
  func valuesJSONCannotHold(_ value: PropertyListValue) throws {
    let input = try Samples.bytes(value, .binary)
    let run = plutil("-convert", "json", "doc.plist", files: ["doc.plist": input])
    #expect(run.status == 1)
    #expect(run.stderr == "doc.plist: Invalid object in plist for JSON format\n")
    #expect(run.file("doc.plist") == input, "the file is untouched")
    #expect(run.environment.writtenPaths.isEmpty)
  }

  @Test func uidsSurviveXMLAndBinary() throws {
    let archive: PropertyListValue = ["$top": ["root": .uid(1)], "$objects": ["$null", ["$class": .uid(2)]]]
    let run = plutil("-convert", "xml1", "-o", "-", "a.plist", files: ["a.plist": try Samples.bytes(archive, .binary)])
    #expect(run.status == 0)
    #expect(Samples.decode(run.stdoutBytes) == archive)
  }

  @Test func eachFileIsConvertedOnItsOwn() throws {
    let good = try Samples.bytes(Samples.jsonSafe, .binary)
    let run = plutil("-convert", "json", "a.plist", "bad.plist", "b.plist", files: ["a.plist": good, "bad.plist": Array("(".utf8), "b.plist": good])
    #expect(run.status == 1)
    #expect(run.environment.writtenPaths == ["a.plist", "b.plist"])
    #expect(run.stderr.hasPrefix("bad.plist: Property List error: "))
    #expect(run.stderr.contains(" / JSON error: "))
  }

  @Test func unreadableInputNamesBothReaders() {
    let run = plutil("-convert", "xml1", "bad.txt", files: ["bad.txt": Array("garbage {".utf8)])
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("bad.txt: Property List error: OpenStep property list: "))
    #expect(run.stderr.contains(" / JSON error: JSON: "))
    #expect(run.stderr.hasSuffix("\n"))
  }

  @Test func failedWriteIsReportedAndOtherFilesContinue() throws {
    let input = try Samples.bytes(Samples.document, .binary)
    let run = plutil("-convert", "xml1", "locked.plist", "open.plist", files: ["locked.plist": input, "open.plist": input]) {
      $0.unwritablePaths = ["locked.plist"]
    }
    #expect(run.status == 1)
    #expect(run.stderr == "locked.plist: (cannot create a temporary file: Permission denied)\n")
    #expect(run.file("locked.plist") == input)
    #expect(run.file("open.plist") == (try Samples.bytes(Samples.document, .xml)))
  }

  @Test func swiftLiteral() throws {
    let value: PropertyListValue = [
      "name": "Say \"hi\"\n", "count": 3, "ratio": 2.5, "on": true,
      "list": [1, 2], "blob": .data(Data([0, 0xAB])), "when": .date(Date(timeIntervalSinceReferenceDate: 10.5)),
    ]
    let run = plutil("-convert", "swift", "-o", "-", "My-Config file.plist", files: ["My-Config file.plist": try Samples.bytes(value, .binary)])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        /// Generated from My-Config file.plist
        let My_Config_file : [String : Any] = [
            "blob" : Data([0x00, 0xAB]),
            "count" : 3,
            "list" : [
                1,
                2,
            ],
            "name" : "Say \\"hi\\"\\n",
            "on" : true,
            "ratio" : 2.500000,
            "when" : Date(timeIntervalSinceReferenceDate: 10.5),
        ]

        """)
  }

  @Test func swiftLiteralWritesADotSwiftFile() throws {
    let run = plutil("-convert", "swift", "Strings.plist", files: ["Strings.plist": try Samples.bytes(["a": "x", "b": "y"], .binary)])
    #expect(run.status == 0)
    #expect(run.environment.writtenPaths == ["Strings.swift"])
    #expect(String(decoding: run.file("Strings.swift") ?? [], as: UTF8.self) == """
      /// Generated from Strings.plist
      let Strings = [
          "a" : "x",
          "b" : "y",
      ]

      """)
  }

  @Test func objcLiteralWithHeader() throws {
    let value: PropertyListValue = ["b": [true, 1.5], "a": "x"]
    let run = plutil("-convert", "objc", "-header", "Table.plist", files: ["Table.plist": try Samples.bytes(value, .binary)])
    #expect(run.status == 0)
    #expect(run.environment.writtenPaths == ["Table.m", "Table.h"])
    #expect(String(decoding: run.file("Table.m") ?? [], as: UTF8.self) == """
      #import "Table.h"

      /// Generated from Table.plist
      __attribute__((visibility("hidden")))
      NSDictionary * const Table = @{
          @"a" : @"x",
          @"b" : @[
              @YES,
              @1.500000,
          ],
      };

      """)
    #expect(String(decoding: run.file("Table.h") ?? [], as: UTF8.self) == """
      #import <Foundation/Foundation.h>

      /// Generated from Table.plist
      __attribute__((visibility("hidden")))
      extern NSDictionary * const Table;

      """)
  }

  @Test func literalsRejectWhatTheyCannotHold() throws {
    let withDate = try Samples.bytes(["d": .date(Samples.created)], .binary)
    let objc = plutil("-convert", "objc", "-o", "-", "a.plist", files: ["a.plist": withDate])
    #expect(objc.status == 1)
    #expect(objc.stderr == "a.plist: Input contains an object that cannot be represented in Obj-C literal syntax\n")
    let swift = plutil("-convert", "swift", "-o", "-", "a.plist", files: ["a.plist": try Samples.bytes(["u": .uid(1)], .binary)])
    #expect(swift.status == 1)
    #expect(swift.stderr == "a.plist: Input contains an object that cannot be represented in Swift literal syntax\n")
  }

  @Test(arguments: [
    (["-convert"], "Missing format specifier for command.\n"),
    (["-convert", "xml2", "a.plist"], "Unknown format specifier: xml2\n"),
    (["-convert", "xml1"], "No files specified.\n"),
    (["-convert", "xml1", "-header", "a.plist"], "-header is only valid for objc literal conversions.\n"),
    (["-convert", "xml1", "-e"], "Missing argument for -e.\n"),
    (["-convert", "xml1", "--bogus", "a.plist"], "unrecognized option: --bogus\n"),
  ])
  func usageErrors(arguments: [String], message: String) {
    let run = plutil(arguments, files: ["a.plist": [0x28, 0x29]])
    #expect(run.status == 1)
    #expect(run.stderr == message)
    #expect(run.environment.writtenPaths.isEmpty)
  }

  @Test func lastOutputWins() throws {
    let run = plutil(
      "-convert", "xml1", "-o", "first.xml", "-o", "second.xml", "a.plist",
      files: ["a.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.environment.writtenPaths == ["second.xml"])
  }
}
