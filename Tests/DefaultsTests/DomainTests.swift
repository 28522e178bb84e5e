import Bundles
import Defaults
import Foundation
import PropertyLists
import Sandbox
import Testing

@Suite("Domains and the search order")
struct DomainTests {
  @Test("A key present in every domain resolves through argument → app → suites → global → language → registration")
  func searchOrder() throws {
    let temporary = TemporaryRoot()
    // NSGlobalDomain, written as another app would.
    try temporary.globalFile.update { contents in
      contents = ["k": "global", "onlyGlobal": "g"]
      return true
    }
    // Two suites.
    try temporary.file("group.one").update { contents in
      contents = ["k": "suite one", "suiteKey": "one"]
      return true
    }
    try temporary.file("group.two").update { contents in
      contents = ["k": "suite two", "suiteKey": "two"]
      return true
    }
    let defaults = try temporary.defaults(arguments: ["app", "-k", "argument"], languages: ["fr-FR", "fr"])
    defaults.setVolatileDomain(propertyLists: ["k": "language fr"], forName: "fr")
    defaults.register(propertyLists: ["k": "registration", "onlyRegistered": "r"])
    defaults.set("application", forKey: "k")
    defaults.addSuite(named: "group.one")
    defaults.addSuite(named: "group.two")

    #expect(defaults.string(forKey: "k") == "argument")
    #expect(defaults.string(forKey: "onlyGlobal") == "g")
    #expect(defaults.string(forKey: "onlyRegistered") == "r")
    // The suite added last is searched first.
    #expect(defaults.string(forKey: "suiteKey") == "two")

    // Peel the domains off one at a time.
    defaults.setVolatileDomain(propertyLists: [:], forName: UserDefaults.argumentDomain)
    #expect(defaults.string(forKey: "k") == "application")
    defaults.removeObject(forKey: "k")
    #expect(defaults.string(forKey: "k") == "suite two")
    defaults.removeSuite(named: "group.two")
    #expect(defaults.string(forKey: "k") == "suite one")
    #expect(defaults.string(forKey: "suiteKey") == "one")
    defaults.removeSuite(named: "group.one")
    #expect(defaults.string(forKey: "k") == "global")
    try defaults.setPersistentDomain(propertyLists: ["onlyGlobal": "g"], forName: UserDefaults.globalDomain)
    #expect(defaults.string(forKey: "k") == "language fr")
    defaults.removeVolatileDomain(forName: "fr")
    #expect(defaults.string(forKey: "k") == "registration")
    defaults.setVolatileDomain(propertyLists: [:], forName: UserDefaults.registrationDomain)
    #expect(defaults.object(forKey: "k") == nil)
  }

