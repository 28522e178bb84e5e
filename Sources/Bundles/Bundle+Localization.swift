import StasisSystem
import Synchronization
import PropertyLists

extension Bundle {
  /// The user's preferred languages (`NSLocale.preferredLanguages` / `AppleLanguages`), from
  /// `appleLanguages` if given and non-empty, else from the process-wide
  /// `HostEnvironment.current`'s `AppleLanguages` source, else from the POSIX environment
  /// `variables` (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
  public static func preferredLanguages(
    environment variables: [String: String], appleLanguages: [String]? = nil
  ) -> [String] {
    var environment = HostEnvironment(variables: variables)
    if let appleLanguages { environment.appleLanguages = { appleLanguages } }
    return environment.preferredLanguages
  }

  /// The user's languages as the POSIX environment variables name them, and nothing else (no
  /// `AppleLanguages`), much as gettext reads them: the locale is the first non-empty of `LC_ALL`,
  /// `LC_MESSAGES`, `LANG`; a locale set to `C`/`POSIX` means none; otherwise the colon-separated
  /// `LANGUAGE` list wins when set, else the locale. Unlike gettext, which treats an unset locale
  /// as `C`, `LANGUAGE` alone (no locale variable at all) still counts. Names become language identifiers:
  /// `zh_TW.UTF-8` → `zh-Hant-TW`, `de_DE@euro` → `de-DE`, `sr_RS@latin` → `sr-Latn-RS`.
  public static func preferredLanguages(fromPOSIXEnvironment variables: [String: String]) -> [String] {
    LocalizationMatching.preferredLanguages(fromEnvironment: variables)
  }

  /// The localizations of `localizations` to use for `preferences`, best first
  /// (`Bundle.preferredLocalizations(from:forPreferences:)`,
  /// `CFBundleCopyLocalizationsForPreferences`). With `preferences` `nil`, the current process's
  /// languages are used. When nothing matches, the result is `en`/`en_US`/`English` if offered,
  /// else the first localization offered.
  public static func preferredLocalizations(from localizations: [String], forPreferences preferences: [String]? = nil)
    -> [String]
  {
    let wanted = preferences ?? HostEnvironment.current.preferredLanguages
    let available = localizations.filter { $0 != "Base" }
    let matched = LocalizationMatching.localizations(from: available, forPreferences: wanted)
    if !matched.isEmpty { return matched }
    let english = LocalizationMatching.localizations(from: available, forPreferences: ["en-US"])
    if !english.isEmpty { return english }
    return available.first.map { [$0] } ?? []
  }

  /// The bundle's localizations (`NSBundle.localizations`): its `.lproj` folder names (without
  /// the extension, `Base` included) together with `CFBundleLocalizations`.
  public var localizations: [String] {
    _ = resourceIndex()
    return shallowLocalizations
  }

  /// The localizations this bundle uses for the user's languages (`NSBundle.preferredLocalizations`):
  /// the best match for the first preferred language that has one, with its fallbacks; when no
  /// preferred language matches, the development localization (then `en`).
  ///
  /// A bundle other than the main one (a framework or plug-in) first matches the **main bundle's
  /// language search list** (the main bundle's choice, then its development region), so that an
  /// app's frameworks speak the app's language (CF's `_CFBundleCopyLanguageSearchListInBundle`):
  /// a framework with `de` and `fr` inside an app that chose `fr` for a user who prefers `de` uses
  /// `fr`. Only when the framework has none of those does it match the user's languages itself.
  /// This holds unless the main bundle's Info.plist sets `CFBundleAllowMixedLocalizations` to
  /// true, or the main bundle has no localizations of its own (a bare command-line tool), and
  /// only when the bundle was opened with a main bundle to follow (`Bundle(path:)` without an
  /// environment follows ``Bundle/main``).
  public var preferredLocalizations: [String] {
    let available = localizations.filter { $0 != "Base" }
    if let languages = mainBundleLanguages() {
      let matched = LocalizationMatching.localizations(from: available, forPreferences: languages)
      if !matched.isEmpty { return matched }
    }
    return preferredLocalizations(from: available, for: environment.preferredLanguages)
  }

  /// The main bundle's language search list when this bundle follows it (see
  /// ``preferredLocalizations``), else `nil`. The main bundle's localizations are read from the
  /// top level of its resources folder only, not from a full resource scan: the main bundle of a
  /// tool may be a large folder that is never looked up in.
  func mainBundleLanguages() -> [String]? {
    guard let main = mainBundle?(), main !== self, main.bundlePath != bundlePath, !main.allowsMixedLocalizations
    else { return nil }
    let mainAvailable = main.shallowLocalizations.filter { $0 != "Base" }
    guard !mainAvailable.isEmpty else { return nil }
    var languages = main.preferredLocalizations(from: mainAvailable, for: main.environment.preferredLanguages)
    if let development = main.developmentLocalization, !languages.contains(development) { languages.append(development) }
    return languages
  }

  /// ``localizations`` from the resource index when it exists, else from one listing of the top
  /// level of the resources folder.
  var shallowLocalizations: [String] {
    var result = state.withLock { $0.index?.localizationFolders } ?? environment.fileSystem.localizationFolderNames(in: resourcePath)
    if let declared = infoDictionary["CFBundleLocalizations"]?.arrayValue {
      for case .string(let name) in declared where !result.contains(name) { result.append(name) }
    }
    return result
  }

  /// `CFBundleAllowMixedLocalizations` in the Info.plist: a boolean, or a string YES / true / 1.
  var allowsMixedLocalizations: Bool {
    switch infoDictionary["CFBundleAllowMixedLocalizations"] {
    case .bool(let value): return value
    case .string(let text): return ["yes", "true", "1"].contains(text.lowercased())
    case .integer(let number): return number.bitPattern != 0
    default: return false
    }
  }

  private func preferredLocalizations(from available: [String], for preferences: [String]) -> [String] {
    let matched = LocalizationMatching.localizations(from: available, forPreferences: preferences)
    if !matched.isEmpty { return matched }
    if let development = developmentLocalization {
      let own = LocalizationMatching.localizations(from: available, forPreferences: [development])
      if !own.isEmpty { return own }
      return [development]
    }
    return Bundle.preferredLocalizations(from: available, forPreferences: ["en-US"])
  }

  /// The `.lproj` search list for resources: ``preferredLocalizations`` with the development
  /// localization appended when absent (CF's `_CFBundleCopyLanguageSearchListInBundle`), so
  /// that it is the last resort for a resource missing from the chosen localization.
  ///
  /// The list is kept until ``invalidateResourceCache()``, or until ``configureMainBundle(path:environment:)``
  /// replaces the main bundle this bundle follows.
  public var localizationSearchList: [String] {
    if let cached = withLocalizedState({ $0.searchList }) { return cached }
    var list = preferredLocalizations
    if let development = developmentLocalization {
      let folders = resourceIndex().localizationFolders
      // The development region as a folder name: itself, or a folder that means the same language.
      let folder = folders.contains(development)
        ? development
        : (LocalizationMatching.localizations(from: folders.filter { $0 != "Base" }, forPreferences: [development]).first
          ?? development)
      if !list.contains(folder) { list.append(folder) }
    }
    withLocalizedState { $0.searchList = list }
    return list
  }
}
