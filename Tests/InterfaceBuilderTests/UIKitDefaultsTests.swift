import Foundation
import Interface
import InterfaceBuilder
import TestSupport
import Testing

/// Without `--xcode-version` an iOS document is compiled as the Xcode that saved it (its
/// `toolsVersion`), and without `--minimum-deployment-target` for its own deployment target.
struct UIKitDefaultsTests {
  static func document(toolsVersion: String, deployment: String = "<deployment identifier=\"iOS\"/>", safeAreas: Bool = false) throws -> InterfaceDocument {
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(toolsVersion)" targetRuntime="iOS.CocoaTouch"\(safeAreas ? " useSafeAreas=\"YES\"" : "")>
        <dependencies>
          \(deployment)
          <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="\(toolsVersion)"/>
        </dependencies>
        <objects/>
      </document>
      """
    return try InterfaceDocument(bytes: Array(xib.utf8), path: "saved.xib")
  }

  /// Interface Builder builds as the corpus and the saved `systemVersion`s date them.
  @Test(arguments: [
    ("5053", 700), ("7706", 700), ("9060", 700), ("9531", 720), ("10117", 730), ("11198.2", 800), ("11542", 810),
    ("11762", 820), ("12121", 830), ("13196", 900), ("13771", 920), ("14109", 930), ("14113", 930), ("14490.70", 1020),
    ("15505", 1100), ("17701", 1200), ("", 1200), ("x", 1200),
  ])
  func theSavingXcodeComesFromTheToolsVersion(_ toolsVersion: String, _ xcode: Int) throws {
    #expect(UIKitNibCompiler.savingXcode(of: try Self.document(toolsVersion: toolsVersion)) == xcode)
  }

  /// Seeded builds: a later Interface Builder never maps to an older Xcode.
  @Test func theTableRisesWithTheBuild() throws {
    var generator = SeededGenerator(seed: 30)
    var previous = (build: 0, xcode: 0)
    for build in (0..<200).map({ _ in Int.random(in: 1000...20000, using: &generator) }).sorted() {
      let xcode = UIKitNibCompiler.savingXcode(of: try Self.document(toolsVersion: String(build)))
      #expect(xcode >= previous.xcode, "\(build) after \(previous.build)")
      previous = (build, xcode)
    }
  }

  @Test func theDeploymentVersionIsHexadecimalMajorMinor() throws {
    let nine = try Self.document(toolsVersion: "14113", deployment: "<deployment version=\"2304\" identifier=\"iOS\"/>")
    #expect(UIKitNibCompiler.documentDeploymentTarget(of: nine).map { [$0.major, $0.minor] } == [9, 0])
    let nineOne = try Self.document(toolsVersion: "14113", deployment: "<deployment version=\"2320\" identifier=\"iOS\"/>")
    #expect(UIKitNibCompiler.documentDeploymentTarget(of: nineOne).map { [$0.major, $0.minor] } == [9, 1])
    #expect(UIKitNibCompiler.documentDeploymentTarget(of: try Self.document(toolsVersion: "14113")) == nil)
    let project = try Self.document(toolsVersion: "9531", deployment: "<deployment defaultVersion=\"1536\" identifier=\"iOS\"/>")
    #expect(UIKitNibCompiler.documentDeploymentTarget(of: project) == nil)
  }

  /// Safe-area layout guides build for iOS 9.0 and later only, so a document using them is
  /// compiled for 9.0 at least when neither the build nor the document names a target; its own
  /// later target stays.
  @Test func safeAreasRaiseTheDefaultTargetToNine() throws {
    func target(_ document: InterfaceDocument, _ xcode: Int) -> [Int] {
      let target = UIKitNibCompiler.defaultDeploymentTarget(for: document, xcode: xcode)
      return [target.major, target.minor]
    }
    #expect(target(try Self.document(toolsVersion: "15505"), 1170) == [8, 0])
    #expect(target(try Self.document(toolsVersion: "15505", safeAreas: true), 1170) == [9, 0])
    #expect(target(try Self.document(toolsVersion: "17701", safeAreas: true), 1200) == [9, 0])
    let tenThree = try Self.document(toolsVersion: "14109", deployment: "<deployment version=\"2608\" identifier=\"iOS\"/>", safeAreas: true)
    #expect(target(tenThree, 941) == [10, 3])
  }
}

/// A plain `ibtool --compile`/`--compare` of a xib saved by Xcode 8 uses Xcode 8's encoding.
@Suite(.enabled(if: builtIBTool != nil && Corpus.isAvailable, "the built ibtool or the corpus was not found"))
struct UIKitDefaultsToolTests {
  /// Saved by Xcode 8.1 (`toolsVersion="11542"`), compiled by Xcode 8.3.3.
  static let source = "ios_pairs/Yummypets+YPImagePicker/7c5170c3c423/FSAlbumView.xib"
  static let apple = "ios_pairs/Yummypets+YPImagePicker/7c5170c3c423/FSAlbumView.nib"

  static func compare(_ extra: [String]) throws -> ToolOutcome {
    let folder = try ScratchFolder("ibtool-defaults")
    defer { folder.remove() }
    let arguments = ["--output-format", "human-readable-text", "--module", "YPImagePicker"] + extra
      + ["--compare", Corpus.file(apple).path, Corpus.file(source).path]
    return try ToolProcess.run(try #require(builtIBTool), arguments, in: folder.path)
  }

  @Test func anXcode8DocumentCompilesAsXcode8ByDefault() throws {
    #expect(try Self.compare([]).stdoutText.contains("hold the same object graph"))
    #expect(try Self.compare(["--xcode-version", "8.3.3"]).stdoutText.contains("hold the same object graph"))
    let newest = try Self.compare(["--xcode-version", "12.0"]).stdoutText
    #expect(!newest.contains("hold the same object graph") && newest.contains("differ"), "\(newest)")
  }

  @Test func aWrittenNibIsTheDefaultCompile() throws {
    let folder = try ScratchFolder("ibtool-defaults")
    defer { folder.remove() }
    let outcome = try ToolProcess.run(
      try #require(builtIBTool), ["--module", "YPImagePicker", "--compile", "FSAlbumView.nib", Corpus.file(Self.source).path], in: folder.path)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let written = try NIBArchive(contentsOfFile: folder.file("FSAlbumView.nib"))
    #expect(written.canonicalDifference(from: try NIBArchive(contentsOfFile: Corpus.file(Self.apple).path)) == nil)
  }
}

/// `--target-device iphone --target-device ipad`: a universal document sized for a simulated
/// screen is a nib per device, as Xcode 7 and 8 wrote them; a freeform one stays one nib.
@Suite(.enabled(if: builtIBTool != nil && Corpus.isAvailable, "the built ibtool or the corpus was not found"))
struct UIKitDeviceSplitTests {
  static let source = "ios_pairs/calabash+ios-smoke-test-app/9d744876dc65/CalCollectionViewController.xib"

  static func compile(_ source: String, _ extra: [String], in folder: ScratchFolder) throws -> [String] {
    let outcome = try ToolProcess.run(
      try #require(builtIBTool), extra + ["--compile", folder.file("Out.nib"), Corpus.file(source).path], in: folder.path)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  @Test func aUniversalDocumentIsANibPerDevice() throws {
    let folder = try ScratchFolder("ibtool-devices")
    defer { folder.remove() }
    let written = try Self.compile(Self.source, ["--target-device", "iphone", "--target-device", "ipad"], in: folder)
    #expect(written == ["Out~ipad.nib", "Out~iphone.nib"])
    // Each equals the iOS 8 nib of Apple's folder for that device (Xcode 8.3.2).
    for (device, pair) in [("iphone", "9d744876dc65"), ("ipad", "3e7070dfd9dd")] {
      let ours = try NIBArchive(contentsOfFile: folder.file("Out~\(device).nib"))
      let apple = try NIBArchive(
        contentsOfFile: Corpus.file("ios_pairs/calabash+ios-smoke-test-app/\(pair)/CalCollectionViewController~\(device).nib/objects-8.0+.nib").path)
      #expect(ours.canonicalDifference(from: apple) == nil, "\(device)")
    }
  }

  @Test func oneDeviceOrAFreeformDocumentIsOneNib() throws {
    let one = try ScratchFolder("ibtool-devices-one")
    defer { one.remove() }
    #expect(try Self.compile(Self.source, ["--target-device", "iphone"], in: one) == ["Out.nib"])
    let freeform = try ScratchFolder("ibtool-devices-freeform")
    defer { freeform.remove() }
    let swiftMessages = "ios_pairs/SwiftKickMobile+SwiftMessages/17d86136e0da/TabView.xib"
    let both = ["--target-device", "iphone", "--target-device", "ipad", "--xcode-version", "8.3.3", "--module", "SwiftMessages"]
    #expect(try Self.compile(swiftMessages, both, in: freeform) == ["Out.nib"])
  }
}
