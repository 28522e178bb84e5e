import Bundles
import Defaults
import Foundation
import StasisSystem
import KeyedArchive
import ObjectModel
import PropertyLists

@MainActor func bundlesOverviewExample() throws {
  // snippet: overview-bundles
  typealias Bundle = Bundles.Bundle   // beside `import Foundation`

  let bundle = try Bundle(path: "Examples/Demo.app", environment: .languages(["fr"]))
  print(bundle.path(forResource: "Help", ofType: "html") ?? "")            // …/fr.lproj/Help.html for a French user
  print(bundle.localizedString(forKey: "Delete", value: nil, table: nil))  // Supprimer
  print(try bundle.localizedString(forKey: "%d notes", arguments: [.int(0)]))   // "0 note": .stringsdict, French CLDR plural (0 is "one")
  print(bundle.object(forInfoDictionaryKey: "CFBundleDisplayName")?.stringValue ?? "")   // through fr.lproj/InfoPlist.strings
  // end-snippet
}

@MainActor func defaultsOverviewExample() throws {
  // snippet: overview-defaults
  typealias UserDefaults = Defaults.UserDefaults   // beside `import Foundation`

  let defaults = try UserDefaults(bundleIdentifier: "com.example.Notes")
  defaults.register(defaults: ["FontSize": 12])
  let observation = defaults.observe("FontSize") { print("now", $0?.intValue ?? 0) }
  defaults.set(14, forKey: "FontSize")          // saved by a coalescing timer, at exit, or now:
  defaults.synchronize()
  observation.invalidate()
  // end-snippet
}

@MainActor func hostOverviewExample() throws {
  // snippet: overview-host
  typealias Bundle = Bundles.Bundle   // beside `import Foundation`

  var world = HostEnvironment.languages(["fr-CA", "en"], device: DeviceTraits(platform: "iphoneos", product: "ipad", displayScale: 2))
  world.clock = .fixed(at: Date(timeIntervalSince1970: 0))
  let bundle = try Bundle(path: "Examples/Demo.app", environment: world)
  print(bundle.preferredLocalizations)   // ["fr"]: fr-CA falls back to fr
  // end-snippet
}

@MainActor func objectModelOverviewExample() throws {
  // snippet: overview-object-model
  final class Item: KeyValueCoding {
    var name = ""
    var valueInDollars = 0
    static let keyTable = KeyTable(for: Item.self) {
      $0.key("name", \.name)
      $0.key("valueInDollars", \.valueInDollars)
    }
  }

  var classes = ClassRegistry()
  classes.register(Item.self, as: "BNRItem", makeInstance: { Item() })
  let item = try classes.makeInstance(ofClassNamed: "BNRItem") as! Item
  try item.setValue(50, forKey: "valueInDollars")
  print(item.valueInDollars)   // 50
  // end-snippet
}

@MainActor func errorsOverviewExample() throws {
  // snippet: overview-errors
  let store: [String: Any] = ["items": ["Lamp", "Desk"]]
  let path = "Missing folder/items.archive"
  do {
    try KeyedArchiver.archive(store, toFile: path)
  } catch AtomicFileError.Code.noSpace {
    print("the disk is full; the old archive is still on disk")
  } catch AtomicFileError.Code.notFound {
    print("no such folder")   // this one: a KeyedArchiveError caused by … an AtomicFileError
  } catch KeyedArchiveError.Code.propertyList {
    print("another failure to write the archive")
  }
  // end-snippet
}
