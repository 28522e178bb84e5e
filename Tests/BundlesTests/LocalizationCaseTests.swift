import Bundles
import FoundationEssentials
import PropertyLists
import Testing
import TestSupport
import StasisSystem

/// One row of the localization table: the user's languages, a question, and Apple's answer.
struct LocalizationCase: CustomTestStringConvertible, Sendable {
  enum Query: Sendable {
    case string(key: String, table: String? = nil, value: String? = nil)
    case resource(name: String, type: String, directory: String? = nil, localization: String? = nil)
    case info(key: String)
    case formatted(key: String, arguments: [FormatValue])
  }

  let languages: [String]
  let query: Query
  /// The string, or for a resource the path relative to the bundle (`nil`: not found).
  let expected: String?

  var testDescription: String { "\(languages) \(query) → \(expected ?? "nil")" }

  static let all: [LocalizationCase] = [
    // Strings: the table of the best localization answers.
    .init(languages: ["en"], query: .string(key: "color"), expected: "Color"),
    .init(languages: ["en-GB"], query: .string(key: "color"), expected: "Colour"),
    .init(languages: ["en-AU"], query: .string(key: "color"), expected: "Colour"),  // en_AU → en_GB
    .init(languages: ["en-IN", "fr"], query: .string(key: "color"), expected: "Colour"),  // en_IN → en_GB
    .init(languages: ["en-US"], query: .string(key: "color"), expected: "Color"),
    .init(languages: ["fr-FR"], query: .string(key: "color"), expected: "Couleur"),
    .init(languages: ["fr-CA"], query: .string(key: "greeting"), expected: "Bonjour"),
    .init(languages: ["de-AT"], query: .string(key: "farewell"), expected: "Tschüss"),
    .init(languages: ["zh-Hans-CN"], query: .string(key: "color"), expected: "颜色"),
    .init(languages: ["zh-TW"], query: .string(key: "color"), expected: "顏色"),  // zh-TW → zh-Hant
    .init(languages: ["zh-Hant-HK"], query: .string(key: "greeting"), expected: "您好"),
    .init(languages: ["zh"], query: .string(key: "color"), expected: "颜色"),  // bare zh is Simplified
    .init(languages: ["ja"], query: .string(key: "color"), expected: "Color"),  // no match: development region
    .init(languages: ["ja", "fr"], query: .string(key: "color"), expected: "Couleur"),  // first matching preference
    .init(languages: ["es-MX", "de"], query: .string(key: "greeting"), expected: "Hallo"),
    .init(languages: ["pt-BR"], query: .string(key: "greeting"), expected: "Hello"),
    // A key missing from the chosen table is not looked up elsewhere (CF's _copyStringTable).
    .init(languages: ["en-GB"], query: .string(key: "farewell"), expected: "farewell"),
    .init(languages: ["en-GB"], query: .string(key: "farewell", value: "Bye"), expected: "Bye"),
    .init(languages: ["fr"], query: .string(key: "only.en", value: ""), expected: "only.en"),
    .init(languages: ["en"], query: .string(key: "key.only", value: "fallback"), expected: "key.only"),
    .init(languages: ["en"], query: .string(key: "plain_key"), expected: "Unquoted key"),
    .init(languages: ["en"], query: .string(key: "escapes"), expected: "Tab\there \"quoted\" é"),
    // A table present only in the development region is found through the search list.
    .init(languages: ["fr"], query: .string(key: "error.generic", table: "Errors"), expected: "Something went wrong"),
    .init(languages: ["fr"], query: .string(key: "missing", table: "NoSuchTable", value: "dflt"), expected: "dflt"),
    // Resources: non-localized first, then the first localization, Base, the others, the development region.
    .init(languages: ["fr"], query: .resource(name: "Welcome", type: "html"), expected: "fr.lproj/Welcome.html"),
    .init(languages: ["en-GB"], query: .resource(name: "Welcome", type: "html"), expected: "en.lproj/Welcome.html"),
    .init(languages: ["ja"], query: .resource(name: "Welcome", type: "html"), expected: "en.lproj/Welcome.html"),
    .init(languages: ["fr"], query: .resource(name: "Flag", type: "png"), expected: "Base.lproj/Flag.png"),
    .init(languages: ["en-GB"], query: .resource(name: "Flag", type: "png"), expected: "en-GB.lproj/Flag.png"),
    .init(languages: ["zh-Hant-TW"], query: .resource(name: "Flag", type: "png"), expected: "Base.lproj/Flag.png"),
    .init(languages: ["zh-Hans"], query: .resource(name: "Flag", type: "png"), expected: "zh-Hans.lproj/Flag.png"),
    .init(languages: ["de"], query: .resource(name: "Onboarding", type: "html"), expected: "Base.lproj/Onboarding.html"),
    .init(languages: ["fr"], query: .resource(name: "click", type: "wav", directory: "sounds"), expected: "sounds/click.wav"),
    .init(languages: ["fr"], query: .resource(name: "voice", type: "wav", directory: "sounds"), expected: "fr.lproj/sounds/voice.wav"),
    .init(languages: ["de"], query: .resource(name: "voice", type: "wav", directory: "sounds"), expected: nil),
    .init(languages: ["de"], query: .resource(name: "Logo", type: "png"), expected: "Logo.png"),
    .init(languages: ["de"], query: .resource(name: "Config", type: "plist"), expected: "Config-linux.plist"),
    .init(languages: ["de"], query: .resource(name: "Config-linux.plist", type: ""), expected: "Config-linux.plist"),
    .init(languages: ["en"], query: .resource(name: "Welcome", type: ".html", localization: "de"), expected: "de.lproj/Welcome.html"),
    .init(languages: ["en"], query: .resource(name: "Flag", type: "png", localization: "fr"), expected: nil),
    .init(languages: ["en"], query: .resource(name: "Main", type: "storyboardc"), expected: "Base.lproj/Main.storyboardc"),
    .init(languages: ["en"], query: .resource(name: "1", type: "json", directory: "Data/levels"), expected: "Data/levels/1.json"),
    // Info.plist values through InfoPlist.strings.
    .init(languages: ["fr"], query: .info(key: "CFBundleDisplayName"), expected: "Démo"),
    .init(languages: ["zh-TW"], query: .info(key: "CFBundleDisplayName"), expected: "示範"),
    .init(languages: ["de"], query: .info(key: "CFBundleDisplayName"), expected: "Demo App"),  // en.lproj's, the last resort
    .init(languages: ["en"], query: .info(key: "CFBundleShortVersionString"), expected: "1.2"),
    .init(languages: ["en"], query: .info(key: "DemoTheme"), expected: "dark"),  // DemoTheme-linux
    .init(languages: ["en"], query: .info(key: "CFBundleIdentifier"), expected: "com.example.demo"),
    // Formatting with positional arguments and .stringsdict plurals.
    .init(languages: ["fr"], query: .formatted(key: "sent", arguments: [.int(3), .string("Zoé")]), expected: "Zoé a envoyé 3 messages"),
    .init(languages: ["en"], query: .formatted(key: "sent", arguments: [.int(1), .string("Ann")]), expected: "Ann sent 1 messages"),
    .init(languages: ["en"], query: .formatted(key: "files.count", arguments: [.int(0)]), expected: "No files"),
    .init(languages: ["en"], query: .formatted(key: "files.count", arguments: [.int(1)]), expected: "1 file"),
    .init(languages: ["en"], query: .formatted(key: "files.count", arguments: [.int(21)]), expected: "21 files"),
    .init(languages: ["fr"], query: .formatted(key: "files.count", arguments: [.int(0)]), expected: "0 fichier"),  // fr: 0 is one
    .init(languages: ["fr"], query: .formatted(key: "files.count", arguments: [.int(2)]), expected: "2 fichiers"),
    .init(languages: ["en-GB"], query: .formatted(key: "files.count", arguments: [.int(1)]), expected: "1 file"),  // .stringsdict from en
    .init(languages: ["en"], query: .formatted(key: "items.in.folders", arguments: [.int(1), .int(3)]), expected: "one item in 3 folders"),
    .init(languages: ["en"], query: .formatted(key: "items.in.folders", arguments: [.int(4), .int(1)]), expected: "4 items in 1 folder"),
    .init(languages: ["fr"], query: .formatted(key: "welcome.user", arguments: [.string("Léa")]), expected: "Bienvenue, Léa !"),
  ]
}

