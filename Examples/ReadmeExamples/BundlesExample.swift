import Bundles
import Foundation

@MainActor func bundlesExample() throws {
  // snippet: readme-bundles
  typealias Bundle = Bundles.Bundle   // beside `import Foundation`

  let bundle = try Bundle(path: "Examples/Demo.app")      // iOS flat or macOS Contents/ layout
  print(bundle.bundleIdentifier ?? "", bundle.preferredLocalizations)   // from AppleLanguages, else LANGUAGE / LC_ALL / LC_MESSAGES / LANG
  print(bundle.path(forResource: "Icon", ofType: "png") ?? "")          // non-localized, preferred .lproj, Base, development region; ~device and @2x/@3x variants
  print(bundle.localizedString(forKey: "greeting", value: nil, table: nil))   // .strings and .stringsdict (CLDR plurals)
  print(try StringFormat.format("%2$@ has %1$d items", 3, "Anna"))             // positional, typed error on a mismatch
  // end-snippet
}
