import Foundation
import KeyedArchive

@MainActor func keyedArchiveExample() throws {
  // snippet: readme-keyed-archive
  final class Item: ArchiveEncodable, ArchiveDecodableInPlace {   // two-phase: cycles decode
    var name = ""
    weak var parent: Item?
    var children: [Item] = []
    init() {}
    func encode(with coder: ArchiveEncoder) throws {
      try coder.encode(name, forKey: "name")
      try coder.encode(parent, forKey: "parent")
      try coder.encode(children, forKey: "children")
    }
    func decode(from coder: ArchiveDecoder) throws {
      name = try coder.decodeRequired(String.self, forKey: "name")
      parent = try coder.decode(Item.self, forKey: "parent")
      children = try coder.decode([Item].self, forKey: "children") ?? []
    }
  }
  let root = Item()
  root.name = "Home"
  let kitchen = Item()
  kitchen.name = "Kitchen"
  kitchen.parent = root                                            // a cycle: child → parent → child
  root.children = [kitchen]

  var registry = ArchiveClassRegistry.foundation
  registry.register(Item.self, as: "Item", supportsSecureCoding: true)
  let data = try KeyedArchiver.archivedData(withRootObject: root, registry: registry)
  let copy = try KeyedUnarchiver.unarchivedObject(ofClass: Item.self, from: data, registry: registry)  // secure
  print(copy?.children.first?.parent === copy)                    // true: the cycle came back
  try KeyedArchiver.archive(root, toFile: "Items.archive", registry: registry)   // atomically
  // end-snippet
}