@Suite struct LocalizationCaseTests {
  @Test(arguments: LocalizationCase.all)
  func answersAsApple(_ row: LocalizationCase) throws {
    let bundle = try Bundle(path: DemoBundle.path, environment: .languages(row.languages))
    let answer: String?
    switch row.query {
    case .string(let key, let table, let value):
      answer = bundle.localizedString(forKey: key, value: value, table: table)
    case .resource(let name, let type, let directory, let localization):
      answer = bundle.path(forResource: name, ofType: type, inDirectory: directory, forLocalization: localization)
        .map { String($0.dropFirst(DemoBundle.path.count + 1)) }
    case .info(let key):
      answer = bundle.object(forInfoDictionaryKey: key)?.stringValue
    case .formatted(let key, let arguments):
      answer = try bundle.localizedString(forKey: key, arguments: arguments)
    }
    #expect(answer == row.expected)
  }

  @Test func tableHasAtLeastThirtyRows() {
    #expect(LocalizationCase.all.count >= 30)
  }

  @Test func preferredLocalizationsAndSearchList() throws {
    let cases: [([String], [String], [String])] = [
      (["en-AU"], ["en-GB", "en"], ["en-GB", "en"]),
      (["en-US"], ["en"], ["en"]),
      (["fr-CA"], ["fr"], ["fr", "en"]),
      (["zh-HK"], ["zh-Hant"], ["zh-Hant", "en"]),
      (["ja"], ["en"], ["en"]),
      (["ko", "de-CH", "fr"], ["de"], ["de", "en"]),
    ]
    for (languages, preferred, searchList) in cases {
      let bundle = try Bundle(path: DemoBundle.path, environment: .languages(languages))
      #expect(bundle.preferredLocalizations == preferred, "\(languages)")
      #expect(bundle.localizationSearchList == searchList, "\(languages)")
    }
    let bundle = try Bundle(path: DemoBundle.path, environment: .languages(["en"]))
    #expect(bundle.localizations == ["Base", "de", "en", "en-GB", "fr", "zh-Hans", "zh-Hant"])
  }

