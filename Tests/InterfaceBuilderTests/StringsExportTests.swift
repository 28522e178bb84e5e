import Foundation
import InterfaceBuilder
import PropertyLists
import TestSupport
import Testing

/// `ibtool --export-strings-file` and `--import-strings-file`: the keys, values, comments and
/// bytes of Apple's files, and export → import → export round trips over the whole corpus.
@Suite struct StringsExportTests {
  static let documents = Corpus.files(in: "xib").filter { $0.pathExtension == "xib" || $0.pathExtension == "storyboard" }
  static let kraftstoff = Corpus.file("xib/kraftstoff/MainStoryboard.storyboard")
  /// Kraftstoff's MainStoryboard.strings files (made by Xcode from the Base storyboard, then
  /// translated). There is no Base or English one; the French and Japanese have every key of an
  /// export made before three strings were added to the storyboard (see `kraftstoffAddedLater`).
  static func appleStrings(_ language: String) -> CorpusFile { Corpus.file("strings/kraftstoff/\(language).lproj/MainStoryboard.strings") }
  /// Strings of the corpus storyboard newer than its translations: the "Chart" bar button item
  /// and the accessibility labels of two SF Symbol buttons, all added in the iOS 13 update.
  static let kraftstoffAddedLater: Set<String> = ["6lO-V7-YIT.title", "NRn-ON-A3B.accessibilityLabel", "cfh-Xy-CBf.accessibilityLabel"]

  /// One entry of an Apple strings file: its comment's fields and its key and value.
  struct AppleEntry: Equatable {
    var className, property, originalValue, objectID, key, value: String
  }

  /// Reads Apple's `/* Class = "…"; p = "…"; ObjectID = "…"; */` + `"k" = "v";` pairs.
  static func appleEntries(_ text: String) throws -> [AppleEntry] {
    let pattern = #"/\* Class = "([^"]*)"; (\S+) = "((?:[^"\\]|\\.)*)"; ObjectID = "([^"]*)"; \*/\n"([^"]*)" = "((?:[^"\\]|\\.)*)";"#
    let regex = try NSRegularExpression(pattern: pattern)
    let text = text as NSString
    return regex.matches(in: text as String, range: NSRange(location: 0, length: text.length)).map { match in
      let field = { (index: Int) in text.substring(with: match.range(at: index)) }
      return AppleEntry(className: field(1), property: field(2), originalValue: field(3), objectID: field(4), key: field(5), value: field(6))
    }
  }

