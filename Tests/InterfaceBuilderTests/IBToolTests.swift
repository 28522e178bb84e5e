import Foundation
import Interface
import InterfaceBuilder
import TestSupport
import Testing

let builtIBTool = BuiltExecutables.path(named: "ibtool")

/// The `ibtool` executable as a script runs it: files written, exit statuses, errors that name
/// the document and line.
@Suite(.enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"))
struct IBToolTests {
  static let tool = builtIBTool
  static let demo = Corpus.repositoryRoot.appendingPathComponent("Examples/Demo.xib").path

  static func run(_ arguments: [String], in folder: ScratchFolder) throws -> ToolOutcome {
    try ToolProcess.run(try #require(tool), arguments, in: folder.path)
  }

  @Test func compileWritesANibThatReadsBackAsTheCompiledGraph() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    let outcome = try Self.run(["--compile", "Demo.nib", Self.demo], in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)\(outcome.stdoutText)")
    let written = try NIBArchive(contentsOfFile: folder.file("Demo.nib"))
    let expected = NIBArchive(try CocoaNibCompiler.compile(InterfaceDocument(contentsOfFile: Self.demo)), keepingUnreachable: false)
    #expect(written.firstDifference(from: expected) == nil)
    #expect(written.encoded() == expected.encoded())
    let compare = try Self.run(["--compare", "Demo.nib", Self.demo], in: folder)
    #expect(compare.status == 0)
    #expect(compare.stdoutText.contains("hold the same object graph"))
  }

  @Test func aDocumentItCannotCompileIsAnErrorWithItsLineAndNothingIsWritten() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    var text = try String(contentsOfFile: Self.demo, encoding: .utf8)
    text = text.replacingOccurrences(of: "<button verticalHuggingPriority=\"750\" id=\"5\">", with: "<levitator id=\"5\">")
      .replacingOccurrences(of: "</button>", with: "</levitator>")
    try folder.write(Array(text.utf8), to: "Bad.xib")
    let outcome = try Self.run(["--output-format", "human-readable-text", "--compile", "Bad.nib", "Bad.xib"], in: folder)
    #expect(outcome.status == 1)
    #expect(outcome.stdoutText.contains("/* com.apple.ibtool.document.errors */"))
    #expect(outcome.stdoutText.contains("Bad.xib:25: error: <levitator> is not compiled yet"), "\(outcome.stdoutText)")
    #expect(try folder.contents().contains("Bad.nib") == false)
  }

  /// What the nib loader compiles leniently (a best-effort object for an element whose Apple
  /// compilation is not known), `ibtool --compile` still refuses: it never writes a guess as
  /// Apple's bytes.
  @Test func compileStaysStrictWhereTheLoaderIsLenient() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" useAutolayout="YES">
          <objects>
              <customObject id="-2" userLabel="File's Owner" customClass="Owner"/>
              <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
              <customObject id="-3" userLabel="Application" customClass="NSObject"/>
              <ruleEditor nestingMode="compound" rowHeight="25" id="pe1">
                  <rect key="frame" x="0.0" y="0.0" width="200" height="100"/>
              </ruleEditor>
          </objects>
      </document>

      """
    try folder.write(Array(text.utf8), to: "Rules.xib")
    let document = try InterfaceDocument(contentsOfFile: folder.file("Rules.xib"))
    #expect(try CocoaNibCompiler.compileLeniently(document).warnings.map(\.line) == [7])
    let outcome = try Self.run(["--output-format", "human-readable-text", "--compile", "Rules.nib", "Rules.xib"], in: folder)
    #expect(outcome.status == 1)
    #expect(outcome.stdoutText.contains("Rules.xib:7: error: <ruleEditor> is not compiled yet"), "\(outcome.stdoutText)")
    #expect(try folder.contents().contains("Rules.nib") == false)
  }

  /// A macOS xib with a text field whose colors are catalog colors.
  static let catalogColorXib = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" useAutolayout="YES">
        <objects>
            <customObject id="-2" userLabel="File's Owner" customClass="Owner"/>
            <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
            <customObject id="-3" userLabel="Application" customClass="NSObject"/>
            <textField id="tf1">
                <rect key="frame" x="0.0" y="0.0" width="100" height="21"/>
                <autoresizingMask key="autoresizingMask"/>
                <textFieldCell key="cell" title="Name" id="tfc1">
                    <font key="font" metaFont="system"/>
                    <color key="textColor" name="controlTextColor" catalog="System" colorSpace="catalog"/>
                    <color key="backgroundColor" name="textBackgroundColor" catalog="System" colorSpace="catalog"/>
                </textFieldCell>
            </textField>
        </objects>
    </document>

    """

  /// By default catalog colors embed the ICC profiles the module ships (`NSICC`, nothing said);
  /// `--color-profiles-from` replaces them with a nib's, also silently.
  @Test func catalogColorsGetTheShippedProfilesByDefault() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    try folder.write(Array(Self.catalogColorXib.utf8), to: "Colors.xib")
    let outcome = try Self.run(["--output-format", "human-readable-text", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.isEmpty, "no warning: \(outcome.stdoutText)")
    let graph = NibGraph(try NIBArchive(contentsOfFile: folder.file("Colors.nib")))
    let spaces = graph.objects.filter { $0.className == "NSColorSpace" }
    let shipped = try #require(ColorProfiles.shipped)
    #expect(!spaces.isEmpty)
    for space in spaces {
      guard case .int8(let id)? = space["NSID"], case .object(let data)? = space["NSICC"], case .data(let profile)? = graph[data]["NS.bytes"] else {
        Issue.record("a color space without NSID and NSICC: \(space.entries.map(\.key))")
        continue
      }
      #expect(profile == (id == 9 ? shipped.genericGray : shipped.sRGB))
    }
    guard Corpus.isAvailable else {
      print("IBToolTests: the corpus fixtures are not here; the --color-profiles-from half is skipped")
      return
    }
    // test3.nib holds Apple's sRGB profile, test6_whitecolor.nib its Generic Gray one.
    let sources = ["test3", "test6_whitecolor"].flatMap { ["--color-profiles-from", Corpus.file("nib/ibtool_pairs/correct/\($0).nib").path] }
    let withProfiles = try Self.run(["--output-format", "human-readable-text"] + sources + ["--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(withProfiles.status == 0)
    #expect(withProfiles.stdoutText.isEmpty, "\(withProfiles.stdoutText)")
    let profiled = NibGraph(try NIBArchive(contentsOfFile: folder.file("Colors.nib")))
    #expect(profiled.objects.filter { $0.className == "NSColorSpace" }.allSatisfy { $0.entries.contains { $0.key == "NSICC" } })
  }

  /// An iOS xib compiles into Apple's UIKit encoding (with `--stasis-runtime` into Stasis's own,
  /// what its nib loader reads), without a warning; `--target-device` must match the document's
  /// platform.
  @Test func iOSDocumentsCompileInApplesEncodingAndTargetDevicesMatchThePlatform() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
          <objects>
              <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner" customClass="Owner"/>
              <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
              <view contentMode="scaleToFill" id="v1">
                  <rect key="frame" x="0.0" y="0.0" width="320" height="44"/>
                  <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
              </view>
          </objects>
      </document>

      """
    try folder.write(Array(text.utf8), to: "Cell.xib")
    let apple = try Self.run(["--output-format", "human-readable-text", "--compile", "Cell.nib", "Cell.xib"], in: folder)
    #expect(apple.status == 0, "\(apple.stdoutText)")
    #expect(apple.stdoutText.isEmpty, "\(apple.stdoutText)")
    let graph = NibGraph(try NIBArchive(contentsOfFile: folder.file("Cell.nib")))
    // Apple's UIKit encoding: UIView's keys as Xcode writes them.
    #expect(graph.objects.contains { $0.className == "UIView" && $0["UIDeepDrawRect"] == .bool(true) && $0["UIAutoresizingMask"] == .int8(18) })
    let stasis = try Self.run(["--output-format", "human-readable-text", "--stasis-runtime", "--target-device", "iphone", "--compile", "Stasis.nib", "Cell.xib"], in: folder)
    #expect(stasis.status == 0)
    #expect(stasis.stdoutText.isEmpty, "\(stasis.stdoutText)")
    let stasisGraph = NibGraph(try NIBArchive(contentsOfFile: folder.file("Stasis.nib")))
    #expect(stasisGraph.objects.contains { $0.className == "UIView" && $0["UIDeepDrawRect"] == nil })
    let wrongDevice = try Self.run(["--output-format", "human-readable-text", "--target-device", "mac", "--compile", "Other.nib", "Cell.xib"], in: folder)
    #expect(wrongDevice.status == 1)
    #expect(wrongDevice.stdoutText.contains("--target-device mac: this is an iOS document"), "\(wrongDevice.stdoutText)")
    try folder.write(Array(Self.catalogColorXib.utf8), to: "Colors.xib")
    let macOnPhone = try Self.run(["--output-format", "human-readable-text", "--target-device", "ipad", "--compile", "Colors.nib", "Colors.xib"], in: folder)
    #expect(macOnPhone.status == 1)
    #expect(try !folder.contents().contains("Colors.nib") && !folder.contents().contains("Other.nib"))
  }

  @Test func errorsAreAPropertyListInXML1() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    try folder.write(Array("<document".utf8), to: "Cut.xib")
    let outcome = try Self.run(["--errors", "--compile", "Cut.nib", "Cut.xib"], in: folder)
    #expect(outcome.status == 1)
    let report = try PropertyListSerialization.propertyList(from: Data(outcome.stdout), format: nil) as? [String: Any]
    let errors = (report?["com.apple.ibtool.document.errors"] as? [String: Any])?["Cut.xib"] as? [[String: Any]]
    #expect((errors?.first?["description"] as? String)?.hasPrefix("Cut.xib:1: ") == true, "\(outcome.stdoutText)")
  }

  @Test func aUsageErrorIsStatus64() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    let outcome = try Self.run(["--no-such-flag", "x.xib"], in: folder)
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--no-such-flag"))
  }

  @Test func stringsExportAndImportRoundTrip() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    #expect(try Self.run(["--export-strings-file", "Demo.strings", Self.demo], in: folder).status == 0)
    let exported = try folder.read("Demo.strings")
    #expect(exported.starts(with: [0xFF, 0xFE]), "UTF-16 little-endian with a byte-order mark, as Apple writes it")
    let text = String(decoding: exported.dropFirst(2).withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }, as: UTF16.self)
    #expect(text.contains("\"6.title\" = \"Save\";"))
    let french = text.replacingOccurrences(of: "= \"Save\";", with: "= \"Enregistrer\";")
    try folder.write(Array(french.utf8), to: "fr.strings")
    let imported = try Self.run(["--import-strings-file", "fr.strings", "--write", "Demo-fr.xib", Self.demo], in: folder)
    #expect(imported.status == 0, "\(imported.stdoutText)")
    let localized = try InterfaceDocument(contentsOfFile: folder.file("Demo-fr.xib"))
    #expect(StringsExport(localized).entries.first { $0.key == "6.title" }?.value == "Enregistrer")
  }

  @Test func listingsNameObjectsAndConnections() throws {
    let folder = try ScratchFolder("ibtool")
    defer { folder.remove() }
    let outcome = try Self.run(["--print-hierarchy", "--print-connections", "--print-classes", Self.demo], in: folder)
    #expect(outcome.status == 0)
    #expect(outcome.stdoutText.contains("NSButtonCell \"Save\""))
    #expect(outcome.stdoutText.contains("NSNibControlConnector \"save:\": "))
    #expect(outcome.stdoutText.contains("\tNSTextField\n"))
  }
}