  @Test func explicitLocalizationsAndTables() throws {
    let bundle = try Bundle(path: DemoBundle.path, environment: .languages(["en"]))
    #expect(bundle.localizedString(forKey: "color", value: nil, table: nil, localization: "de") == "Farbe")
    #expect(bundle.localizedString(forKey: "color", value: nil, table: nil, localization: "zh-Hant") == "顏色")
    #expect(bundle.localizedString(forKey: "color", value: nil, table: nil) == "Color")
    #expect(bundle.localizedString(forKey: "color", value: nil, table: "") == "Color", "empty table name means Localizable")
    let french = try bundle.stringTable(localization: "fr")
    #expect(french.stringsPath?.hasSuffix("fr.lproj/Localizable.strings") == true)
    #expect(french.stringsdictPath?.hasSuffix("fr.lproj/Localizable.stringsdict") == true)
    #expect(french.entries.count == 6)
    let format = bundle.localizedFormat(forKey: "files.count", localization: "fr")
    #expect(format.language == "fr")
    #expect(try format.formatted(1) == "1 fichier")
    // A table that exists but does not parse is reported by stringTable(named:) and treated as
    // empty by lookups.
    let scratch = try ScratchFolder("badtable")
    defer { scratch.remove() }
    let root = scratch.path
    DemoBundle.write("\"a\" = \"b\"\n\"c\" = \"d\";\n", to: root + "/en.lproj/Localizable.strings")  // missing ;
    let broken = try Bundle(path: root, environment: .languages(["en"]))
    let error = expectError(BundleError.self, .invalidTable) { try broken.stringTable() }
    #expect(error?.underlying != nil)
    #expect(error?.path?.hasSuffix("en.lproj/Localizable.strings") == true)
    #expect(broken.localizedString(forKey: "a", value: nil, table: nil) == "a")
  }

  @Test func infoDictionaryBasics() throws {
    let bundle = try Bundle(path: DemoBundle.path, environment: .languages(["en"]))
    #expect(bundle.layout == .flat)
    #expect(bundle.bundleIdentifier == "com.example.demo")
    #expect(bundle.executableName == "Demo")
    #expect(bundle.executablePath == DemoBundle.path + "/Demo")
    #expect(bundle.developmentLocalization == "en")
    #expect(bundle.infoDictionary["DemoTheme-linux"] == nil, "suffixed keys are removed")
    #expect(bundle.infoDictionary["CFBundleIdentifier-linux"] == nil)
    // Linux has no product, so `~ipad` is not a device suffix here (as in swift-corelibs-foundation's CF).
    #expect(bundle.infoDictionary["UISupportedInterfaceOrientations~ipad"] != nil)
    #expect(bundle.infoDictionary["UISupportedInterfaceOrientations"]?.arrayValue?.count == 1)
    #expect(bundle.localizedInfoDictionary["NSCameraUsageDescription"] == "Scan codes")
  }
}
