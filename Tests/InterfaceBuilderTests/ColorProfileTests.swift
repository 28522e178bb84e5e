import Foundation
import IBTool
import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// The two ICC profiles the module ships (Sources/InterfaceBuilder/AppKit/ColorProfiles, extracted from
/// corpus nib/ibtool_pairs/correct/test6_whitecolor.nib): found in tests and by the built
/// `ibtool`, byte for byte the profiles of every Apple-compiled nib of the corpus, used by default.
@Suite struct ColorProfileTests {
  @Test func theShippedProfilesAreFound() throws {
    let shipped = try #require(ColorProfiles.shipped, "the module carries its profiles")
    #expect(shipped.genericGray.count == 4508 && shipped.sRGB.count == 3144)
    #expect(CocoaNibCompiler.Options().colorProfiles == shipped, "the compiler uses them by default")
  }

  /// The bytes in the code are the `.icc` files beside them (their documented source).
  @Test func theBytesInTheCodeAreTheProfileFiles() throws {
    let folder = Corpus.repositoryRoot.appendingPathComponent("Sources/InterfaceBuilder/AppKit/ColorProfiles")
    let shipped = try #require(ColorProfiles.shipped)
    #expect([UInt8](try Data(contentsOf: folder.appendingPathComponent("GenericGrayGamma2.2.icc"))) == shipped.genericGray)
    #expect([UInt8](try Data(contentsOf: folder.appendingPathComponent("sRGB.icc"))) == shipped.sRGB)
  }

  /// Evidence: every NSColorSpace with an NSICC in the corpus's Apple-compiled nibs (80 with the
  /// gray profile, 10 with sRGB) holds the shipped bytes for its NSID.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theyAreAppleProfilesInEveryCorpusNib() throws {
    let shipped = try #require(ColorProfiles.shipped)
    var checked = 0
    for file in Corpus.files(in: "nib") where file.path.hasSuffix(".nib") {
      let bytes = try file.bytes()
      guard NIBArchive.isNIBArchive(bytes) else { continue }
      let graph = NibGraph(try NIBArchive(bytes: bytes))
      for object in graph.objects where object.className == "NSColorSpace" {
        guard case .int8(let id)? = object["NSID"], case .object(let data)? = object["NSICC"],
          case .data(let profile)? = graph[data]["NS.bytes"]
        else { continue }
        #expect(profile == (id == 9 ? shipped.genericGray : shipped.sRGB), "\(file.name): NSID \(id)")
        checked += 1
      }
    }
    #expect(checked >= 90)
  }

  /// The built `ibtool`, without `--color-profiles-from`, writes Apple's catalog colors: its
  /// compile of test6_whitecolor.xib (gray and sRGB catalog colors) is Apple's graph.
  @Test(.enabled(if: Corpus.isAvailable && BuiltExecutables.path(named: "ibtool") != nil, "needs the corpus and the built ibtool"))
  func theBuiltToolUsesThemByDefault() throws {
    let scratch = try ScratchFolder("profiles")
    defer { scratch.remove() }
    let output = scratch.file("white.nib")
    let xib = Corpus.file("xib/ibtool_pairs/correct/test6_whitecolor.xib").path
    let run = try ToolProcess.run(BuiltExecutables.path(named: "ibtool")!, ["--compile", output, xib])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(!run.stderr.contains("NSICC"), "no warning about missing profiles: \(run.stderr)")
    let apple = try NIBArchive(contentsOfFile: Corpus.file("nib/ibtool_pairs/correct/test6_whitecolor.nib").path)
    #expect(try NIBArchive(contentsOfFile: output).firstDifference(from: apple, options: .compilerOutput) == nil)
  }
}
