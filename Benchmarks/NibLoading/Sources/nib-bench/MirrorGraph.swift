// The generated nib's object tree as a keyed archive of Stasis's own classes: one `Node` per
// object the generator wrote (window, views, controls and their cells, constraints, menus and
// items) under a root standing for File's Owner, padded with leaf nodes to exactly the nib's live
// object count. Each node carries what a nib object carries most often — a class name, a title, a
// frame string, a tag — and the same references: its parent (weak, a cycle with `children`), its
// children, a control's cell (whose parent is the control) and an owner action's target (the root).
import Foundation
import KeyedArchive
import PropertyLists

final class Node: ArchiveEncodable, ArchiveDecodableInPlace {
  var kind = ""
  var title: String?
  var frame: String?
  var tag = 0
  weak var parent: Node?
  var children: [Node]?
  var cell: Node?
  var action: String?
  weak var target: Node?
  init() {}

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(kind, forKey: "kind")
    if let title { try coder.encode(title, forKey: "title") }
    if let frame { try coder.encode(frame, forKey: "frame") }
    coder.encode(tag, forKey: "tag")
    if let parent { try coder.encode(parent, forKey: "parent") }
    if let children { try coder.encode(children, forKey: "children") }
    if let cell { try coder.encode(cell, forKey: "cell") }
    if let action { try coder.encode(action, forKey: "action") }
    if let target { try coder.encode(target, forKey: "target") }
  }

  func decode(from coder: ArchiveDecoder) throws {
    kind = try coder.decodeRequired(String.self, forKey: "kind")
    title = try coder.decode(String.self, forKey: "title")
    frame = try coder.decode(String.self, forKey: "frame")
    tag = try coder.decodeInteger(forKey: "tag")
    parent = try coder.decode(Node.self, forKey: "parent")
    children = try coder.decode([Node].self, forKey: "children")
    cell = try coder.decode(Node.self, forKey: "cell")
    action = try coder.decode(String.self, forKey: "action")
    target = try coder.decode(Node.self, forKey: "target")
  }
}

let mirrorRegistry: ArchiveClassRegistry = {
  var registry = ArchiveClassRegistry.foundation
  registry.register(Node.self, as: "Node", supportsSecureCoding: true)
  return registry
}()

/// What a decoded mirror must hold.
struct MirrorExpectation {
  var objects: Int
  var tagSum: Int
  var actions: Int
}

enum MirrorGraph {
  /// The tree of `nib`, `objects` nodes in all.
  static func make(_ nib: GeneratedNib, objects: Int) -> (root: Node, expected: MirrorExpectation) {
    var count = 0
    var tagSum = 0
    var actions = 0
    // The window is the root (File's Owner is a placeholder, not an object a nib makes); owner
    // actions target it.
    var root: Node?
    func node(_ spec: Spec, parent: Node?) -> Node {
      let made = Node()
      if root == nil { root = made }
      count += 1
      made.kind = spec.kind.rawValue
      made.title = spec.title
      if let frame = spec.frame { made.frame = "{{\(frame.x), \(frame.y)}, {\(frame.width), \(frame.height)}}" }
      made.tag = spec.tag
      tagSum += spec.tag
      made.parent = parent
      if let action = spec.action {
        made.action = action.selector
        if action.toOwner { made.target = root }
        actions += 1
      }
      if let cellSpec = spec.cell {
        let cell = Node()
        count += 1
        cell.kind = cellSpec.kind.rawValue
        cell.title = spec.title
        cell.parent = made
        made.cell = cell
      }
      if !spec.children.isEmpty { made.children = spec.children.map { node($0, parent: made) } }
      return made
    }
    let window = node(nib.window, parent: nil)
    var top = window.children ?? []
    top.append(node(nib.menu, parent: window))
    while count < objects {
      let leaf = Node()
      leaf.kind = "NSObject"
      leaf.parent = window
      top.append(leaf)
      count += 1
    }
    window.children = top
    return (window, MirrorExpectation(objects: count, tagSum: tagSum, actions: actions))
  }

  static func archive(_ root: Node) throws -> Data {
    try KeyedArchiver.archivedData(withRootObject: root, registry: mirrorRegistry, format: .binary)
  }

  static func unarchive(_ data: Data) throws -> Node {
    guard let root = try KeyedUnarchiver.unarchivedObject(ofClass: Node.self, from: data, registry: mirrorRegistry) else {
      throw CheckFailure("KeyedArchive mirror: the root decoded as nil")
    }
    return root
  }

  static func unarchive(parsed archive: PropertyListValue) throws -> Node {
    let unarchiver = try KeyedUnarchiver(archive: archive, registry: mirrorRegistry)
    unarchiver.requiresSecureCoding = true
    guard let root = try unarchiver.decode(Node.self, forKey: "root") else {
      throw CheckFailure("KeyedArchive mirror: the root decoded as nil")
    }
    try unarchiver.finishDecoding()
    return root
  }

  static func check(_ root: Node, _ expected: MirrorExpectation) throws {
    var count = 0, tagSum = 0, actions = 0
    var stack = [root]
    while let node = stack.popLast() {
      count += 1
      tagSum += node.tag
      if let action = node.action {
        actions += 1
        if node.target != nil && node.target !== root { throw CheckFailure("mirror: an action's target is not the root") }
        _ = action
      }
      if let cell = node.cell {
        count += 1
        guard cell.parent === node else { throw CheckFailure("mirror: a cell's parent is not its control") }
      }
      for child in node.children ?? [] {
        guard child.parent === node else { throw CheckFailure("mirror: a child's parent is not the node that lists it") }
        stack.append(child)
      }
    }
    guard count == expected.objects, tagSum == expected.tagSum, actions == expected.actions else {
      throw CheckFailure(
        "mirror: \(count) nodes, tag sum \(tagSum), \(actions) actions; expected \(expected.objects), \(expected.tagSum), \(expected.actions)")
    }
  }
}
