// The code of Sources/PropertyLists/PropertyLists.docc/Articles/GettingStarted.md, compiled and run.
//
// Each region between `// snippet: <name>` and `// end-snippet` appears verbatim (less its
// indentation) as a ```swift block in that article; SnippetSyncTests checks that the two agree.
// This file imports only what the article's reader imports, so the snippets compile exactly as
// they would in an app that does `import PropertyLists`.
import PropertyLists
import Testing

@Suite("PropertyLists: Getting Started")
struct PropertyListsGettingStartedTests {
  @Test("Build a value and encode it")
  func buildAndEncode() throws {
    // snippet: plist-build
    let settings: PropertyListValue = [
      "Name": "Stasis",
      "Volume": 0.5,
      "Recent": ["a.txt", "b.txt"],
    ]
    let binary = try settings.encoded(as: .binary)   // bplist00, laid out as CoreFoundation does
    let xml = try settings.encoded(as: .xml)         // Apple's DTD, tabs, keys sorted
    // end-snippet
    #expect(Array(binary.prefix(8)) == Array("bplist00".utf8))
    #expect(Array(xml.prefix(5)) == Array("<?xml".utf8))
    #expect(try PropertyListValue(decoding: binary) == settings)
  }

  @Test("Read bytes in any format")
  func read() throws {
    let settings: PropertyListValue = ["Name": "Stasis", "Volume": 0.5, "Recent": ["a.txt", "b.txt"]]
    let xml = try settings.encoded(as: .xml)
    // snippet: plist-read
    let (value, format) = try PropertyListValue.decodeWithFormat(xml)   // format == .xml
    let name = value["Name"]?.stringValue                   // "Stasis"
    let volume = value["Volume"]?.doubleValue               // 0.5
    let second = value.value(atKeyPath: "Recent.1")         // .string("b.txt")
    // end-snippet
    #expect(format == .xml)
    #expect(name == "Stasis")
    #expect(volume == 0.5)
    #expect(second == PropertyListValue.string("b.txt"))
  }

  @Test("Edit at key paths")
  func edit() throws {
    var settings: PropertyListValue = ["Name": "Stasis", "Volume": 0.5, "Recent": ["a.txt", "b.txt"]]
    // snippet: plist-edit
    try settings.insert("c.txt", atKeyPath: "Recent", appending: true)   // plutil -insert … -append
    try settings.replace(0.8, atKeyPath: "Volume")                       // plutil -replace
    let removed = try settings.removeValue(atKeyPath: "Name")            // plutil -remove
    // end-snippet
    #expect(removed == PropertyListValue.string("Stasis"))
    let expected: PropertyListValue = ["Volume": 0.8, "Recent": ["a.txt", "b.txt", "c.txt"]]
    #expect(settings == expected)
  }

  @Test("Files")
  func files() throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    let path = folder.path + "/Settings.plist"
    let settings: PropertyListValue = ["Name": "Stasis", "Volume": 0.5, "Recent": ["a.txt", "b.txt"]]
    // snippet: plist-files
    try settings.write(toFile: path, format: .binary)   // atomic: the old file survives any failure
    let (reread, detected) = try PropertyListValue.read(contentsOfFile: path)   // detected == .binary
    // end-snippet
    #expect(reread == settings)
    #expect(detected == .binary)
  }

  @Test("Other formats")
  func otherFormats() throws {
    // snippet: plist-other-formats
    let strings: PropertyListValue = ["Greeting": "Hello", "Farewell": "Goodbye"]
    let table = try strings.encodedBytes(as: .strings)   // "Greeting" = "Hello"; …
    let json = try strings.encodedBytes(as: .json, options: .init(prettyPrinted: true, sortedKeys: true))
    let openStep = try PropertyListValue(decoding: Array("{ Greeting = Hello; }".utf8))
    // end-snippet
    #expect(String(decoding: table, as: UTF8.self) == "\"Greeting\" = \"Hello\";\n\"Farewell\" = \"Goodbye\";\n")
    #expect(String(decoding: json, as: UTF8.self) == "{\n  \"Farewell\" : \"Goodbye\",\n  \"Greeting\" : \"Hello\"\n}")
    let expected: PropertyListValue = ["Greeting": "Hello"]
    #expect(openStep == expected)
  }

  @Test("Errors")
  func errors() throws {
    // snippet: plist-errors
    let damaged = Array("<plist><dict><key>Name</key></dict></plist>".utf8)
    do {
      _ = try PropertyListValue(decoding: damaged)
    } catch {
      // `error` is a PropertyListError (typed throws): match on its code, show its description.
      let code = error.code                 // PropertyListError.Code.unexpectedInput
      let message = error.description       // names the format, the line and what was expected
      print(code, message)
    }
    // end-snippet
    let error = try #require(throws: PropertyListError.self) { try PropertyListValue(decoding: damaged) }
    #expect(error.code == .unexpectedInput)
    #expect(error.format == .xml)
  }

  @Test("Codable")
  func codable() throws {
    // snippet: plist-codable
    struct Library: Codable, Equatable {
      var name: String
      var books: [Book]
      struct Book: Codable, Equatable {
        var title: String
        var year: Int
        var rating: Double?
      }
    }
    let library = Library(name: "Home", books: [.init(title: "Dune", year: 1965, rating: nil)])
    let encoder = PropertyListEncoder()
    encoder.outputFormat = .xml                  // .binary by default, as in Foundation
    let data = try encoder.encode(library)
    let copy = try PropertyListDecoder().decode(Library.self, from: data)
    // end-snippet
    #expect(copy == library)
    let title = try PropertyListValue(decoding: data).value(atKeyPath: "books.0.title")
    #expect(title == PropertyListValue.string("Dune"))
  }

  // Swift 6.3.1's compiler crashes (signal 11 in the mandatory SIL passes) on a `do` whose
  // `catch` is a pattern, around a typed-throws call that reads a `var` local, which is why the
  // limits are built with `let` here. (Reported in the issue-12 notes; `catch` with a `where`
  // clause crashes the same way.)
  @Test("Reading limits")
  func limits() throws {
    let nested: PropertyListValue = ["a": [["b": 1]]]
    let untrusted = try nested.encodedBytes(as: .binary)
    // snippet: plist-limits
    // The defaults: depth 512, 16,777,216 objects, 1 GiB.
    let limits = PropertyListReadingOptions(maximumDepth: 2, maximumByteCount: 64 << 10)
    do {
      _ = try PropertyListValue(decoding: untrusted, options: limits)
    } catch PropertyListError.Code.tooDeep {
      // nested deeper than two containers
    }
    // end-snippet
    try Self.expectTooDeep(untrusted, limits)
  }

  /// The check of `limits()`, in a function of its own: with the closure of `#require` in the
  /// same function as the snippet's `do`/`catch` pattern, Swift 6.3.1 crashes too
  /// (ClosureLifetimeFixup).
  static func expectTooDeep(_ untrusted: [UInt8], _ limits: PropertyListReadingOptions) throws {
    let error = try #require(throws: PropertyListError.self) { try PropertyListValue(decoding: untrusted, options: limits) }
    #expect(error.code == .tooDeep)
  }
}