  // MARK: (a) Kraftstoff against Apple's files

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: ["fr", "ja", "de"])
  func kraftstoffMatchesApplesKeysClassesAndValues(_ language: String) throws {
    let export = StringsExport(try InterfaceDocument(contentsOfFile: Self.kraftstoff.path))
    let apple = try Self.appleEntries(String(decoding: try Self.appleStrings(language).bytes(), as: UTF8.self))
    let ours = Dictionary(uniqueKeysWithValues: export.entries.map { ($0.key, $0) })
    #expect(apple.count == (language == "de" ? 18 : 28))
    for entry in apple {
      let mine = try #require(ours[entry.key], "\(entry.key) is in Apple's \(language) file but not exported")
      #expect(mine.className == entry.className || language == "de", "\(entry.key)")
      #expect(mine.property == entry.property && mine.objectID == entry.objectID, "\(entry.key)")
      #expect(StringsExportTests.unescaped(entry.originalValue) == mine.value, "\(entry.key): Apple's comment holds the Base value")
    }
    if language != "de" {  // the German file is older still: 10 buttons and labels were added after it
      #expect(Set(ours.keys).subtracting(apple.map(\.key)) == Self.kraftstoffAddedLater)
    }
  }

  /// Sparkle's English strings for two macOS xibs (kept by hand since Xcode made them): the same
  /// keys, classes and values, multi-line `\n` included, but for one text field whose ID Xcode
  /// changed in the xib after the strings were made ("179" there, "cfa-j0-Ya4" now).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: ["SUUpdateAlert", "SUUpdatePermissionPrompt"])
  func sparkleMatchesItsStrings(_ name: String) throws {
    let export = StringsExport(try InterfaceDocument(contentsOfFile: Corpus.file("xib/sparkle/\(name).xib").path))
    let apple = try Self.appleEntries(String(decoding: try Corpus.file("strings/sparkle/en.lproj/\(name).strings").bytes(), as: UTF8.self))
    let ours = export.entries.filter { $0.objectID != "cfa-j0-Ya4" }
      .map { AppleEntry(className: $0.className, property: $0.property, originalValue: $0.value, objectID: $0.objectID, key: $0.key, value: $0.value) }
    let theirs = apple.filter { $0.key != "179.title" }
      .map { AppleEntry(className: $0.className, property: $0.property, originalValue: Self.unescaped($0.originalValue), objectID: $0.key.components(separatedBy: ".")[0], key: $0.key, value: Self.unescaped($0.value)) }
    #expect(ours.sorted { $0.key < $1.key } == theirs.sorted { $0.key < $1.key })
  }

  /// The French file, less the two entries Xcode appended out of order when it last merged,
  /// is byte for byte our export of its keys with its translations (UTF-8, as Xcode keeps it).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func kraftstoffFrenchFileHasOurLayout() throws {
    var export = StringsExport(try InterfaceDocument(contentsOfFile: Self.kraftstoff.path))
    let appleBytes = try Self.appleStrings("fr").bytes()
    let apple = try Self.appleEntries(String(decoding: appleBytes, as: UTF8.self))
    let sortedPart = apple.prefix { $0.key != "sMv-0l-PzQ.title" }
    #expect(sortedPart.count == 26)
    export.entries.removeAll { entry in !sortedPart.contains { $0.key == entry.key } }
    let translations = Dictionary(uniqueKeysWithValues: apple.map { ($0.key, Self.unescaped($0.value)) })
    let ours = export.bytes(encoding: .utf8, translations: translations)
    let applePrefix = Array(String(decoding: appleBytes, as: UTF8.self).components(separatedBy: "\n/* Class = \"UINavigationItem\"; title = \"Cars\"")[0].utf8)
    #expect(ours == applePrefix)
  }

  /// The export is UTF-16 little-endian after a BOM, like the Apple-written Localizable.strings
  /// beside it; with no entries it is the single newline of Kraftstoff's LaunchScreen.strings.
  /// (That storyboard's two tab bar items are titled " "; the file has no entry for them, which
  /// may be Xcode leaving launch screens unlocalized or ibtool skipping blank titles: unknown.)
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func encodingAndEmptyExport() throws {
    let launch = StringsExport(try InterfaceDocument(bytes: Array(Self.xib(#"<customObject id="-2" userLabel="File's Owner"/>"#).utf8)))
    #expect(launch.entries.isEmpty)
    #expect(launch.bytes(encoding: .utf8) == (try Corpus.file("strings/kraftstoff/ja.lproj/LaunchScreen.strings").bytes()))
    #expect(launch.bytes() == [0xFF, 0xFE, 0x0A, 0x00])
    let localizable = try Corpus.file("strings/kraftstoff/en.lproj/Localizable.strings").bytes()
    #expect(localizable.prefix(2) == [0xFF, 0xFE])
    let export = StringsExport(try InterfaceDocument(contentsOfFile: Self.kraftstoff.path))
    let utf16 = export.bytes()
    #expect(utf16.prefix(4) == [0xFF, 0xFE, 0x0A, 0x00])
    #expect(String(decoding: stride(from: 2, to: utf16.count, by: 2).map { UInt16(utf16[$0]) | UInt16(utf16[$0 + 1]) << 8 }, as: UTF16.self) == export.text())
  }

  // MARK: (b) every corpus document exports

  @Test func theCorpusHasItsDocuments() throws {
    try #require(Corpus.isAvailable, Corpus.missingReason)
    #expect(Self.documents.count >= 190)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: documents)
  func exports(_ file: CorpusFile) throws {
    let export = StringsExport(try InterfaceDocument(contentsOfFile: file.path))
    #expect(Set(export.entries.map(\.key)).count == export.entries.count)
    #expect(export.entries.map(\.key) == export.entries.map(\.key).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    // What we write, the strings reader reads back as the same table.
    let table = try StringsImport.readTable(bytes: export.bytes(), path: file.name)
    #expect(table == Dictionary(uniqueKeysWithValues: export.entries.map { ($0.key, $0.value) }))
  }

  // MARK: (c) round trips

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: documents)
  func roundTrips(_ file: CorpusFile) throws {
    let bytes = try file.bytes()
    let export = StringsExport(try InterfaceDocument(bytes: bytes, path: file.name))
    // The same table changes nothing (every value is written back as it was read).
    let same = try StringsImport.localize(bytes, table: Dictionary(uniqueKeysWithValues: export.entries.map { ($0.key, $0.value) }), path: file.name)
    #expect(same.warnings.isEmpty)
    #expect(StringsExport(try InterfaceDocument(bytes: same.bytes, path: file.name)).entries.map(\.value) == export.entries.map(\.value))
    // Every value marked: the export of the result is the marked table, and only the values changed.
    let marked = Dictionary(uniqueKeysWithValues: export.entries.map { ($0.key, "«\($0.value)»") })
    let result = try StringsImport.localize(bytes, table: marked, path: file.name)
    #expect(result.warnings.isEmpty)
    let again = StringsExport(try InterfaceDocument(bytes: result.bytes, path: file.name))
    #expect(again.entries.map(\.key) == export.entries.map(\.key))
    #expect(Dictionary(uniqueKeysWithValues: again.entries.map { ($0.key, $0.value) }) == marked)
    let removed = String(decoding: result.bytes, as: UTF8.self).replacingOccurrences(of: "«", with: "").replacingOccurrences(of: "»", with: "")
    #expect(removed == String(decoding: bytes, as: UTF8.self), "only the marked values changed")
  }

  // MARK: (d) import of Apple's translations

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: ["de", "fr", "ja"])
  func importsKraftstoffTranslations(_ language: String) throws {
    let folder = try ScratchFolder("strings-import")
    defer { folder.remove() }
    let strings = Self.appleStrings(language)
    let warnings = try StringsImport.importStrings(fromFile: strings.path, document: Self.kraftstoff.path, writeTo: folder.file("Main.storyboard"))
    #expect(warnings.isEmpty)
    let localized = StringsExport(try InterfaceDocument(contentsOfFile: folder.file("Main.storyboard")))
    let apple = try StringsImport.readTable(contentsOfFile: strings.path)
    for (key, value) in apple { #expect(localized.entries.first { $0.key == key }?.value == value, "\(key)") }
    if language == "de" { #expect(localized.entries.first { $0.key == "9ok-pF-7av.title" }?.value == "Tanken") }
  }

  @Test func unknownKeysAreWarnings() throws {
    let text = Self.xib(#"<window title="Hello" id="1"><view key="contentView" id="2"/></window>"#)
    let result = try StringsImport.localize(Array(text.utf8), table: ["1.title": "Hallo", "1.subtitle": "x", "9.title": "y", "junk": "z"])
    #expect(result.warnings.map(\.key) == ["1.subtitle", "9.title", "junk"])
    #expect(result.warnings[0].reason.contains("no such localizable property"))
    #expect(result.warnings[1].reason.contains("no object \"9\""))
    #expect(String(decoding: result.bytes, as: UTF8.self) == text.replacingOccurrences(of: "Hello", with: "Hallo"))
  }

  // MARK: (e) escaping

  @Test func escapingThroughExportAndImport() throws {
    let awkward = "say \"hi\" \\ path\nnext line\ttab & <tag> 'q' 😀 𝄞"
    let text = Self.xib("""
      <menu title="Menu" id="m"><items><menuItem title="Plain" id="i"/></items></menu>
      <textField id="t"><textFieldCell key="cell" id="c"><string key="title">two
      lines &amp; more</string></textFieldCell></textField>
      """)
    let bytes = Array(text.utf8)
    let export = StringsExport(try InterfaceDocument(bytes: bytes))
    #expect(export.entries.map(\.key) == ["c.title", "i.title", "m.title"])
    #expect(export.entries[0].value == "two\nlines & more")
    #expect(export.text().contains(#""c.title" = "two\nlines & more";"#))
    #expect(export.text().contains(#"/* Class = "NSTextFieldCell"; title = "two\nlines & more"; ObjectID = "c"; */"#))

    let table = ["i.title": awkward, "c.title": awkward, "m.title": "Ünïcode"]
    let result = try StringsImport.localize(bytes, table: table)
    let source = String(decoding: result.bytes, as: UTF8.self)
    #expect(source.contains(#"title="say &quot;hi&quot; \ path&#10;next line&#9;tab &amp; &lt;tag&gt; 'q' 😀 𝄞""#))
    #expect(source.contains("<string key=\"title\">say \"hi\" \\ path\nnext line\ttab &amp; &lt;tag&gt; 'q' 😀 𝄞</string>"))
    let again = StringsExport(try InterfaceDocument(bytes: result.bytes))
    #expect(Dictionary(uniqueKeysWithValues: again.entries.map { ($0.key, $0.value) }) == table)

    // Through the file: the strings text escapes `"`, `\`, newline and tab; UTF-16 holds the
    // non-BMP characters as surrogate pairs; reading it back gives the same values.
    let file = again.bytes()
    let utf16 = stride(from: 2, to: file.count, by: 2).map { UInt16(file[$0]) | UInt16(file[$0 + 1]) << 8 }
    #expect(utf16.contains(0xD83D) && utf16.contains(0xDE00))
    #expect(again.text().contains(#""i.title" = "say \"hi\" \\ path\nnext line\ttab & <tag> 'q' 😀 𝄞";"#))
    #expect(try StringsImport.readTable(bytes: file) == table)
  }

  @Test func aSelfClosingStringElementGetsItsValue() throws {
    let text = Self.xib(#"<textField id="t"><textFieldCell key="cell" id="c"><string key="title"/></textFieldCell></textField>"#)
    let result = try StringsImport.localize(Array(text.utf8), table: ["c.title": "Name:"])
    #expect(String(decoding: result.bytes, as: UTF8.self).contains(#"<string key="title">Name:</string>"#))
  }

  @Test func aValueXMLCannotHoldIsAWarning() throws {
    let text = Self.xib(#"<window title="Hello" id="1"/>"#)
    let result = try StringsImport.localize(Array(text.utf8), table: ["1.title": "bell \u{7}"])
    #expect(result.warnings.map(\.key) == ["1.title"])
    #expect(result.bytes == Array(text.utf8))
  }

  @Test func iOSPropertiesAndClassNames() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
          <scenes><scene sceneID="s"><objects>
              <viewController title="Settings" id="vc" customClass="MyController">
                  <view key="view" id="v"><subviews>
                      <segmentedControl id="seg"><segments><segment title="One"/><segment title="Two"/></segments></segmentedControl>
                      <button id="b"><state key="normal" title="Go"/><state key="highlighted" title="Going"/></button>
                      <textField placeholder="Email" text="a@b" id="tf"/>
                      <searchBar placeholder="Find" id="sb"><scopeButtonTitles><string>All</string><string>Some</string></scopeButtonTitles></searchBar>
                      <textView id="tv"><string key="text">Long text</string><accessibility key="accessibilityConfiguration" label="Notes" hint="Type here"/></textView>
                  </subviews></view>
                  <navigationItem key="navigationItem" title="Nav" prompt="P" id="n"/>
              </viewController>
          </objects></scene></scenes>
      </document>
      """
    let export = StringsExport(try InterfaceDocument(bytes: Array(text.utf8)))
    let rows = export.entries.map { "\($0.className) \($0.key) = \($0.value)" }
    #expect(rows == [
      "UIButton b.highlightedTitle = Going", "UIButton b.normalTitle = Go", "UINavigationItem n.prompt = P", "UINavigationItem n.title = Nav",
      "UISearchBar sb.placeholder = Find", "UISearchBar sb.scopeButtonTitles[0] = All", "UISearchBar sb.scopeButtonTitles[1] = Some",
      "UISegmentedControl seg.segmentTitles[0] = One", "UISegmentedControl seg.segmentTitles[1] = Two",
      "UITextField tf.placeholder = Email", "UITextField tf.text = a@b",
      "UITextView tv.accessibilityHint = Type here", "UITextView tv.accessibilityLabel = Notes", "UITextView tv.text = Long text",
      "UIViewController vc.title = Settings",
    ])
  }

  @Test func macOSPropertiesAndClassNames() throws {
    let text = Self.xib("""
      <window title="Prefs" id="w"><view key="contentView" id="cv"><subviews>
          <button toolTip="Press" id="btn"><buttonCell key="cell" title="OK" alternateTitle="Alt" id="bc"/></button>
          <box title="Group" id="box"/>
          <segmentedControl id="sc"><segmentedCell key="cell" id="scc"><segments><segment label="A"/><segment label="B"/></segments></segmentedCell></segmentedControl>
          <tableView id="tbl"><tableColumns><tableColumn id="col"><tableHeaderCell key="headerCell" title="Name"/></tableColumn></tableColumns></tableView>
          <searchField id="sf"><searchFieldCell key="cell" placeholderString="Search" id="sfc"/></searchField>
          <customView id="cu"><string key="toolTip">Tip</string></customView>
      </subviews></view></window>
      <toolbar id="tb"><allowedToolbarItems><toolbarItem label="Add" paletteLabel="Add Item" id="ti"/></allowedToolbarItems></toolbar>
      """)
    let export = StringsExport(try InterfaceDocument(bytes: Array(text.utf8)))
    let rows = export.entries.map { "\($0.className) \($0.key) = \($0.value)" }
    #expect(rows == [
      "NSButtonCell bc.alternateTitle = Alt", "NSButtonCell bc.title = OK", "NSBox box.title = Group", "NSButton btn.ibShadowedToolTip = Press",
      "NSTableColumn col.headerCell.title = Name", "NSView cu.ibShadowedToolTip = Tip",
      "NSSegmentedCell scc.ibShadowedLabels[0] = A", "NSSegmentedCell scc.ibShadowedLabels[1] = B",
      "NSSearchFieldCell sfc.placeholderString = Search", "NSToolbarItem ti.label = Add", "NSToolbarItem ti.paletteLabel = Add Item",
      "NSWindow w.title = Prefs",
    ])
  }

  // MARK: (f) bad strings files

  @Test func anInvalidStringsFileNamesTheFileAndLine() throws {
    let folder = try ScratchFolder("strings-bad")
    defer { folder.remove() }
    try folder.write(Array("\"a.title\" = \"A\";\n\n\"b.title\" = \"B\"\n\"c.title\" = \"C\";\n".utf8), to: "bad.strings")
    let error = expectError(InterfaceBuilderError.self, .invalidStrings) { try StringsImport.readTable(contentsOfFile: folder.file("bad.strings")) }
    #expect(error?.path == folder.file("bad.strings"))
    #expect(error?.line == 4)
    #expect(error?.description.hasPrefix(folder.file("bad.strings") + ":4: ") == true)

    try folder.write(Array("\"a.title\" = (\"A\");\n".utf8), to: "array.strings")
    expectError(InterfaceBuilderError.self, .invalidStrings) { try StringsImport.readTable(contentsOfFile: folder.file("array.strings")) }
    expectError(InterfaceBuilderError.self, .fileSystem) { try StringsImport.readTable(contentsOfFile: folder.file("missing.strings")) }
  }

  // MARK: helpers

  static func xib(_ objects: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" targetRuntime="MacOSX.Cocoa">
        <objects>
            \(objects)
        </objects>
    </document>
    """
  }

  /// A strings-file literal's text with its escapes read.
  static func unescaped(_ literal: String) -> String {
    var result = ""
    var escaping = false
    for character in literal {
      if escaping {
        result.append(character == "n" ? "\n" : character == "t" ? "\t" : character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    return result
  }
}
