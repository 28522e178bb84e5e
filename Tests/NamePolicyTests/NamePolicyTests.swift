import Bundles
import Defaults
import Foundation
import PropertyLists
import Testing

/// The names policy (Docs/architecture.md, decision 6). Stasis's drop-in types keep Apple's names
/// (`Bundle`, `PropertyListEncoder`, `PropertyListDecoder`, `UserDefaults`). Where a file imports
/// Foundation too, Swift reports the bare name as ambiguous, so a module states once which it
/// means, with one alias per name; a scope's (or the module's) alias shadows both imports, and every
/// use below it is unqualified. This file compiling is half of the check.
@Suite("Names shared with Foundation")
struct NamePolicyTests {
  /// What a ported module writes once (at its top level; here in a scope).
  enum PortedCode {
    typealias Bundle = Bundles.Bundle
    typealias UserDefaults = Defaults.UserDefaults
    typealias PropertyListDecoder = PropertyLists.PropertyListDecoder
    typealias PropertyListEncoder = PropertyLists.PropertyListEncoder

    struct Item: Codable, Equatable { var name: String }

    static func title(in bundle: Bundle, defaults: UserDefaults) -> String {
      defaults.string(forKey: "title") ?? bundle.bundlePath
    }

    static func roundTrip(_ item: Item) throws -> Item {
      let data = try PropertyListEncoder().encode(item)
      return try PropertyListDecoder().decode(Item.self, from: data)
    }

    static var mainBundleType: ObjectIdentifier { ObjectIdentifier(type(of: Bundle.main)) }
    static var decoderType: ObjectIdentifier { ObjectIdentifier(type(of: PropertyListDecoder())) }
  }

  @Test func oneAliasPerNameMakesEveryUseUnqualifiedAndStasis() throws {
    #expect(PortedCode.mainBundleType == ObjectIdentifier(Bundles.Bundle.self))
    #expect(PortedCode.decoderType == ObjectIdentifier(PropertyLists.PropertyListDecoder.self))
    let defaults = Defaults.UserDefaults(inMemoryDomain: "com.example.name-policy")
    defaults.set("Homepwner", forKey: "title")
    #expect(PortedCode.title(in: Bundles.Bundle.main, defaults: defaults) == "Homepwner")
    #expect(try PortedCode.roundTrip(.init(name: "lamp")) == .init(name: "lamp"))
  }

  /// No module is named like a type it declares, so a module name always qualifies.
  @Test func moduleQualifiedNamesNeedNoAlias() throws {
    let decoder = PropertyLists.PropertyListDecoder()
    let encoder = PropertyLists.PropertyListEncoder()
    #expect(try decoder.decode([String: Int].self, from: encoder.encode(["a": 1])) == ["a": 1])
    #expect(Defaults.UserDefaults.globalDomain == "NSGlobalDomain")
    #expect(!Bundles.Bundle.main.bundlePath.isEmpty)
  }

  @Test func foundationsTypesStayReachableQualified() throws {
    #expect(!Foundation.Bundle.main.bundlePath.isEmpty)
    let data = try Foundation.PropertyListEncoder().encode(["a": 1])
    #expect(try Foundation.PropertyListDecoder().decode([String: Int].self, from: data) == ["a": 1])
    #expect(Foundation.UserDefaults(suiteName: "com.example.name-policy") != nil)
  }
}
