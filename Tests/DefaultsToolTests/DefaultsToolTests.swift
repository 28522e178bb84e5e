import Defaults
import DefaultsTool
import Foundation
import PropertyLists
import Sandbox
import Testing
import TestSupport

@Suite("defaults read: Apple's description format")
struct ReadFormatTests {
  @Test("A domain prints as NSDictionary's description: 4-space levels, sorted keys, quoting only when needed")
  func domainDescription() {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.app", "name", "Stasis")
    tool.run("write", "com.example.app", "tilesize", "-int", "36")
    tool.run("write", "com.example.app", "autohide-delay", "-float", "0.5")
    tool.run("write", "com.example.app", "autohide", "-bool", "YES")
    tool.run("write", "com.example.app", "offset", "-int", "-1")
    tool.run("write", "com.example.app", "AppleLanguages", "-array", "en-US", "fr")
    tool.run("write", "com.example.app", "blob", "-data", "0102abff")
    tool.run("write", "com.example.app", "when", "-date", "2024-01-02 03:04:05 +0000")
    tool.run("write", "com.example.app", "window frame", "\"10 20 300 400 \"")
    tool.run("write", "com.example.app", "persistent-apps", "({ \"tile-data\" = { \"file-label\" = Safari; }; \"tile-type\" = \"file-tile\"; }, {})")
    tool.run("write", "com.example.app", "empty", "()")
    tool.run("write", "com.example.app", "Fancy", "-string", "caf\u{e9} \"q\"\n")
    let result = tool.run("read", "com.example.app")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        {
            AppleLanguages =     (
                "en-US",
                fr
            );
            Fancy = "caf\\U00e9 \\"q\\"\\n";
            autohide = 1;
            "autohide-delay" = "0.5";
            blob = {length = 4, bytes = 0x0102abff};
            empty =     (
            );
            name = Stasis;
            offset = "-1";
            "persistent-apps" =     (
                        {
                    "tile-data" =             {
                        "file-label" = Safari;
                    };
                    "tile-type" = "file-tile";
                },
                        {
                }
            );
            tilesize = 36;
            when = "2024-01-02 03:04:05 +0000";
            "window frame" = "10 20 300 400 ";
        }

        """)
  }

  @Test("A single key prints its bare description")
  func singleKey() {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.app", "orientation", "left side")
    tool.run("write", "com.example.app", "size", "-int", "48")
    tool.run("write", "com.example.app", "ratio", "-float", "1.25")
    tool.run("write", "com.example.app", "on", "-bool", "false")
    tool.run("write", "com.example.app", "list", "(a, \"b c\")")
    tool.run("write", "com.example.app", "big", "-data", String(repeating: "00112233", count: 10))
    #expect(tool.run("read", "com.example.app", "orientation").stdout == "left side\n")
    #expect(tool.run("read", "com.example.app", "size").stdout == "48\n")
    #expect(tool.run("read", "com.example.app", "ratio").stdout == "1.25\n")
    #expect(tool.run("read", "com.example.app", "on").stdout == "0\n")
    #expect(tool.run("read", "com.example.app", "list").stdout == "(\n    a,\n    \"b c\"\n)\n")
    #expect(
      tool.run("read", "com.example.app", "big").stdout
        == "{length = 40, bytes = 0x00112233 00112233 00112233 00112233 ... 00112233 00112233 }\n")
  }

  @Test("read-type names the type as Apple does")
  func readType() {
    let tool = CapturingEnvironment()
    let rows: [([String], String)] = [
      (["s", "text"], "string"), (["i", "-int", "1"], "integer"), (["f", "-float", "1.5"], "float"),
      (["b", "-bool", "TRUE"], "boolean"), (["d", "-date", "2024-01-02"], "date"), (["x", "-data", "00"], "data"),
      (["a", "-array", "1"], "array"), (["m", "-dict", "k", "v"], "dictionary"),
    ]
    for (write, type) in rows {
      #expect(tool.run(["write", "com.example.app"] + write).status == 0)
      #expect(tool.run("read-type", "com.example.app", write[0]).stdout == "Type is \(type)\n")
    }
  }
}

@Suite("defaults write, rename, delete, domains, find, export, import")
struct CommandTests {
  @Test("Typed values, -array-add, -dict-add, and a whole-domain plist")
  func writes() throws {
    let tool = CapturingEnvironment()
    #expect(tool.run("write", "com.example.app", "list", "-array", "one", "-int", "2").status == 0)
    #expect(tool.run("write", "com.example.app", "list", "-array-add", "three").status == 0)
    #expect(tool.run("write", "com.example.app", "map", "-dict", "a", "1").status == 0)
    #expect(tool.run("write", "com.example.app", "map", "-dict-add", "b", "-bool", "yes").status == 0)
    #expect(tool.run("write", "com.example.app", "plain", "7").status == 0)
    let file = try storedFile(tool, "com.example.app")
    #expect(file["list"] == ["one", 2, "three"])
    #expect(file["map"] == ["a": "1", "b": true])
    #expect(file["plain"] == "7", "an untyped number is a string, as on macOS")

    // Appending to a non-array fails and changes nothing.
    let refused = tool.run("write", "com.example.app", "plain", "-array-add", "x")
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("not an array"))
    #expect(try storedFile(tool, "com.example.app")["plain"] == "7")

    // A whole domain replaces everything.
    #expect(tool.run("write", "com.example.app", "{ fresh = 1; list = (a); }").status == 0)
    #expect(try storedFile(tool, "com.example.app") == ["fresh": "1", "list": ["a"]])
    let notDictionary = tool.run("write", "com.example.app", "(a, b)")
    #expect(notDictionary.status == 1)
    #expect(notDictionary.stderr == tool.header + "Rep argument is not a dictionary\nDefaults have not been changed.\n")
  }

  @Test("The file is a binary plist in the container, readable by Defaults")
  func sharedWithDefaults() throws {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.app", "Volume", "-int", "11")
    let root = ContainerRoot(path: tool.root + "/Containers")
    let path = try root.container(for: "com.example.app").preferencesFilePath
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: Array("bplist00".utf8)))
    let defaults = try UserDefaults(
      bundleIdentifier: "com.example.app", configuration: .init(containerRoot: root, arguments: [], languages: [], flushDelay: nil))
    #expect(defaults.integer(forKey: "Volume") == 11)
  }

  @Test("Missing domains and keys: Apple's messages on stderr, exit 1")
  func missing() {
    let tool = CapturingEnvironment()
    let header = tool.header
    #expect(tool.run("read", "com.example.none") == (1, "", header + "\nDomain com.example.none does not exist\n"))
    tool.run("write", "com.example.app", "k", "v")
    #expect(
      tool.run("read", "com.example.app", "nope")
        == (1, "", header + "\nThe domain/default pair of (com.example.app, nope) does not exist\n"))
    #expect(
      tool.run("read-type", "com.example.app", "nope")
        == (1, "", header + "\nThe domain/default pair of (com.example.app, nope) does not exist\n"))
    #expect(
      tool.run("read", "-g", "nope")
        == (1, "", header + "\nThe domain/default pair of (kCFPreferencesAnyApplication, nope) does not exist\n"))
    #expect(
      tool.run("delete", "com.example.none")
        == (1, "", header + "\nDomain (com.example.none) not found.\nDefaults have not been changed.\n"))
    let usage = tool.run("frobnicate")
    #expect(usage.status == 1)
    #expect(usage.stderr.hasPrefix("Command line interface to a user's defaults."))
  }

  @Test("rename and delete")
  func renameAndDelete() throws {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.app", "old", "-int", "1")
    tool.run("write", "com.example.app", "keep", "x")
    #expect(tool.run("rename", "com.example.app", "old", "new").status == 0)
    #expect(try storedFile(tool, "com.example.app") == ["new": 1, "keep": "x"])
    #expect(tool.run("rename", "com.example.app", "old", "new").status == 1)
    #expect(tool.run("delete", "com.example.app", "new").status == 0)
    #expect(try storedFile(tool, "com.example.app") == ["keep": "x"])
    #expect(tool.run("delete", "com.example.app", "new").status == 1)
    #expect(tool.run("delete", "com.example.app").status == 0)
    #expect(tool.run("read", "com.example.app").status == 1)
  }

  @Test("NSGlobalDomain by all three names")
  func globalDomain() {
    let tool = CapturingEnvironment()
    #expect(tool.run("write", "-g", "AppleLanguages", "(en-US, fr)").status == 0)
    #expect(tool.run("write", "-globalDomain", "KeyRepeat", "-int", "2").status == 0)
    let expected = "{\n    AppleLanguages =     (\n        \"en-US\",\n        fr\n    );\n    KeyRepeat = 2;\n}\n"
    #expect(tool.run("read", "NSGlobalDomain").stdout == expected)
    #expect(FileManager.default.fileExists(atPath: tool.root + "/Containers/.GlobalPreferences/.GlobalPreferences.plist"))
  }

  @Test("A domain given as a path, with or without .plist")
  func pathDomain() throws {
    let tool = CapturingEnvironment()
    try FileManager.default.createDirectory(atPath: tool.root + "/Loose", withIntermediateDirectories: true)
    #expect(tool.run("write", tool.root + "/Loose/settings", "k", "v").status == 0)
    #expect(FileManager.default.fileExists(atPath: tool.root + "/Loose/settings.plist"))
    #expect(tool.run("read", tool.root + "/Loose/settings.plist", "k").stdout == "v\n")
    #expect(tool.run("read", "Loose/settings", "k").status == 1, "a relative path domain is refused")
    let missing = tool.run("read", tool.root + "/Loose/none")
    #expect(missing.stderr == tool.header + "\nDomain \(tool.root)/Loose/none does not exist\n")
  }

  @Test("domains lists the domains with a preferences file; find searches keys and values")
  func domainsAndFind() {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.b", "Color", "blue")
    tool.run("write", "com.example.a", "Size", "-int", "3")
    tool.run("write", "com.example.a", "Name", "Blue Bird")
    tool.run("write", "-g", "Other", "x")
    #expect(tool.run("domains").stdout == "com.example.a, com.example.b\n")
    let found = tool.run("find", "blue")
    #expect(
      found.stdout == """
        Found 1 keys in domain 'com.example.a': {
            Name = "Blue Bird";
        }
        Found 1 keys in domain 'com.example.b': {
            Color = blue;
        }

        """)
    #expect(tool.run("find", "zebra").stdout == "No domain, key, nor value containing 'zebra'\n")
  }

  @Test("export and import a whole domain through files and standard streams")
  func exportImport() throws {
    let tool = CapturingEnvironment()
    tool.run("write", "com.example.app", "k", "-int", "5")
    let exported = tool.run("export", "com.example.app", "-")
    #expect(exported.status == 0)
    #expect(try PropertyListValue(decoding: Array(exported.stdout.utf8)) == ["k": 5])
    #expect(exported.stdout.hasPrefix("<?xml"))
    #expect(tool.run("export", "com.example.app", "copy.plist").status == 0)
    #expect(tool.run("import", "com.example.other", "copy.plist").status == 0)
    #expect(try storedFile(tool, "com.example.other") == ["k": 5])
    tool.input = Array("{ fromStdin = yes; }".utf8)
    #expect(tool.run("import", "com.example.third", "-").status == 0)
    #expect(try storedFile(tool, "com.example.third") == ["fromStdin": "yes"])
    tool.input = Array("(not, a, dictionary)".utf8)
    #expect(tool.run("import", "com.example.third", "-").status == 1)
    #expect(try storedFile(tool, "com.example.third") == ["fromStdin": "yes"])
  }

  private func storedFile(_ tool: CapturingEnvironment, _ identifier: String) throws -> PropertyListDictionary {
    let root = ContainerRoot(path: tool.root + "/Containers")
    let data = try Data(contentsOf: URL(fileURLWithPath: try root.container(for: identifier).preferencesFilePath))
    guard case .dictionary(let dictionary) = try PropertyListValue(decoding: data) else { return [:] }
    return dictionary
  }
}

@Suite("The built defaults executable")
struct ExecutableTests {
  @Test("write then read through the executable, with $STASIS_CONTAINERS_ROOT", .enabled(if: BuiltDefaults.path != nil))
  func endToEnd() throws {
    let scratch = try ScratchFolder("defaults-exe")
    defer { scratch.remove() }
    let root = scratch.path
    #expect(try BuiltDefaults.run(["write", "com.example.exe", "Greeting", "-string", "hello world"], root: root).status == 0)
    let read = try BuiltDefaults.run(["read", "com.example.exe"], root: root)
    #expect(read.status == 0)
    #expect(read.stdout == "{\n    Greeting = \"hello world\";\n}\n")
    let missing = try BuiltDefaults.run(["read", "com.example.exe", "Nope"], root: root)
    #expect(missing.status == 1)
    #expect(missing.stdout == "")
    // `2026-01-02 03:04:05.678 defaults[123:456] ` then the message on its own line.
    let lines = missing.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3)
    #expect(lines.first?.contains(" defaults[") == true && lines.first?.hasSuffix("] ") == true)
    #expect(lines.dropFirst().first == "The domain/default pair of (com.example.exe, Nope) does not exist")
    let imported = try BuiltDefaults.run(["import", "com.example.exe", "-"], root: root, input: Data("{ a = b; }".utf8))
    #expect(imported.status == 0)
    #expect(try BuiltDefaults.run(["read", "com.example.exe", "a"], root: root).stdout == "b\n")
  }
}

@Suite("defaults -app")
struct ApplicationNameTests {
  @Test("-app <Name> finds the container holding <Name>.app")
  func byName() throws {
    let tool = CapturingEnvironment()
    let root = ContainerRoot(path: tool.root + "/Containers")
    _ = try root.container(for: "com.example.notes", appName: "Notes")
    #expect(tool.run("write", "-app", "Notes", "Font", "Menlo").status == 0)
    #expect(tool.run("read", "com.example.notes", "Font").stdout == "Menlo\n")
    #expect(tool.run("read", "-app", "Notes.app", "Font").stdout == "Menlo\n")
    let missing = tool.run("read", "-app", "Nowhere")
    #expect(missing.status == 1)
    #expect(missing.stderr == tool.header + "Couldn't find an application named \"Nowhere\"; defaults unchanged\n")
  }
}
