import StasisSystem
import FoundationEssentials
import PropertyLists
import Testing
import TestSupport
import Synchronization

@testable import Bundles

/// Frameworks follow the app's language (CFBundle's rule: non-main bundles use the main bundle's
/// chosen localizations unless `CFBundleAllowMixedLocalizations` is set). Each test builds its
/// own app and framework in a temporary folder and names the main bundle through the
/// environment, so nothing here touches the process's `Bundle.main`.
@Suite struct MainBundleLocalizationTests {
  /// A flat bundle at `folder/name` with an Info.plist and one `Localizable.strings` per
  /// localization, whose `greeting` says which localization answered.
  static func makeBundle(
    in folder: String, name: String, localizations: [String], development: String = "en",
    extraInfo: [(String, PropertyListValue)] = []
  ) throws -> String {
    let path = "\(folder)/\(name)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    var info: [(String, PropertyListValue)] = [
      ("CFBundleIdentifier", .string("com.example.\(name)")), ("CFBundleDevelopmentRegion", .string(development)),
    ]
    info += extraInfo
    try PropertyListValue.dictionary(PropertyListDictionary(info)).encoded(as: .xml)
      .write(to: URL(fileURLWithPath: "\(path)/Info.plist"))
    for localization in localizations {
      let lproj = "\(path)/\(localization).lproj"
      try FileManager.default.createDirectory(atPath: lproj, withIntermediateDirectories: true)
      try Data("\"greeting\" = \"\(name) in \(localization)\";\n".utf8)
        .write(to: URL(fileURLWithPath: "\(lproj)/Localizable.strings"))
    }
    return path
  }

  @Test("a framework speaks the language the app chose, not the user's first")
  func frameworkFollowsApp() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["de", "fr"]
    let app = try Bundle(
      path: Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr"]), environment: .languages(user))
    let frameworkPath = try Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"])
    #expect(app.preferredLocalizations == ["fr"])

    let framework = try Bundle(path: frameworkPath, environment: .languages(user), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["fr"])
    #expect(framework.localizedString(forKey: "greeting", value: nil, table: nil) == "Kit in fr")

    // With no main bundle named, the framework matches the user's languages on its own.
    let alone = try Bundle(path: frameworkPath, environment: .languages(user))
    #expect(alone.preferredLocalizations == ["de"])
    #expect(alone.localizedString(forKey: "greeting", value: nil, table: nil) == "Kit in de")
  }

  @Test("CFBundleAllowMixedLocalizations in the app lets frameworks choose for themselves",
    arguments: [PropertyListValue.bool(true), .string("YES"), .integer(1)])
  func mixedLocalizationsAllowed(flag: PropertyListValue) throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["de", "fr"]
    let app = try Bundle(
      path: Self.makeBundle(
        in: folder, name: "App", localizations: ["en", "fr"], extraInfo: [("CFBundleAllowMixedLocalizations", flag)]),
      environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["de"])
  }

  @Test("an explicit false keeps frameworks on the app's language")
  func mixedLocalizationsRefused() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["de", "fr"]
    let app = try Bundle(
      path: Self.makeBundle(
        in: folder, name: "App", localizations: ["en", "fr"],
        extraInfo: [("CFBundleAllowMixedLocalizations", .bool(false))]),
      environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["fr"])
  }

  @Test("a framework without the app's language falls back to its development region")
  func frameworkLacksAppLanguage() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["fr", "de"]
    let app = try Bundle(
      path: Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr"]), environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "de"]),
      environment: .languages(user), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["en"])
    #expect(framework.localizationSearchList == ["en"])
  }

  @Test("a framework with none of the app's languages matches the user's languages itself")
  func frameworkFallsBackToUserLanguages() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let app = try Bundle(
      path: Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr"]), environment: .languages(["de", "fr"]))
    // The app chose fr (then its development region en); the framework has neither, so the
    // user's de wins over the framework's own development region ja.
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["de", "ja"], development: "ja"),
      environment: .languages(["de", "fr"]), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["de"])
  }

  @Test("the app's development region comes before the framework's own")
  func appDevelopmentRegionBeforeFrameworks() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let app = try Bundle(
      path: Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr"]), environment: .languages(["fr"]))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "de"], development: "de"),
      environment: .languages(["fr"]), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["en"])
  }

  @Test("the main bundle's localizations are read from its top level, not from a full scan")
  func mainBundleIsNotScanned() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let appPath = try Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr"])
    // Deep folders in the app that a full resource scan would have to walk.
    try FileManager.default.createDirectory(atPath: appPath + "/deep/a/b/c", withIntermediateDirectories: true)
    let app = try Bundle(path: appPath, environment: .languages(["fr"]))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(["de"]), mainBundle: { app })
    #expect(framework.preferredLocalizations == ["fr"])
    #expect(app.state.withLock { $0.index } == nil, "the main bundle's resources were scanned")
  }

  @Test("the cached search list follows a main bundle replaced through configureMainBundle")
  func searchListAfterMainBundleChange() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    final class Holder: @unchecked Sendable { var bundle: Bundle? }
    let holder = Holder()
    let user = ["fr", "de"]
    holder.bundle = try Bundle(
      path: Self.makeBundle(in: folder, name: "AppA", localizations: ["en", "fr"]), environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { holder.bundle })
    #expect(framework.localizationSearchList == ["fr", "en"])
    holder.bundle = try Bundle(
      path: Self.makeBundle(in: folder, name: "AppB", localizations: ["en", "de"]), environment: .languages(user))
    // The same main bundle as ResourceLookupTests configures, so that the two cannot disturb each other.
    try Bundle.configureMainBundle(path: DemoBundle.path, environment: .languages(["fr"]))
    #expect(framework.localizationSearchList == ["de", "en"])
  }

  @Test("strings and resources already looked up follow a main bundle replaced through configureMainBundle")
  func lookupsAfterMainBundleChange() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    final class Holder: @unchecked Sendable { var bundle: Bundle? }
    let holder = Holder()
    let user = ["fr", "de"]
    holder.bundle = try Bundle(
      path: Self.makeBundle(in: folder, name: "AppA", localizations: ["en", "fr"]), environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { holder.bundle })
    #expect(framework.localizedString(forKey: "greeting", value: nil, table: nil) == "Kit in fr")
    #expect(framework.path(forResource: "Localizable", ofType: "strings")?.hasSuffix("/fr.lproj/Localizable.strings") == true)
    holder.bundle = try Bundle(
      path: Self.makeBundle(in: folder, name: "AppB", localizations: ["en", "de"]), environment: .languages(user))
    // The same main bundle as ResourceLookupTests configures, so that the two cannot disturb each other.
    try Bundle.configureMainBundle(path: DemoBundle.path, environment: .languages(["fr"]))
    #expect(framework.localizedString(forKey: "greeting", value: nil, table: nil) == "Kit in de")
    #expect(framework.path(forResource: "Localizable", ofType: "strings")?.hasSuffix("/de.lproj/Localizable.strings") == true)
  }

  @Test("a main bundle without localizations (a bare tool) leaves frameworks to the user's languages")
  func bareToolAsMain() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["de", "fr"]
    let tool = try Bundle(path: Self.makeBundle(in: folder, name: "tool", localizations: []), environment: .languages(user))
    let framework = try Bundle(
      path: Self.makeBundle(in: folder, name: "Kit", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { tool })
    #expect(framework.preferredLocalizations == ["de"])
  }

  @Test("the main bundle itself, opened again at its path, uses the user's languages")
  func mainBundleItself() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    let user = ["de", "fr"]
    let path = try Self.makeBundle(in: folder, name: "App", localizations: ["en", "fr", "de"])
    let app = try Bundle(path: path, environment: .languages(["fr"]))
    let again = try Bundle(path: path, environment: .languages(user), mainBundle: { app })
    #expect(again.preferredLocalizations == ["de"])
  }

  @Test("two bundles naming each other as main do not recurse")
  func mutualMainBundles() throws {
    let scratch = try ScratchFolder("main-localization")
    defer { scratch.remove() }
    let folder = scratch.path
    final class Holder: @unchecked Sendable { var bundle: Bundle? }
    let holder = Holder()
    let user = ["de", "fr"]
    let first = try Bundle(
      path: Self.makeBundle(in: folder, name: "First", localizations: ["en", "fr"]),
      environment: .languages(user), mainBundle: { holder.bundle })
    let second = try Bundle(
      path: Self.makeBundle(in: folder, name: "Second", localizations: ["en", "fr", "de"]),
      environment: .languages(user), mainBundle: { first })
    holder.bundle = second
    // First follows Second's own choice (de, which First lacks: its development region en);
    // Second follows First's own choice (fr).
    #expect(first.preferredLocalizations == ["en"])
    #expect(second.preferredLocalizations == ["fr"])
  }
}
