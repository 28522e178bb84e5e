import Bundles
import StasisSystem

extension UserDefaults {
  /// The `AppleLanguages` key: the user's preferred languages, best first (`NSLocale.preferredLanguages`
  /// reads it through the defaults search list, so `-AppleLanguages "(fr, en)"` on the command line,
  /// the app's own domain and `NSGlobalDomain` all count, in that order).
  public static let appleLanguagesKey = "AppleLanguages"

  /// Makes `Bundles` choose localizations from this object's `AppleLanguages`, as Apple's bundles
  /// do: the process-wide `HostEnvironment.current` gets this object's ``appleLanguagesSource``
  /// (`HostEnvironment.updateCurrent(_:)`). Until this is called, or when the key is absent or
  /// empty, bundles fall back to the POSIX environment (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
  ///
  /// The list is read again at every question, so a later `set(_:forKey: "AppleLanguages")` or
  /// a `synchronize()` that picks up another process's change applies at once to bundles that
  /// have not cached their search list yet.
  public func provideAppleLanguagesToBundles() {
    let source = appleLanguagesSource
    HostEnvironment.updateCurrent { $0.appleLanguages = source }
  }

  /// A source of `AppleLanguages` for one bundle environment
  /// (`HostEnvironment(appleLanguages: defaults.appleLanguagesSource)`), without changing the
  /// process-wide provider. Answers `nil` when the key is absent or empty, or once this object is gone.
  public var appleLanguagesSource: @Sendable () -> [String]? {
    { [weak self] in
      guard let languages = self?.stringArray(forKey: UserDefaults.appleLanguagesKey), !languages.isEmpty else { return nil }
      return languages
    }
  }
}
