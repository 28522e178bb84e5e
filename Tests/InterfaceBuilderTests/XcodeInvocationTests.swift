import Foundation
import Interface
import InterfaceBuilder
import PropertyLists
import TestSupport
import Testing

/// ibtool run with the exact argument vectors build systems send it: swift-build's
/// `IBCompiler`, `IBStoryboardCompiler` and `IBStoryboardLinker` specs (with the special
/// arguments Xcode adds: `--output-partial-info-plist`, `--compilation-directory`, the deployment
/// target), xcbuild's specs, and Theos's rules. Each test checks what the vector writes.
@Suite(.enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"))
struct XcodeInvocationTests {
  static let launchScreen = Corpus.file("xib/kraftstoff/LaunchScreen.storyboard")

  /// A scratch folder holding `src/Base.lproj/LaunchScreen.storyboard` and empty
  /// `build/Base.lproj` and `App.app` folders, as a build's intermediates and product.
  static func project() throws -> ScratchFolder {
    let folder = try ScratchFolder("xcode-invocation")
    for name in ["src/Base.lproj", "build/Base.lproj", "App.app"] {
      try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
    }
    try FileManager.default.copyItem(atPath: launchScreen.path, toPath: folder.file("src/Base.lproj/LaunchScreen.storyboard"))
    return folder
  }

  /// The files of a folder, relative, with their bytes.
  static func tree(_ path: String) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.subpathsOfDirectory(atPath: path) {
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder)
      if !isFolder.boolValue { files[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)) }
    }
    return files
  }

  /// swift-build's storyboard compile: `ibtool --errors --warnings --notices --module M
  /// --output-partial-info-plist P --auto-activate-custom-fonts --target-device iphone
  /// --target-device ipad --minimum-deployment-target V --output-format human-readable-text
  /// --compilation-directory DIR IN.storyboard`.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func swiftBuildStoryboardCompile() throws {
    let folder = try Self.project()
    defer { folder.remove() }
    let vector = [
      "--errors", "--warnings", "--notices", "--module", "Kraftstoff",
      "--output-partial-info-plist", "build/Base.lproj/LaunchScreen-SBPartialInfo.plist",
      "--auto-activate-custom-fonts", "--target-device", "iphone", "--target-device", "ipad",
      "--minimum-deployment-target", "13.0", "--output-format", "human-readable-text",
      "--compilation-directory", "build/Base.lproj", "src/Base.lproj/LaunchScreen.storyboard",
    ]
    let outcome = try IBToolTests.run(vector, in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)\(outcome.stderr)")
    #expect(outcome.stdoutText.contains("/* com.apple.ibtool.notices */"))
    #expect(outcome.stdoutText.contains("--auto-activate-custom-fonts: accepted"), "\(outcome.stdoutText)")
    let compiled = try CompiledStoryboard(contentsOf: folder.file("build/Base.lproj/LaunchScreen.storyboardc"))
    guard case .dictionary(let info) = compiled.info else { Issue.record("Info.plist is not a dictionary"); return }
    // Apple's encoding: a scene nib per controller (named after its UIKit class), a nib per view.
    #expect(info["UIStoryboardDesignatedEntryPointIdentifier"] == .string("UITabBarController-6Jo-ul-ctf"))
    #expect(compiled.nibs.count == 6)
    // What --compilation-directory wrote is what --compile to the same name writes.
    let plain = try IBToolTests.run(
      ["--module", "Kraftstoff", "--minimum-deployment-target", "13.0", "--compile", "Plain.storyboardc", "src/Base.lproj/LaunchScreen.storyboard"], in: folder)
    #expect(plain.status == 0, "\(plain.stdoutText)")
    #expect(try Self.tree(folder.file("Plain.storyboardc")) == Self.tree(folder.file("build/Base.lproj/LaunchScreen.storyboardc")))
    // The partial Info.plist: an XML dictionary; this document uses no custom font, so it is empty.
    let partial = try PropertyListValue.read(contentsOfFile: folder.file("build/Base.lproj/LaunchScreen-SBPartialInfo.plist"))
    #expect(partial.format == .xml)
    #expect(partial.value == .dictionary(PropertyListDictionary()))
  }

  /// xcbuild's storyboard compile and link (`IBTOOL_OUTPUT_FORMAT`, then
  /// `--compilation-directory $(TempResourcesDir)`; `--link $(ProductResourcesDir)`).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func xcbuildStoryboardCompileAndLink() throws {
    let folder = try Self.project()
    defer { folder.remove() }
    let compile = try IBToolTests.run(
      ["--output-format", "human-readable-text", "--compilation-directory", "build/", "src/Base.lproj/LaunchScreen.storyboard"], in: folder)
    #expect(compile.status == 0, "\(compile.stdoutText)")
    let link = try IBToolTests.run(["--output-format", "human-readable-text", "--link", "App.app", "build/LaunchScreen.storyboardc"], in: folder)
    #expect(link.status == 0, "\(link.stdoutText)\(link.stderr)")
    #expect(link.stdoutText.isEmpty, "\(link.stdoutText)")
    // Not compiled into an .lproj folder, so linked straight into the product folder.
    #expect(try Self.tree(folder.file("App.app/LaunchScreen.storyboardc")) == Self.tree(folder.file("build/LaunchScreen.storyboardc")))
  }

  /// swift-build's link step: `ibtool --errors --warnings --notices --module M --target-device
  /// iphone --target-device ipad --output-format human-readable-text --link DIR IN.storyboardc…`;
  /// the storyboard keeps its `.lproj` folder, and a second link replaces the first.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func swiftBuildStoryboardLink() throws {
    let folder = try Self.project()
    defer { folder.remove() }
    let compile = try IBToolTests.run(
      ["--module", "Kraftstoff", "--target-device", "iphone", "--compilation-directory", "build/Base.lproj", "src/Base.lproj/LaunchScreen.storyboard"],
      in: folder)
    #expect(compile.status == 0, "\(compile.stdoutText)")
    let vector = [
      "--errors", "--warnings", "--notices", "--module", "Kraftstoff", "--target-device", "iphone", "--target-device", "ipad",
      "--output-format", "human-readable-text", "--link", "App.app", "build/Base.lproj/LaunchScreen.storyboardc",
    ]
    for _ in 0..<2 {
      let link = try IBToolTests.run(vector, in: folder)
      #expect(link.status == 0, "\(link.stdoutText)\(link.stderr)")
      #expect(
        try Self.tree(folder.file("App.app/Base.lproj/LaunchScreen.storyboardc"))
          == Self.tree(folder.file("build/Base.lproj/LaunchScreen.storyboardc")))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("App.app/Base.lproj")) == ["LaunchScreen.storyboardc"])
  }

  /// What cannot be linked is an error, and nothing of it reaches the product folder.
  @Test func linkRefusesWhatIsNotACompiledStoryboard() throws {
    let folder = try ScratchFolder("xcode-invocation")
    defer { folder.remove() }
    try FileManager.default.createDirectory(atPath: folder.file("App.app"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.file("Fake.storyboardc"), withIntermediateDirectories: true)
    try folder.write(Array("not a plist".utf8), to: "Fake.storyboardc/Info.plist")
    let fake = try IBToolTests.run(["--errors", "--output-format", "human-readable-text", "--link", "App.app", "Fake.storyboardc"], in: folder)
    #expect(fake.status == 1)
    #expect(fake.stdoutText.contains("Fake.storyboardc: error: not a compiled storyboard"), "\(fake.stdoutText)")
    let missing = try IBToolTests.run(["--output-format", "human-readable-text", "--link", "Nowhere", "Fake.storyboardc"], in: folder)
    #expect(missing.status == 1)
    #expect(missing.stdoutText.contains("Nowhere: --link: the product folder does not exist"), "\(missing.stdoutText)")
    let none = try IBToolTests.run(["--link", "App.app"], in: folder)
    #expect(none.status == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("App.app")).isEmpty)
  }

  /// swift-build's xib compile: `--compile $(ProductResourcesDir)/NAME.nib` with the partial
  /// Info.plist and Xcode's other flags, for a macOS document.
  @Test func swiftBuildXibCompile() throws {
    let folder = try ScratchFolder("xcode-invocation")
    defer { folder.remove() }
    let vector = [
      "--errors", "--warnings", "--notices", "--module", "Demo", "--output-partial-info-plist", "Demo-PartialInfo.plist",
      "--auto-activate-custom-fonts", "--target-device", "mac", "--minimum-deployment-target", "12.3",
      "--output-format", "human-readable-text", "--compile", folder.file("Demo.nib"), IBToolTests.demo,
    ]
    let outcome = try IBToolTests.run(vector, in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)")
    let written = try NIBArchive(contentsOfFile: folder.file("Demo.nib"))
    let options = CocoaNibCompiler.Options(module: "Demo", omitsColorProfiles: true)
    let expected = NIBArchive(try CocoaNibCompiler.compile(InterfaceDocument(contentsOfFile: IBToolTests.demo), options: options), keepingUnreachable: false)
    #expect(written.firstDifference(from: expected) == nil)
    #expect(try PropertyListValue(contentsOfFile: folder.file("Demo-PartialInfo.plist")) == .dictionary(PropertyListDictionary()))
    // --compilation-directory names a xib's nib NAME.nib.
    let directory = try IBToolTests.run(["--compilation-directory", folder.path, IBToolTests.demo], in: folder)
    #expect(directory.status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("Demo.nib"))) == Data(written.encoded()))
  }

  /// The flags Apple accepts that change nothing here are accepted, each with a notice; a flag
  /// Apple does not have is still a usage error.
  @Test func acceptedFlagsAreNoticesAndUnknownOnesUsageErrors() throws {
    let folder = try ScratchFolder("xcode-invocation")
    defer { folder.remove() }
    let outcome = try IBToolTests.run(
      [
        "--notices", "--output-format", "human-readable-text", "--platform", "macosx", "--companion-strings-file", "fr:fr.lproj/Demo.strings",
        "--use-nibkeyedarchiver-for-macos", "--plugin-dir", "/nowhere", "--compile", "Demo.nib", IBToolTests.demo,
      ], in: folder)
    #expect(outcome.status == 0, "\(outcome.stdoutText)")
    for flag in ["--platform macosx", "--companion-strings-file fr:fr.lproj/Demo.strings", "--use-nibkeyedarchiver-for-macos", "--plugin-dir /nowhere"] {
      #expect(outcome.stdoutText.contains("\(flag): accepted and ignored: "), "\(flag): \(outcome.stdoutText)")
    }
    #expect(try IBToolTests.run(["--bogus", "--compile", "Demo.nib", IBToolTests.demo], in: folder).status == 64)
    #expect(try IBToolTests.run(["--platform"], in: folder).status == 64)
    let twice = try IBToolTests.run(["--compilation-directory", ".", "--compile", "Demo.nib", IBToolTests.demo], in: folder)
    #expect(twice.status == 1)
    #expect(twice.stdoutText.contains("name the output twice"))
  }

  /// `--auto-activate-custom-fonts`: an iOS document's custom font files under `UIAppFonts`.
  @Test func customFontsOfAnIOSDocumentGoToUIAppFonts() throws {
    let folder = try ScratchFolder("xcode-invocation")
    defer { folder.remove() }
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES">
          <customFonts key="customFonts">
              <array key="Lato-Regular.ttf"><string>Lato-Regular</string></array>
              <array key="Inter.ttc"><string>Inter-Bold</string><string>Inter-Light</string></array>
          </customFonts>
          <objects>
              <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
              <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
              <view contentMode="scaleToFill" id="v1">
                  <rect key="frame" x="0.0" y="0.0" width="320" height="44"/>
              </view>
          </objects>
      </document>

      """
    try folder.write(Array(xib.utf8), to: "Fonts.xib")
    let fonts = try IBToolTests.run(
      ["--stasis-runtime", "--auto-activate-custom-fonts", "--output-partial-info-plist", "On.plist", "--compilation-directory", ".", "Fonts.xib"], in: folder)
    #expect(fonts.status == 0, "\(fonts.stdoutText)")
    #expect(
      try PropertyListValue(contentsOfFile: folder.file("On.plist"))
        == .dictionary(PropertyListDictionary([("UIAppFonts", .array([.string("Inter.ttc"), .string("Lato-Regular.ttf")]))])))
    let without = try IBToolTests.run(["--stasis-runtime", "--output-partial-info-plist", "Off.plist", "--compile", "Fonts.nib", "Fonts.xib"], in: folder)
    #expect(without.status == 0)
    #expect(try PropertyListValue(contentsOfFile: folder.file("Off.plist")) == .dictionary(PropertyListDictionary()))
  }

  /// `--version`: Apple's `com.apple.ibtool.version` report, as a plist or as text.
  @Test func versionIsApplesReport() throws {
    let folder = try ScratchFolder("xcode-invocation")
    defer { folder.remove() }
    let xml = try IBToolTests.run(["--version"], in: folder)
    #expect(xml.status == 0)
    guard case .dictionary(let report) = try PropertyListValue(decoding: xml.stdout), case .dictionary(let version)? = report["com.apple.ibtool.version"]
    else {
      Issue.record("not a version report: \(xml.stdoutText)")
      return
    }
    #expect(version.keys == ["bundle-version", "short-bundle-version"])
    let text = try IBToolTests.run(["--version", "--output-format", "human-readable-text"], in: folder)
    #expect(text.stdoutText.hasPrefix("/* com.apple.ibtool.version */\nbundle-version: "))
  }
}
