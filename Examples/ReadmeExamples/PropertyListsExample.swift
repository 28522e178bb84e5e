import Foundation
import PropertyLists

@MainActor func propertyListsExample() throws {
  // snippet: readme-property-lists
  typealias PropertyListEncoder = PropertyLists.PropertyListEncoder   // beside `import Foundation`
  typealias PropertyListDecoder = PropertyLists.PropertyListDecoder

  let (info, format) = try PropertyListValue.read(contentsOfFile: "Examples/Info.plist")   // binary, XML, OpenStep or JSON
  print(format, info["CFBundleIdentifier"]?.stringValue ?? "")         // XML property list com.bignerdranch.Homepwner
  print(info.value(atKeyPath: "CFBundleLocalizations.1")?.stringValue ?? "")   // fr
  let settings: PropertyListValue = ["volume": 0.5, "names": ["a", "b"], "big": .integer(PropertyListInteger(UInt64.max))]
  try settings.write(toFile: "Settings.plist", format: .binary)   // atomic: temp file, fsync, rename, fsync folder
  let xml: Data = try settings.encoded(as: .xml)                   // CF's exact bytes
  print(xml.count)                                                 // 361

  struct Store: Codable, Equatable {
    var names: [String]
    var volume: Double
  }
  let store = Store(names: ["a", "b"], volume: 0.5)
  let data = try PropertyListEncoder().encode(store)               // outputFormat .binary by default
  let back = try PropertyListDecoder().decode(Store.self, from: data)
  print(back == store)                                             // true
  // end-snippet
}
