/// A language identifier split into language, script and region, after Apple's canonicalization:
/// `_` and `-` are the same separator, legacy `.lproj` names (`English`, `French`, …) map to
/// their codes, and Chinese gets the script its region implies (`zh_TW` → `zh-Hant-TW`,
/// bare `zh` → `zh-Hans`), because Apple never lets Traditional and Simplified Chinese stand in for
/// each other.
///
/// This is the small subset of ICU's `uloc_canonicalize` / likely-subtags that
/// `CFBundleCopyLocalizationsForPreferences` relies on for bundle localizations.
struct LanguageTag: Hashable, Sendable, CustomStringConvertible {
  var language: String
  var script: String?
  var region: String?

  init(language: String, script: String? = nil, region: String? = nil) {
    self.language = language
    self.script = script
    self.region = region
  }

  /// Parses `en`, `en-GB`, `en_GB`, `zh-Hant-TW`, `zh_Hans`, `es-419`, `English`, `Base`…
  /// Returns `nil` for an empty or malformed identifier and for `Base`.
  init?(_ identifier: String) {
    if let legacy = LanguageTag.legacyNames[identifier] {
      self = legacy
      return
    }
    var parts: [Substring] = []
    for piece in identifier.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }) {
      parts.append(piece)
    }
    guard let first = parts.first, (2...3).contains(first.utf8.count), first.utf8.allSatisfy(LanguageTag.isLetter)
    else { return nil }
    var language = first.lowercased()
    if let renamed = LanguageTag.deprecatedCodes[language] { language = renamed }
    var script: String?
    var region: String?
    for part in parts.dropFirst() {
      let count = part.utf8.count
      if count == 4, script == nil, region == nil, part.utf8.allSatisfy(LanguageTag.isLetter) {
        script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
      } else if count == 2, region == nil, part.utf8.allSatisfy(LanguageTag.isLetter) {
        region = part.uppercased()
      } else if count == 3, region == nil, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        region = String(part)
      } else {
        // Variants and extensions (`-u-…`, `@calendar=…`) do not take part in bundle matching.
        break
      }
    }
    self.init(language: language, script: script, region: region)
    self = self.withDefaultScript()
  }

  var description: String {
    var text = language
    if let script { text += "-" + script }
    if let region { text += "-" + region }
    return text
  }

  /// Chinese always carries its script: the region decides it when there is one (`TW`, `HK`, `MO`
  /// → Hant), otherwise Simplified, as ICU's likely subtags say.
  func withDefaultScript() -> LanguageTag {
    guard script == nil, language == "zh" else { return self }
    var copy = self
    switch region {
    case "TW"?, "HK"?, "MO"?: copy.script = "Hant"
    default: copy.script = "Hans"
    }
    return copy
  }

  /// The region a language means when none is given (CLDR likely subtags, for the languages
  /// whose `.lproj` folders commonly carry a region). `en_US.lproj` answers for `en`.
  var likelyRegion: String? {
    switch (language, script) {
    case ("zh", "Hant"?): "TW"
    case ("zh", _): "CN"
    default: LanguageTag.likelyRegions[language]
    }
  }

  /// The next, more general identifier after this one, with Apple's parent locales: `en_AU`
  /// and the other Commonwealth Englishes → `en_GB`, European Englishes → `en_150` → `en_GB`,
  /// `en_GB` → `en_001` → `en`; Latin-American Spanish → `es_419` → `es`; `zh_Hant_MO` →
  /// `zh_Hant_HK` → `zh_Hant`. Returns `nil` once only the language (and its script) is left.
  var parent: LanguageTag? {
    guard let region else { return nil }
    if let parentRegion = LanguageTag.parentRegions[language]?[region] {
      return LanguageTag(language: language, script: script, region: parentRegion)
    }
    if language == "zh", script == "Hant", region == "MO" {
      return LanguageTag(language: language, script: script, region: "HK")
    }
    return LanguageTag(language: language, script: script, region: nil)
  }

  /// This identifier followed by each parent: `en-AU` → `[en-AU, en-GB, en-001, en]`.
  var fallbackChain: [LanguageTag] {
    var chain = [self]
    var current = self
    while let next = current.parent, chain.count < 8 {
      chain.append(next)
      current = next
    }
    return chain
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  /// Pre-ISO `.lproj` names Apple still honours, and old ISO codes that were replaced.
  static let legacyNames: [String: LanguageTag] = [
    "English": LanguageTag(language: "en"), "French": LanguageTag(language: "fr"),
    "German": LanguageTag(language: "de"), "Japanese": LanguageTag(language: "ja"),
    "Spanish": LanguageTag(language: "es"), "Italian": LanguageTag(language: "it"),
    "Dutch": LanguageTag(language: "nl"), "Swedish": LanguageTag(language: "sv"),
    "Danish": LanguageTag(language: "da"), "Finnish": LanguageTag(language: "fi"),
    "Norwegian": LanguageTag(language: "nb"), "Portuguese": LanguageTag(language: "pt"),
    "Russian": LanguageTag(language: "ru"), "Polish": LanguageTag(language: "pl"),
    "Korean": LanguageTag(language: "ko"), "Chinese": LanguageTag(language: "zh", script: "Hans"),
    "Turkish": LanguageTag(language: "tr"), "Arabic": LanguageTag(language: "ar"),
    "Hebrew": LanguageTag(language: "he"), "Greek": LanguageTag(language: "el"),
    "Czech": LanguageTag(language: "cs"), "Hungarian": LanguageTag(language: "hu"),
    "Ukrainian": LanguageTag(language: "uk"),
  ]

  static let deprecatedCodes: [String: String] = ["iw": "he", "in": "id", "ji": "yi", "no": "nb"]

  static let likelyRegions: [String: String] = [
    "en": "US", "fr": "FR", "de": "DE", "es": "ES", "it": "IT", "pt": "BR", "ja": "JP", "ko": "KR",
    "ru": "RU", "uk": "UA", "pl": "PL", "cs": "CZ", "ar": "EG", "he": "IL", "nl": "NL", "sv": "SE",
    "da": "DK", "fi": "FI", "nb": "NO", "tr": "TR", "el": "GR", "hu": "HU",
  ]

  /// Apple's parent locales that are not simply "drop the region" (CLDR `parentLocales` plus
  /// Apple's own `en_150` → `en_GB` link).
  static let parentRegions: [String: [String: String]] = {
    var english: [String: String] = ["GB": "001", "150": "GB", "NZ": "AU"]
    for region in ["AU", "IN", "HK", "SG", "ZA", "IE", "MT", "PK", "NG", "KE", "MY", "GI", "CY", "BW", "ZW"] {
      english[region] = english[region] ?? "GB"
    }
    for region in ["FR", "DE", "IT", "ES", "NL", "BE", "AT", "CH", "DK", "FI", "SE", "NO", "PT", "PL", "CZ", "SI", "SK", "HU"] {
      english[region] = "150"
    }
    var spanish: [String: String] = [:]
    for region in ["MX", "AR", "CO", "CL", "PE", "VE", "EC", "GT", "CU", "BO", "DO", "HN", "PY", "SV", "NI", "CR", "PA", "UY", "PR", "US"] {
      spanish[region] = "419"
    }
    var portuguese: [String: String] = [:]
    for region in ["AO", "MZ", "CV", "GW", "ST", "TL", "LU", "CH", "MO", "GQ"] { portuguese[region] = "PT" }
    return ["en": english, "es": spanish, "pt": portuguese]
  }()
}
