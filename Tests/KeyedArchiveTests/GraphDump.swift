import Foundation
import KeyedArchive

// The GRAPH.md item-store graph of ObjectGraphTests, as the GNUstep interoperability tests
// (GNUstepInteropTests) compare it with GNUstep's NSKeyedArchiver.

extension Store {
  /// The registry under the given archived names for Store, Category and Item.
  static func registry(store: String = "Store", category: String = "Category", item: String = "Item") -> ArchiveClassRegistry {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Store.self, as: store, supportsSecureCoding: true)
    registry.register(Category.self, as: category, supportsSecureCoding: true)
    registry.register(Item.self, as: item, supportsSecureCoding: true)
    return registry
  }

  /// The canonical dump the GNUstep peer prints (Benchmarks/GNUstepPeer/graph.m, `dumpGraph`):
  /// objects by index, shared references and cycles by the index of the object referred to.
  var dump: String {
    var categoryIndex: [ObjectIdentifier: Int] = [:], itemIndex: [ObjectIdentifier: Int] = [:]
    for (index, category) in categories.enumerated() { categoryIndex[ObjectIdentifier(category)] = index }
    for (index, item) in items.enumerated() { itemIndex[ObjectIdentifier(item)] = index }
    var lines = ["store \(name) \(categories.count) \(items.count)"]
    for (index, category) in categories.enumerated() { lines.append("category \(index) \(category.name) \(category.code)") }
    for (index, item) in items.enumerated() {
      let category = item.category.flatMap { categoryIndex[ObjectIdentifier($0)] } ?? -1
      let parent = item.parent.flatMap { itemIndex[ObjectIdentifier($0)] }.map(String.init) ?? "-"
      let children = item.children.map { $0.map { String(itemIndex[ObjectIdentifier($0)] ?? -1) }.joined(separator: ",") } ?? "-"
      let seconds = String(format: "%.0f", item.dateCreated.timeIntervalSinceReferenceDate)
      lines.append("item \(index) \(item.name) \(item.serialNumber) \(item.valueInDollars) \(seconds) \(category) \(parent) \(children)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
