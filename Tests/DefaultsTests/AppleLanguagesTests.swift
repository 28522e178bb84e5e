import StasisSystem
import Bundles
import Defaults
import Foundation
import PropertyLists
import Testing

/// `AppleLanguages` from the defaults search list picks a bundle's localization, as on Apple's
/// platforms (`-AppleLanguages "(fr)"` on the command line wins over the saved preference).
@Suite("AppleLanguages from defaults drive bundle localization")
struct AppleLanguagesTests {
  /// A bundle with en (development), fr and de tables for `greeting`.
  private func makeBundle(in folder: String) throws -> String {
    let path = folder + "/Demo.app"
    let info: PropertyListValue = ["CFBundleIdentifier": "com.example.demo", "CFBundleDevelopmentRegion": "en"]
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try info.encoded(as: .xml).write(to: URL(fileURLWithPath: path + "/Info.plist"))
    for (language, text) in [("en", "Hello"), ("fr", "Bonjour"), ("de", "Hallo")] {
      let lproj = path + "/\(language).lproj"
      try FileManager.default.createDirectory(atPath: lproj, withIntermediateDirectories: true)
      try Data("\"greeting\" = \"\(text)\";\n".utf8).write(to: URL(fileURLWithPath: lproj + "/Localizable.strings"))
    }
    return path
  }

  private func greeting(_ bundlePath: String, _ defaults: UserDefaults, variables: [String: String] = [:]) throws -> String {
    let environment = HostEnvironment(variables: variables, appleLanguages: defaults.appleLanguagesSource)
    let bundle = try Bundle(path: bundlePath, environment: environment)
    return bundle.localizedString(forKey: "greeting", value: nil, table: nil)
  }

  @Test("the argument domain, the app domain and NSGlobalDomain are searched in order; absent falls back to the environment")
  func searchOrder() throws {
    let scratch = TemporaryRoot()
    let bundlePath = try makeBundle(in: scratch.path)

    let plain = try scratch.defaults("com.example.demo")
    #expect(try greeting(bundlePath, plain) == "Hello")  // no AppleLanguages, no LANG: development region
    #expect(try greeting(bundlePath, plain, variables: ["LANG": "de_DE.UTF-8"]) == "Hallo")  // POSIX fallback

    plain.setPersistentDomain([UserDefaults.appleLanguagesKey: ["de", "en"]], forName: UserDefaults.globalDomain)
    #expect(try greeting(bundlePath, plain, variables: ["LANG": "fr_FR.UTF-8"]) == "Hallo")  // global beats LANG

    plain.set(["fr-CA", "en"], forKey: UserDefaults.appleLanguagesKey)
    #expect(try greeting(bundlePath, plain) == "Bonjour")  // the app's domain beats the global one

    let launched = try scratch.defaults("com.example.demo", arguments: ["app", "-AppleLanguages", "(de)"])
    #expect(try greeting(bundlePath, launched) == "Hallo")  // -AppleLanguages "(de)" beats both
  }

  @Test("an empty list counts as absent")
  func emptyList() throws {
    let scratch = TemporaryRoot()
    let bundlePath = try makeBundle(in: scratch.path)
    let defaults = try scratch.defaults("com.example.demo")
    defaults.set([String](), forKey: UserDefaults.appleLanguagesKey)
    #expect(defaults.appleLanguagesSource() == nil)
    #expect(try greeting(bundlePath, defaults, variables: ["LANGUAGE": "fr"]) == "Bonjour")
  }
}
