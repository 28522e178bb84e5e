import Foundation
import PropertyLists
import Testing

@testable import PlistTool

@Suite("plutil -p")
struct PrintTests {
  static let expectedListing = """
    {
      "blob" => {length = 4, bytes = 0x0001feff}
      "count" => 42
      "created" => 2020-01-06 10:40:00 +0000
      "dot.key" => "dotted"
      "enabled" => true
      "items" => [
        0 => 1
        1 => 2
        2 => 3
      ]
      "name" => "Stasis"
      "nested" => {
        "empty" => {
        }
        "inner" => [
          0 => "a"
          1 => "b"
        ]
      }
      "ratio" => 1.5
      "Zebra" => "capital"
    }

    """

  @Test func printsTheListing() throws {
    let run = plutil("-p", "doc.plist", files: ["doc.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.status == 0)
    #expect(run.stdout == Self.expectedListing)
    #expect(run.stderr == "")
  }

  @Test func severalFilesAndStandardInput() throws {
    let bytes = try Samples.bytes(Samples.document, .binary)
    let run = plutil("-p", "doc.plist", "-", files: ["doc.plist": bytes], stdin: bytes)
    #expect(run.status == 0)
    #expect(run.stdout == Self.expectedListing + Self.expectedListing)
  }

  @Test func printsJSONInput() {
    let run = plutil("-p", "a.json", files: ["a.json": Array(#"{"b": [true, null], "a": 1}"#.utf8)])
    // JSON null has no property-list equivalent.
    #expect(run.status == 1)
    let good = plutil("-p", "a.json", files: ["a.json": Array(#"{"b": [true, "x"], "a": 1}"#.utf8)])
    #expect(good.status == 0)
    #expect(good.stdout == "{\n  \"a\" => 1\n  \"b\" => [\n    0 => true\n    1 => \"x\"\n  ]\n}\n")
  }

  @Test func keyedArchiveUIDsPrintInTheirCFUIDForm() throws {
    let archive: PropertyListValue = [
      "$archiver": "NSKeyedArchiver", "$version": 100_000,
      "$top": ["root": .uid(1)],
      "$objects": ["$null", ["$class": .uid(2), "NS.string": "hi"], ["$classname": "NSString", "$classes": ["NSString", "NSObject"]]],
    ]
    let run = plutil("-p", "a.plist", files: ["a.plist": try Samples.bytes(archive, .binary)])
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        {
          "$archiver" => "NSKeyedArchiver"
          "$objects" => [
            0 => "$null"
            1 => {
              "$class" => {
                "CF$UID" => 2
              }
              "NS.string" => "hi"
            }
            2 => {
              "$classes" => [
                0 => "NSString"
                1 => "NSObject"
              ]
              "$classname" => "NSString"
            }
          ]
          "$top" => {
            "root" => {
              "CF$UID" => 1
            }
          }
          "$version" => 100000
        }

        """)
  }

  @Test func keysSortInPlutilOrder() throws {
    let keys = ["b", "a10", "a9", "B", "_x", "A", "é", "e", "1", "$top"]
    var dictionary = PropertyListDictionary()
    for key in keys { dictionary[key] = 0 }
    let run = plutil("-p", "k.plist", files: ["k.plist": try Samples.bytes(.dictionary(dictionary), .binary)])
    let printed = run.stdout.split(separator: "\n").dropFirst().dropLast().map { $0.split(separator: "\"")[1] }
    #expect(printed == ["_x", "$top", "1", "A", "a9", "a10", "b", "B", "e", "é"].map { Substring($0) })
  }

  @Test func scalarDocuments() throws {
    let top = plutil("-p", "s.plist", files: ["s.plist": try Samples.bytes("just a string", .binary)])
    #expect(top.stdout == "\"just a string\"\n")
  }

  @Test func unreadableFile() {
    let run = plutil("-p", "bad.txt", "missing", files: ["bad.txt": Array("garbage {".utf8)])
    #expect(run.status == 1)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix("bad.txt: Property List error: "))
    #expect(lines[1] == "missing: (cannot open the file for reading: No such file or directory)")
  }

  @Test func silentIsOnlyAWarning() throws {
    let run = plutil("-p", "-s", "doc.plist", files: ["doc.plist": try Samples.bytes(Samples.document, .binary)])
    #expect(run.status == 0)
    #expect(run.stderr == "-s doesn't make a lot of sense with -p.\n")
    #expect(run.stdout == Self.expectedListing)
  }

  @Test(arguments: [
    (["-p", "-o", "x", "a.plist"], "-o is not used with -p.\n"),
    (["-p", "-e", "x", "a.plist"], "-e is not used with -p.\n"),
    (["-p"], "No files specified.\n"),
  ])
  func usageErrors(arguments: [String], message: String) {
    let run = plutil(arguments, files: ["a.plist": [0x28, 0x29]])
    #expect(run.status == 1)
    #expect(run.stderr == message)
    #expect(run.stdout == "")
  }
}
