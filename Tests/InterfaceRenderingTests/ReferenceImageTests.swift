import Foundation
import Testing
import TestSupport

/// `ibtool --render OUT.png` through librsvg's `rsvg-convert`: the pictures of a few fixture
/// documents (an AppKit window xib, an iOS xib, an iOS storyboard and Apple's compiled nib of a
/// UIKit view) compared with the committed references pixel by pixel (References/compare_png.py:
/// at most 2% of the pixels differ by more than 48 of 255, for the fonts the machine has), and the
/// error without `rsvg-convert`.
@MainActor
@Suite("Rendered PNGs against reference images")
struct ReferenceImageTests {
  nonisolated static let references = Corpus.repositoryRoot.appendingPathComponent("Tests/InterfaceRenderingTests/References")
  nonisolated static var ibtool: String? { BuiltExecutables.path(named: "ibtool") }
  nonisolated static var rasteriser: String? {
    ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }
  nonisolated static var python: String? { ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) } }
  nonisolated static var ready: Bool { Corpus.isAvailable && ibtool != nil && rasteriser != nil && python != nil }

  /// Reference name → corpus document and ibtool's options (each renders to one picture; the
  /// references were made by the same command, `ibtool --render References/NAME OPTIONS DOCUMENT`).
  nonisolated static let cases: [(reference: String, document: String, options: [String])] = [
    ("appkit-window.png", "xib/netnewswire/Mac_Base.lproj_RenameSheet.xib", ["--scale", "0.5"]),
    ("uikit-xib.png", "xib/netnewswire/iOS_Settings_SettingsComboTableViewCell.xib", ["--scale", "0.5"]),
    ("uikit-storyboard.png", "xib/kraftstoff/LaunchScreen.storyboard", ["--scale", "0.25", "--contact-sheet"]),
    ("uikit-apple-nib.png", "ios_pairs/kevin-hirsch+KVNProgress/00c2835a0757/KVNProgressView.nib", ["--scale", "0.5"]),
  ]

  @Test(
    .enabled(if: ready, "needs the corpus, the built ibtool, rsvg-convert (librsvg2-bin) and python3"),
    arguments: cases.map(\.reference))
  func matchesTheReference(_ reference: String) throws {
    let testCase = try #require(Self.cases.first { $0.reference == reference })
    let document = testCase.document
    try withScratchFolder("render-png") { folder in
      let output = folder.file(reference)
      let run = try ToolProcess.run(Self.ibtool!, ["--render", output] + testCase.options + [Corpus.file(document).path])
      #expect(run.status == 0, "\(run.stdoutText)\(run.stderr)")
      let compare = try ToolProcess.run(
        Self.python!, [Self.references.appendingPathComponent("compare_png.py").path, output, Self.references.appendingPathComponent(reference).path])
      #expect(compare.status == 0, "\(document): \(compare.stdoutText)\(compare.stderr)")
    }
  }

  @Test(.enabled(if: Corpus.isAvailable && ibtool != nil, "needs the corpus and the built ibtool"))
  func missingRasteriserIsAClearError() throws {
    try withScratchFolder("render-no-rsvg") { folder in
      let run = try ToolProcess.run(
        Self.ibtool!, ["--render", folder.file("out.png"), Corpus.file(Self.cases[0].document).path], environment: ["PATH": folder.path])
      #expect(run.status == 1)
      #expect(run.stdoutText.contains("rsvg-convert") && run.stdoutText.contains("librsvg2-bin"), "\(run.stdoutText)")
      #expect(!FileManager.default.fileExists(atPath: folder.file("out.png")))
    }
  }

  @Test(.enabled(if: ibtool != nil, "needs the built ibtool"))
  func helpSaysRenderIsOurs() throws {
    let run = try ToolProcess.run(Self.ibtool!, ["--help"])
    let help = run.stdoutText.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
    #expect(help.contains("--render") && help.contains("Apple's ibtool has no such flag"), "\(help)")
  }
}
