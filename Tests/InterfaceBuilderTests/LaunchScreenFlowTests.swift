import Foundation
import Interface
import PropertyLists
import TestSupport
import Testing

/// An iOS app's launch screen built as Xcode builds it, end to end: the app's `Info.plist` names
/// `UILaunchStoryboardName`; its `Base.lproj/LaunchScreen.storyboard` is compiled with Xcode's
/// storyboard vector (partial Info.plist included) and linked into `App.app`; the partial
/// Info.plist is merged into the app's (its keys added, as Xcode's Info.plist step does with
/// `-additionalcontentfile`) and written in binary, as Xcode writes an iOS app's; the toolchain's
/// `plutil -lint` accepts the result, and the storyboard it names is in the product, with its
/// entry point's nib.
@Suite(
  .enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"),
  .enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason),
  .enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct LaunchScreenFlowTests {
  @Test func launchScreenCompiledLinkedAndNamedByALintedInfoPlist() throws {
    let folder = try XcodeInvocationTests.project()
    defer { folder.remove() }
    let appInfo = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("CFBundleExecutable", .string("Kraftstoff")), ("CFBundleIdentifier", .string("com.example.Kraftstoff")),
        ("CFBundlePackageType", .string("APPL")), ("UILaunchStoryboardName", .string("LaunchScreen")),
      ]))
    try appInfo.write(toFile: folder.file("src/Info.plist"), format: .xml)

    let compile = try IBToolTests.run(
      [
        "--errors", "--warnings", "--notices", "--module", "Kraftstoff",
        "--output-partial-info-plist", "build/Base.lproj/LaunchScreen-SBPartialInfo.plist", "--auto-activate-custom-fonts",
        "--target-device", "iphone", "--target-device", "ipad", "--minimum-deployment-target", "13.0",
        "--output-format", "human-readable-text", "--compilation-directory", "build/Base.lproj", "src/Base.lproj/LaunchScreen.storyboard",
      ], in: folder)
    #expect(compile.status == 0, "\(compile.stdoutText)")
    let link = try IBToolTests.run(
      [
        "--errors", "--warnings", "--notices", "--module", "Kraftstoff", "--target-device", "iphone", "--target-device", "ipad",
        "--output-format", "human-readable-text", "--link", "App.app", "build/Base.lproj/LaunchScreen.storyboardc",
      ], in: folder)
    #expect(link.status == 0, "\(link.stdoutText)")

    // The merge: the partial plist's keys over the app's.
    guard case .dictionary(var merged) = try PropertyListValue(contentsOfFile: folder.file("src/Info.plist")),
      case .dictionary(let partial) = try PropertyListValue(contentsOfFile: folder.file("build/Base.lproj/LaunchScreen-SBPartialInfo.plist"))
    else {
      Issue.record("the Info.plists are not dictionaries")
      return
    }
    for key in partial.keys { merged[key] = partial[key] }
    try PropertyListValue.dictionary(merged).write(toFile: folder.file("App.app/Info.plist"), format: .binary)

    let lint = try ToolchainPlutil.run(["-lint", folder.file("App.app/Info.plist")], input: [])
    #expect(lint.status == 0, "\(lint.errorOutput)")
    #expect(String(decoding: lint.output, as: UTF8.self).hasSuffix("App.app/Info.plist: OK\n"))

    // What the merged Info.plist names is in the product: the storyboard and its entry point's nib.
    guard case .string(let name)? = merged["UILaunchStoryboardName"] else {
      Issue.record("UILaunchStoryboardName is gone")
      return
    }
    let storyboard = try CompiledStoryboard(contentsOf: folder.file("App.app/Base.lproj/\(name).storyboardc"))
    guard case .dictionary(let info) = storyboard.info,
      case .string(let entry)? = info["UIStoryboardDesignatedEntryPointIdentifier"],
      case .dictionary(let nibNames)? = info["UIViewControllerIdentifiersToNibNames"],
      case .string(let nib)? = nibNames[entry]
    else {
      Issue.record("the linked storyboard has no entry point")
      return
    }
    #expect(storyboard.nibs[nib] != nil)
  }
}
