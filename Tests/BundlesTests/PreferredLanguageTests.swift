import StasisSystem
import Bundles
import Testing

@Suite struct PreferredLanguageTests {
  @Test func fromPOSIXEnvironment() {
    #expect(Bundle.preferredLanguages(environment: ["LANG": "zh_TW.UTF-8"]) == ["zh-Hant-TW"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "zh_CN.GB2312"]) == ["zh-Hans-CN"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "de_DE@euro"]) == ["de-DE"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "sr_RS@latin"]) == ["sr-Latn-RS"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "C"]) == [])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "C.UTF-8"]) == [])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "POSIX"]) == [])
    #expect(Bundle.preferredLanguages(environment: [:]) == [])
    // LC_ALL beats LC_MESSAGES beats LANG.
    #expect(Bundle.preferredLanguages(environment: ["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"]) == ["de-DE"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LC_ALL": "ja_JP.UTF-8"]) == ["ja-JP"])
    // LANGUAGE lists several, unless the locale is C.
    #expect(Bundle.preferredLanguages(environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "pt_BR:pt:en"]) == ["pt-BR", "pt", "en"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "C", "LANGUAGE": "fr"]) == [])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "en_US.UTF-8", "LANGUAGE": ""]) == ["en-US"])
  }

  @Test func appleLanguagesWinAndAreInjectable() {
    #expect(Bundle.preferredLanguages(environment: ["LANG": "de_DE"], appleLanguages: ["fr-CA", "en"]) == ["fr-CA", "en"])
    #expect(Bundle.preferredLanguages(environment: ["LANG": "de_DE"], appleLanguages: []) == ["de-DE"])
    let environment = HostEnvironment(variables: ["LANG": "de_DE"], appleLanguages: { ["es"] })
    #expect(environment.preferredLanguages == ["es"])
  }

  @Test func matchingMirrorsPreferredLocalizations() {
    let chinese = ["zh_CN", "zh_TW", "zh_HK"]
    #expect(Bundle.preferredLocalizations(from: chinese, forPreferences: ["zh-Hant-TW"]) == ["zh_TW"])
    #expect(Bundle.preferredLocalizations(from: chinese, forPreferences: ["zh-Hant-HK"]) == ["zh_HK", "zh_TW"])
    #expect(Bundle.preferredLocalizations(from: chinese, forPreferences: ["zh-Hans"]) == ["zh_CN"])
    #expect(Bundle.preferredLocalizations(from: chinese, forPreferences: ["zh"]) == ["zh_CN"])
    let scripts = ["zh_Hans", "zh_Hant", "zh_Hant_HK"]
    #expect(Bundle.preferredLocalizations(from: scripts, forPreferences: ["zh-Hant-MO"]) == ["zh_Hant_HK", "zh_Hant"])
    #expect(Bundle.preferredLocalizations(from: ["zh_Hans"], forPreferences: ["zh-Hant", "en"]) == ["zh_Hans"],
            "Hant never takes Hans: no match, so the first offered")
    #expect(Bundle.preferredLocalizations(from: ["en", "en_GB", "en_AU"], forPreferences: ["en-IN"]) == ["en_GB", "en"])
    #expect(Bundle.preferredLocalizations(from: ["en", "en_GB", "en_AU"], forPreferences: ["en-NZ"]) == ["en_AU", "en_GB", "en"])
    #expect(Bundle.preferredLocalizations(from: ["en", "en_GB"], forPreferences: ["en-DE"]) == ["en_GB", "en"])
    #expect(Bundle.preferredLocalizations(from: ["es", "es_419"], forPreferences: ["es-MX"]) == ["es_419", "es"])
    #expect(Bundle.preferredLocalizations(from: ["English", "French", "German", "Japanese"], forPreferences: ["fr-FR"]) == ["French"])
    #expect(Bundle.preferredLocalizations(from: ["English", "German"], forPreferences: ["ja"]) == ["English"])
    #expect(Bundle.preferredLocalizations(from: ["Base", "de", "fr"], forPreferences: ["it"]) == ["de"])
    #expect(Bundle.preferredLocalizations(from: ["en-GB", "fr"], forPreferences: ["en-US"]) == ["en-GB"])
    #expect(Bundle.preferredLocalizations(from: ["pt", "pt_PT"], forPreferences: ["pt-AO"]) == ["pt_PT", "pt"])
    #expect(Bundle.preferredLocalizations(from: ["he", "en"], forPreferences: ["iw"]) == ["he"])
  }
}