  @Test("The application domain is saved as a binary property list in the container's Library/Preferences")
  func applicationDomainIsBinary() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults("com.example.binary")
    defaults.set("Stasis", forKey: "name")
    defaults.set(42, forKey: "answer")
    #expect(defaults.synchronize())
    let path = try #require(defaults.preferencesFilePath)
    #expect(path == temporary.path + "/com.example.binary/Library/Preferences/com.example.binary.plist")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(bytes.starts(with: Array("bplist00".utf8)))
    let stored = try PropertyListValue(decoding: bytes)
    #expect(stored == ["answer": 42, "name": "Stasis"])
  }

  @Test("NSGlobalDomain is read from the root's .GlobalPreferences.plist and written with setPersistentDomain")
  func globalDomain() throws {
    let temporary = TemporaryRoot()
    let first = try temporary.defaults("com.example.first")
    #expect(first.persistentDomain(forName: UserDefaults.globalDomain) == nil)
    first.setPersistentDomain(["AppleLanguages": ["en-US", "fr"], "Shared": 1], forName: UserDefaults.globalDomain)
    #expect(first.synchronize())
    let onDisk = try #require(try temporary.globalFile.read())
    #expect(onDisk["Shared"] == 1)
    #expect(temporary.root.globalPreferencesPath.hasSuffix("/.GlobalPreferences/.GlobalPreferences.plist"))

    // Another app under the same root sees it; its own domain wins over it.
    let second = try temporary.defaults("com.example.second")
    #expect(second.stringArray(forKey: "AppleLanguages") == ["en-US", "fr"])
    second.set(2, forKey: "Shared")
    #expect(second.integer(forKey: "Shared") == 2)
    #expect(first.integer(forKey: "Shared") == 1)
  }

  @Test("The registration domain is searched last and never saved")
  func registrationDomain() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.register(defaults: ["Volume": 7, "Theme": "dark"])
    #expect(defaults.integer(forKey: "Volume") == 7)
    defaults.set(3, forKey: "Volume")
    #expect(defaults.integer(forKey: "Volume") == 3)
    defaults.removeObject(forKey: "Volume")
    #expect(defaults.integer(forKey: "Volume") == 7)
    defaults.register(defaults: ["Volume": 8])
    #expect(defaults.integer(forKey: "Volume") == 8)
    #expect(defaults.string(forKey: "Theme") == "dark")
    #expect(defaults.synchronize())
    let stored = try temporary.onDisk("com.example.app") ?? [:]
    #expect(stored["Volume"] == nil && stored["Theme"] == nil)
    #expect(defaults.volatileDomain(forName: UserDefaults.registrationDomain)["Volume"] as? Int == 8)
  }

  @Test("Volatile domains: listed, readable, not searched unless named after a preferred language")
  func volatileDomains() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults(languages: ["de"])
    defaults.setVolatileDomain(["Greeting": "hi"], forName: "Session")
    #expect(defaults.volatileDomainNames == ["NSArgumentDomain", "NSRegistrationDomain", "Session"])
    #expect(defaults.volatileDomain(forName: "Session")["Greeting"] as? String == "hi")
    #expect(defaults.object(forKey: "Greeting") == nil)
    defaults.setVolatileDomain(["Greeting": "hallo"], forName: "de")
    #expect(defaults.string(forKey: "Greeting") == "hallo")
    defaults.removeVolatileDomain(forName: "de")
    #expect(defaults.object(forKey: "Greeting") == nil)
    #expect(!defaults.volatileDomainNames.contains("de"))
  }

  @Test("Preferred languages come from the POSIX locale variables")
  func languagesFromEnvironment() {
    #expect(UserDefaults.Configuration.languages(from: ["LANG": "fr_FR.UTF-8"]) == ["fr-FR", "fr"])
    #expect(UserDefaults.Configuration.languages(from: ["LANGUAGE": "pt_BR:en", "LANG": "de_DE.UTF-8"]) == ["pt-BR", "pt", "en"])
    #expect(UserDefaults.Configuration.languages(from: ["LC_ALL": "C"]).isEmpty)
    // gettext ignores LANGUAGE under the C locale, as Bundles does.
    #expect(UserDefaults.Configuration.languages(from: ["LANGUAGE": "pt_BR:en", "LANG": "C"]).isEmpty)
    #expect(UserDefaults.Configuration.languages(from: ["LANG": "zh_TW.UTF-8"]) == ["zh-Hant-TW", "zh"])
    // The same languages, in the same order, as bundles see.
    for environment in [["LANG": "sr_RS@latin"], ["LC_MESSAGES": "en_GB.UTF-8", "LANG": "fr_FR"], ["LANGUAGE": "de:fr", "LC_ALL": "it_IT"]] {
      let bundleLanguages = Bundles.Bundle.preferredLanguages(fromPOSIXEnvironment: environment)
      #expect(UserDefaults.Configuration.languages(from: environment).filter { bundleLanguages.contains($0) } == bundleLanguages)
    }
  }

  @Test("Persistent-domain API: read, replace and remove other domains")
  func persistentDomains() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    #expect(defaults.persistentDomain(forName: "com.example.other") == nil)
    defaults.setPersistentDomain(["a": 1, "b": "two"], forName: "com.example.other")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.other") == ["a": 1, "b": "two"])
    let other = try temporary.defaults("com.example.other")
    #expect(other.integer(forKey: "a") == 1)
    #expect(defaults.persistentDomain(forName: "com.example.other")?["b"] as? String == "two")

    defaults.removePersistentDomain(forName: "com.example.other")
    #expect(defaults.persistentDomain(forName: "com.example.other") == nil)
    #expect(other.object(forKey: "a") == nil)
    #expect(defaults.synchronize())
    #expect(try temporary.file("com.example.other").exists == false)
  }

  @Test("Suites: init(suiteName:) refuses NSGlobalDomain and the main bundle identifier; a suite is its own stored domain")
  func suites() throws {
    let temporary = TemporaryRoot()
    let configuration = temporary.configuration(main: "com.example.main")
    #expect(UserDefaults(suiteName: UserDefaults.globalDomain, configuration: configuration) == nil)
    #expect(UserDefaults(suiteName: "com.example.main", configuration: configuration) == nil)
    let suite = try #require(UserDefaults(suiteName: "group.example.shared", configuration: configuration))
    suite.set(true, forKey: "Shared")
    #expect(suite.synchronize())
    #expect(try temporary.onDisk("group.example.shared") == ["Shared": true])

    let app = try UserDefaults(bundleIdentifier: "com.example.main", configuration: configuration)
    #expect(app.object(forKey: "Shared") == nil)
    app.addSuite(named: "group.example.shared")
    #expect(app.bool(forKey: "Shared"))
    #expect(app.suiteNames == ["group.example.shared"])
    // The application domain beats the suite; writes go to the application domain.
    app.set(false, forKey: "Shared")
    #expect(!app.bool(forKey: "Shared"))
    #expect(suite.bool(forKey: "Shared"))
    // Adding the global domain or itself does nothing.
    app.addSuite(named: UserDefaults.globalDomain)
    app.addSuite(named: "com.example.main")
    #expect(app.suiteNames == ["group.example.shared"])
  }

  @Test("Two instances for one domain in a process share its values")
  func sharedDomain() throws {
    let temporary = TemporaryRoot()
    let one = try temporary.defaults()
    let two = try temporary.defaults()
    one.set("x", forKey: "k")
    #expect(two.string(forKey: "k") == "x")
    two.removeObject(forKey: "k")
    #expect(one.object(forKey: "k") == nil)
  }

  @Test("dictionaryRepresentation merges the whole search list")
  func dictionaryRepresentation() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults(arguments: ["app", "-Arg", "a"])
    defaults.register(defaults: ["Reg": 1, "Arg": "registered"])
    defaults.set(2.5, forKey: "App")
    let all = defaults.dictionaryRepresentation()
    #expect(all["Arg"] as? String == "a")
    #expect(all["Reg"] as? Int == 1)
    #expect(all["App"] as? Double == 2.5)
    #expect(all.count == 3)
  }
}

