// The generated nib compiled once (CocoaNibCompiler → NibGraph → NIBArchive bytes), sized so that
// one load makes about the asked number of live objects, and the checks every load must pass.
import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel

@MainActor
struct NibFixture {
  let generated: GeneratedNib
  let graph: NibGraph
  let bytes: [UInt8]
  /// Live objects one load makes (`LoadedNib.objects.count`), from the first load.
  let liveObjects: Int
  /// What the first load showed, which every later load must show again.
  let signature: LoadSignature

  /// The xib with `groups` panels, compiled and loaded once.
  init(
    groups: Int, menus: Int, itemsPerMenu: Int, seed: UInt64, denseAttributes: Bool, compiler: CocoaNibCompiler.Options
  ) throws {
    generated = NibGenerator.generate(
      groups: groups, menus: menus, itemsPerMenu: itemsPerMenu, seed: seed, denseAttributes: denseAttributes)
    let document = try InterfaceDocument(bytes: Array(generated.xml.utf8), path: "generated.xib")
    graph = try CocoaNibCompiler.compile(document, options: compiler)
    bytes = NIBArchive(graph, keepingUnreachable: false).encoded()
    let owner = BenchOwner()
    let loaded = try Nib(graph: graph, name: "generated.nib").load(owner: owner, options: benchOptions())
    signature = try LoadSignature(loaded, owner: owner, generated)
    liveObjects = loaded.objects.count
    // The same nib read back from its bytes must load to the same thing.
    let again = BenchOwner()
    let fromBytes = try Nib(data: bytes, name: "generated.nib").load(owner: again, options: benchOptions())
    let second = try LoadSignature(fromBytes, owner: again, generated)
    guard second == signature else {
      throw CheckFailure("the nib read back from its bytes loads differently: \(second) vs \(signature)")
    }
  }

  /// Sized so that a load makes about `objects` live objects: the count of one panel's objects
  /// is learnt from two small sizes, then the size is solved for (and checked).
  static func sized(
    objects target: Int, menus: Int, itemsPerMenu: Int, seed: UInt64, denseAttributes: Bool, compiler: CocoaNibCompiler.Options
  ) throws -> NibFixture {
    func make(_ groups: Int) throws -> NibFixture {
      try NibFixture(
        groups: groups, menus: menus, itemsPerMenu: itemsPerMenu, seed: seed, denseAttributes: denseAttributes, compiler: compiler)
    }
    let small = try make(4)
    let larger = try make(12)
    let perGroup = Double(larger.liveObjects - small.liveObjects) / 8
    let base = Double(small.liveObjects) - 4 * perGroup
    var groups = max(1, Int(((Double(target) - base) / perGroup).rounded()))
    var best = try make(groups)
    // The nested depth of each panel is random, so the line is only near: step to the closest.
    for _ in 0..<6 {
      let step = best.liveObjects < target ? 1 : -1
      groups += step
      guard groups >= 1 else { break }
      let next = try make(groups)
      if abs(next.liveObjects - target) < abs(best.liveObjects - target) { best = next } else { break }
    }
    return best
  }

  /// Checks a load against the first one.
  func check(_ loaded: LoadedNib, owner: BenchOwner) throws {
    let signature = try LoadSignature(loaded, owner: owner, generated)
    guard signature == self.signature else {
      throw CheckFailure("a load differs from the first: \(signature) vs \(self.signature)")
    }
  }
}

/// What a load of the generated nib made, in numbers that the generator predicts or that must
/// not change from load to load.
struct LoadSignature: Equatable, CustomStringConvertible {
  var objects = 0
  var views = 0
  var controls = 0
  var menuItems = 0
  var tagSum = 0
  var toolTips = 0
  var captions = 0
  var accentSum = 0
  var keyLoop = 0
  var actions = 0
  var ownerActions = 0

