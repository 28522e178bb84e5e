/// Chooses localizations the way `CFBundleCopyLocalizationsForPreferences` (Apple ICU's
/// `ualoc_localizationsToUse`) does.
enum LocalizationMatching {
  /// The localizations of `available` to use for `preferences`, best first.
  ///
  /// Preferences are tried in order; the first one with any reasonable match decides, and later
  /// preferences are not merged in. For that preference the result lists, in order: the exact
  /// localization, then each Apple parent (`en-AU` → `en-GB` → `en-001` → `en`), where a bare
  /// language also accepts its likely region (`en` ↔ `en_US`, `zh-Hant` ↔ `zh_TW`). When none of
  /// those exists, any localization of the same language and script answers (`en-US` takes
  /// `en-GB`; `zh-Hant` never takes a Simplified folder). Returned names are spelled as in
  /// `available` (`English`, `zh_CN`, …). `Base` is never chosen.
  static func localizations(from available: [String], forPreferences preferences: [String]) -> [String] {
    let candidates: [(name: String, tag: LanguageTag)] = available.compactMap { name in
      LanguageTag(name).map { (name, $0) }
    }
    for preference in preferences {
      guard let wanted = LanguageTag(preference) else { continue }
      var result: [String] = []
      func add(_ name: String) { if !result.contains(name) { result.append(name) } }
      for step in wanted.fallbackChain {
        for candidate in candidates where candidate.tag == step { add(candidate.name) }
        if step.region == nil {
          // A bare language also means its likely region.
          let likely = LanguageTag(language: step.language, script: step.script, region: step.likelyRegion)
          for candidate in candidates where candidate.tag == likely { add(candidate.name) }
        }
      }
      if result.isEmpty {
        for candidate in candidates
        where candidate.tag.language == wanted.language && candidate.tag.script == wanted.script {
          add(candidate.name)
        }
      }
      if !result.isEmpty { return result }
    }
    return []
  }

  /// Turns a POSIX locale name into a language identifier: `zh_TW.UTF-8` → `zh-Hant-TW`,
  /// `de_DE@euro` → `de-DE`, `sr_RS@latin` → `sr-Latn-RS`, `en` → `en`. `C`, `POSIX` and their
  /// `C.UTF-8` forms mean "no language" and return `nil`.
  static func languageIdentifier(fromPOSIX name: String) -> String? {
    var base = Substring(name)
    var modifier: Substring?
    if let at = base.firstIndex(of: "@") {
      modifier = base[base.index(after: at)...]
      base = base[..<at]
    }
    if let dot = base.firstIndex(of: ".") { base = base[..<dot] }
    if base.isEmpty || base == "C" || base == "POSIX" { return nil }
    guard var tag = LanguageTag(String(base)) else { return nil }
    if modifier == "latin" { tag.script = "Latn" } else if modifier == "cyrillic" { tag.script = "Cyrl" }
    return tag.description
  }

  /// The user's languages from POSIX environment variables, much as gettext reads them: the
  /// locale is the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`; if it is set to `C`/`POSIX`
  /// there are none; otherwise the colon-separated `LANGUAGE` list wins when set, else the locale
  /// itself. With no locale variable at all, `LANGUAGE` still counts (gettext would treat the
  /// unset locale as `C` and ignore it; a user who set only `LANGUAGE` means it).
  static func preferredLanguages(fromEnvironment variables: [String: String]) -> [String] {
    var locale: String?
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = variables[name], !value.isEmpty { locale = value; break }
    }
    if let locale, languageIdentifier(fromPOSIX: locale) == nil { return [] }
    var result: [String] = []
    if let list = variables["LANGUAGE"], !list.isEmpty {
      for item in list.split(separator: ":") {
        if let identifier = languageIdentifier(fromPOSIX: String(item)), !result.contains(identifier) {
          result.append(identifier)
        }
      }
    }
    if result.isEmpty, let locale, let identifier = languageIdentifier(fromPOSIX: locale) {
      result.append(identifier)
    }
    return result
  }
}