@Suite("The argument domain")
struct ArgumentDomainTests {
  @Test("-Key value pairs, with plist literals")
  func parsing() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults(arguments: [
      "/usr/bin/app", "-Name", "Stasis", "-List", "(one, \"two words\")", "-Map", "{a = 1; b = (x);}",
      "-Quoted", "\"a b\"", "-XML", "<integer>5</integer>", "-Number", "42", "-Flag", "-Next", "value",
      "stray", "-Broken", "(unclosed", "-JSON", "[1, 2]", "-Name", "Later",
    ])
    #expect(defaults.string(forKey: "Name") == "Later")
    #expect(defaults.propertyList(forKey: "List") == ["one", "two words"])
    #expect(defaults.propertyList(forKey: "Map") == ["a": "1", "b": ["x"]])
    #expect(defaults.propertyList(forKey: "Quoted") == "a b")
    #expect(defaults.propertyList(forKey: "XML") == 5)
    // A bare number stays a string, but converts.
    #expect(defaults.propertyList(forKey: "Number") == "42")
    #expect(defaults.integer(forKey: "Number") == 42)
    // -Flag is followed by another option: no value, skipped.
    #expect(defaults.object(forKey: "Flag") == nil)
    #expect(defaults.string(forKey: "Next") == "value")
    #expect(defaults.object(forKey: "stray") == nil)
    #expect(defaults.propertyList(forKey: "Broken") == "(unclosed")
    #expect(defaults.propertyList(forKey: "JSON") == [1, 2])
    #expect(Set(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
      == ["Name", "List", "Map", "Quoted", "XML", "Number", "Next", "Broken", "JSON"])
  }

  @Test("Arguments win over stored values but are not saved")
  func notSaved() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults(arguments: ["app", "-Mode", "test"])
    defaults.set("stored", forKey: "Mode")
    #expect(defaults.string(forKey: "Mode") == "test")
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.app") == ["Mode": "stored"])
  }
}
