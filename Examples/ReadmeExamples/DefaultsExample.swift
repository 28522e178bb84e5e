import Defaults
import Foundation
import PropertyLists

@MainActor func defaultsExample() throws {
  // snippet: readme-defaults
  typealias UserDefaults = Defaults.UserDefaults   // beside `import Foundation`

  let defaults = try UserDefaults(bundleIdentifier: "com.example.Notes")   // or UserDefaults.standard
  defaults.register(defaults: ["FontSize": 12])
  defaults.set(14, forKey: "FontSize")        // saved by a coalescing timer, at exit, or by synchronize()
  print(defaults.integer(forKey: "FontSize"))  // 14: argument domain → app → suites → NSGlobalDomain → languages → registration
  let token = defaults.observe("FontSize") { print("now", $0?.intValue ?? 0) }
  defaults.set(16, forKey: "FontSize")        // prints "now 16"
  token.invalidate()
  defaults.provideAppleLanguagesToBundles()   // AppleLanguages (e.g. -AppleLanguages "(fr)") picks bundle localizations
  defaults.synchronize()
  // end-snippet
}
