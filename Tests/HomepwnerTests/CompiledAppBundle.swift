import Foundation
import Testing
import TestSupport

/// Homepwner's bundle as `Examples/Homepwner/build.sh` makes it: `Homepwner.app` copied into a
/// test's folder with its `Base.lproj/Main.storyboard` compiled by the built `ibtool --compile`
/// into Apple's UIKit encoding (`Main.storyboardc`: `Info.plist`, a nib per scene and one per
/// controller's view) in place of the document, so the app launched on it loads the compiled
/// folder — there is no document to fall back on.
enum CompiledAppBundle {
  /// The repository's `Examples/Homepwner/Homepwner.app`.
  static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/Homepwner/Homepwner.app")

  /// Copies the bundle into `folder` as `Homepwner.app` and compiles its storyboard there;
  /// answers the bundle's path.
  ///
  /// - Throws: when the copy fails, or `ibtool` is not built, fails or reports an error.
  static func make(in folder: String) throws -> String {
    let manager = FileManager.default
    let bundle = folder + "/Homepwner.app"
    try manager.copyItem(atPath: source.path, toPath: bundle)
    let base = bundle + "/Base.lproj"
    // A folder a developer's build.sh left in the working copy is not the one under test.
    try? manager.removeItem(atPath: base + "/Main.storyboardc")
    let document = base + "/Main.storyboard"
    let ibtool = try #require(BuiltExecutables.path(named: "ibtool"), "ibtool was not built next to the tests")
    let outcome = try ToolProcess.run(ibtool, ["--errors", "--output-format", "human-readable-text", "--compile", base + "/Main.storyboardc", document])
    guard outcome.status == 0, !outcome.stdoutText.contains("error") else {
      throw TestFailure("ibtool --compile Main.storyboardc failed (\(outcome.status)): \(outcome.stdoutText) \(outcome.stderr)")
    }
    try manager.removeItem(atPath: document)
    return bundle
  }
}
