import Foundation
import TestSupport
import Testing

/// `--export-strings-file` and `--import-strings-file` over a whole `.lproj` folder in one call.
@Suite(
  .enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"),
  .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct StringsTreeTests {
  @Test func aFolderIsExportedAndLocalizedAsACallPerDocumentWould() throws {
    let folder = try ScratchFolder("strings-tree")
    defer { folder.remove() }
    try FileManager.default.createDirectory(atPath: folder.file("Base.lproj"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: IBToolTests.demo, toPath: folder.file("Base.lproj/Demo.xib"))
    try FileManager.default.copyItem(
      atPath: XcodeInvocationTests.launchScreen.path, toPath: folder.file("Base.lproj/LaunchScreen.storyboard"))
    try folder.write(Array("not a document".utf8), to: "Base.lproj/README.txt")

    let export = try IBToolTests.run(["--export-strings-file", "en.lproj", "Base.lproj"], in: folder)
    #expect(export.status == 0, "\(export.stdoutText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("en.lproj")).sorted() == ["Demo.strings", "LaunchScreen.strings"])
    for name in ["Demo.xib", "LaunchScreen.storyboard"] {
      let table = String(name.prefix { $0 != "." }) + ".strings"
      let single = try IBToolTests.run(["--export-strings-file", "single-" + table, "Base.lproj/" + name], in: folder)
      #expect(single.status == 0)
      #expect(try folder.read("en.lproj/" + table) == folder.read("single-" + table), "\(table)")
    }

    // French: Demo's "Save" translated; LaunchScreen has no table, so it is left out with a warning.
    try FileManager.default.createDirectory(atPath: folder.file("fr.lproj"), withIntermediateDirectories: true)
    let english = try folder.read("en.lproj/Demo.strings")
    #expect(english.starts(with: [0xFF, 0xFE]))
    let text = String(decoding: stride(from: 2, to: english.count - 1, by: 2).map { UInt16(english[$0]) | UInt16(english[$0 + 1]) << 8 }, as: UTF16.self)
    #expect(text.contains("\"Save\""))
    let french = text.replacingOccurrences(of: "= \"Save\"", with: "= \"Enregistrer\"")
    try folder.write([0xFF, 0xFE] + french.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, to: "fr.lproj/Demo.strings")
    let localize = try IBToolTests.run(
      ["--output-format", "human-readable-text", "--import-strings-file", "fr.lproj", "--write", "fr-docs.lproj", "Base.lproj"], in: folder)
    #expect(localize.status == 0, "\(localize.stdoutText)")
    #expect(localize.stdoutText.contains("LaunchScreen.storyboard: no fr.lproj/LaunchScreen.strings; not localized"), "\(localize.stdoutText)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("fr-docs.lproj")) == ["Demo.xib"])
    let localized = String(decoding: try folder.read("fr-docs.lproj/Demo.xib"), as: UTF8.self)
    #expect(localized.contains("title=\"Enregistrer\""))
    #expect(!localized.contains("title=\"Save\""))

    // A folder with other steps, or without --write, is an error.
    #expect(try IBToolTests.run(["--import-strings-file", "fr.lproj", "Base.lproj"], in: folder).status == 1)
    #expect(try IBToolTests.run(["--export-strings-file", "x.lproj", "--compile", "x.nib", "Base.lproj"], in: folder).status == 1)
    #expect(try IBToolTests.run(["--export-strings-file", "x.lproj", "fr.lproj"], in: folder).status == 1)
  }
}
