import Foundation

/// Executables this package built (the tools and the test-only helpers), found next to the test
/// bundle: on Linux the runner is `<bin>/<Package>PackageTests.xctest`, on Darwin it lies deeper
/// inside the bundle, so a few folders up are tried.
public enum BuiltExecutables {
  /// The path of the built executable `name`, or `nil` when it is not there.
  public static func path(named name: String) -> String? {
    let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent(name).path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }
}