  @MainActor init(_ loaded: LoadedNib, owner: BenchOwner, _ generated: GeneratedNib) throws {
    func require(_ condition: Bool, _ what: @autoclosure () -> String) throws {
      if !condition { throw CheckFailure("load check: \(what())") }
    }
    try require(loaded.warnings.isEmpty, "warnings: \(loaded.warnings.prefix(3))")
    try require(loaded.unknownClassNames.isEmpty, "unknown classes: \(loaded.unknownClassNames.sorted())")
    objects = loaded.objects.count
    for object in loaded.objects {
      if let view = object as? View {
        views += 1
        tagSum += view.tag
        if view.toolTip != nil { toolTips += 1 }
        if view.nextKeyView != nil { keyLoop += 1 }
      }
      if let panel = object as? BenchPanel {
        if panel.caption != nil { captions += 1 }
        accentSum += panel.accentLevel
        try require(panel.awakeCount == 1, "a panel woke \(panel.awakeCount) times")
      }
      if let control = object as? Control {
        controls += 1
        if let action = control.action {
          actions += 1
          if control.target != nil {
            try require(control.target === owner, "control action \(action) targets \(String(describing: control.target))")
            ownerActions += 1
          }
        }
      }
      if let item = object as? MenuItem {
        menuItems += 1
        tagSum += item.tag
        if item.action == "submenuAction:" {
          // The compiler's own: an item with a submenu sends submenuAction: to it, as ibtool writes.
          try require(item.target === item.submenu && item.submenu != nil, "a submenu item does not target its submenu")
        } else if let action = item.action {
          actions += 1
          if item.target != nil {
            try require(item.target === owner, "menu action \(action) targets another object")
            ownerActions += 1
          }
        }
      }
    }
    try require(owner.awakeCount == 1, "File's Owner woke \(owner.awakeCount) times")
    guard let window = owner.window, let content = window.contentView else { throw CheckFailure("load check: no window or content view") }
    try require(window.delegate === owner, "the window's delegate is not File's Owner")
    try require(window.firstResponder === owner.nameField, "the initial first responder is not the first field")
    try require(content.subviews.count == min(8, max(1, generated.groups / 6)), "content view has \(content.subviews.count) columns")
    try require(owner.statusLabel != nil && owner.volumeSlider != nil && owner.okButton != nil && owner.firstPanel != nil, "an outlet is nil")
    try require(owner.nameField?.text == generated.fieldTitles.first, "first field text \(owner.nameField?.text ?? "nil")")
    try require(owner.lastField?.text == generated.fieldTitles.last, "last field text \(owner.lastField?.text ?? "nil")")
    try require(loaded.topLevelObjects.count == 2 && loaded.topLevelObjects[0] === window && loaded.topLevelObjects[1] is Menu,
      "the top-level objects are not the window and the menu")
    try require(tagSum == generated.expectedTagSum, "tag sum \(tagSum), expected \(generated.expectedTagSum)")
    try require(toolTips == generated.expectedToolTips, "\(toolTips) tool tips, expected \(generated.expectedToolTips)")
    try require(captions == generated.expectedCaptions, "\(captions) captions, expected \(generated.expectedCaptions)")
    try require(accentSum == generated.expectedAccentSum, "accent sum \(accentSum), expected \(generated.expectedAccentSum)")
    try require(keyLoop == generated.expectedKeyLoop, "\(keyLoop) key-view links, expected \(generated.expectedKeyLoop)")
    try require(actions == generated.actions, "\(actions) actions connected, expected \(generated.actions)")
    try require(objects >= generated.specCount, "\(objects) live objects, fewer than the \(generated.specCount) written")
  }

  var description: String {
    "objects \(objects), views \(views), controls \(controls), menu items \(menuItems), tag sum \(tagSum), actions \(actions)"
  }
}

/// The decoding step alone, through the public `NibUnarchiver`: every object of the nib made and
/// given its archived values (`initWithCoder:`), placeholders substituted — no layout read, no
/// outlets, actions or runtime attributes, no `awakeFromNib`. What a load costs beyond it is the
/// loader's own work.
@MainActor
struct DecodeStep {
  /// The nib's own objects (NSObjectsKeys and NSOidsKeys, connectors and placeholders left out).
  let objects: [Int]
  let placeholders: [Int]

  init(_ graph: NibGraph) throws {
    func members(_ payload: NIBArchive.Payload?) -> [Int] {
      guard case .object(let index)? = payload else { return [] }
      return graph.members(of: index) ?? []
    }
    guard case .object(let data)? = graph.objects[graph.root]["IB.objectdata"],
      case .object(let owner)? = graph.objects[data]["NSRoot"]
    else { throw CheckFailure("the generated nib has no NSIBObjectData") }
    var placeholders = [owner]
    var objects: [Int] = []
    var seen: Set<Int> = [owner]
    for index in members(graph.objects[data]["NSObjectsKeys"]) + members(graph.objects[data]["NSOidsKeys"])
    where seen.insert(index).inserted {
      let object = graph.objects[index]
      if object.className.hasPrefix("NSNib") || object.className.hasPrefix("NSIB") { continue }
      if object.className == "NSCustomObject", case .object(let name)? = object["NSClassName"],
        let text = graph.text(of: name), text == "FirstResponder" || text == "NSApplication" || text == "NSObject"
      {
        placeholders.append(index)
        continue
      }
      objects.append(index)
    }
    self.objects = objects
    self.placeholders = placeholders
  }

  func run(_ graph: NibGraph, classes: ClassRegistry) throws -> NibUnarchiver {
    let unarchiver = NibUnarchiver(graph: graph, classes: classes, options: .init(isStrict: true))
    for index in placeholders { unarchiver.substitutes[index] = NibObject() }
    for index in objects { _ = try unarchiver.instance(at: index) }
    try unarchiver.finishDecoding()
    return unarchiver
  }
}
