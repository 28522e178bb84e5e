import Interface

/// Size-class variations (`<variation key="widthClass=regular" …>`) as UIKit's nib encoder
/// writes them: per top-level object that has any, a `_UITraitStorageList` in the root's
/// `UINibTraitStorageListsKey` (`UITopLevelObject`, `UITraitStorages`, `UIDescendants` — the set
/// of the storages' objects other than the top-level one). A storage is
/// - `_UIRelationshipTraitStorage` for a view whose constraints are installed per size class
///   (`<mask key="constraints">`): `UIKeyPath` `traitStorageConstraints`, a record per variation
///   (`UITraitCollection`, the `UIAddedObjects` it includes and `UIRemovedObjects` it excludes)
///   and `UIRelationshipCandidates`, the view's constraints (those without a second item first);
/// - `_UIAttributeTraitStorage` for a value that varies (`UIKeyPath` `encodedConstant` for a
///   constraint's constant, an `_NSLayoutConstraintConstant`; `spacing` for a stack view's, an
///   `NSNumber`): a record per variation, then one for the empty trait collection holding the
///   document's own value.
///
/// Records follow their variation keys' order (`default` < `heightClass=…` < `widthClass=…`).
/// The view's `UIViewAutolayoutConstraints` leave out what the `default` variation excludes.
/// Evidence: the SwiftMessages pairs (Xcode 10.2, 10.3) and mixpanel's Takeover pairs (8.3.3,
/// 9.x), five document families. Two of their quirks are kept: the storages of a view's
/// constraints are listed twice, one group after the other (every sample); not kept: one family
/// (TabView) lists a stack view's storage again for each constraint of the top-level view that
/// reaches it, and one (CenteredView) counts a stack view among the descendants that has no
/// storage — neither has a second sample that explains it.
extension UIKitNibCompiler {
  /// `UITraitCollection`'s builtin trait keys by Interface Builder's variation key names, in
  /// the order UIKit encodes them, with the size class values (`UIUserInterfaceSizeClass`).
  static let sizeClassTraits = [
    ("widthClass", "UITraitCollectionBuiltinTrait-_UITraitNameHorizontalSizeClass"),
    ("heightClass", "UITraitCollectionBuiltinTrait-_UITraitNameVerticalSizeClass"),
  ]
  static let sizeClassValues = ["compact": 1, "regular": 2]

  /// The traits of a variation key (`default`, `widthClass=regular`,
  /// `heightClass=regular-widthClass=compact`) as (trait key, value) in UIKit's order; `nil` for a
  /// key naming a trait other than the size classes (no sample: such a variation is not written).
  public static func traits(ofVariation key: String) -> [(String, Int)]? {
    if key == "default" { return [] }
    var found: [String: Int] = [:]
    for part in key.split(separator: "-") {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2, sizeClassTraits.contains(where: { $0.0 == pair[0] }), let value = sizeClassValues[pair[1]] else { return nil }
      found[pair[0]] = value
    }
    return sizeClassTraits.compactMap { name, key in found[name].map { (key, $0) } }
  }

  /// The constraint ids a document's `default` variations exclude: compiled, but installed only
  /// for the size classes whose variation includes them.
  static func excludedByDefault(_ element: InterfaceDocument.Element) -> Set<String> {
    var result: Set<String> = []
    for variation in element.children("variation") where variation["key"] == "default" {
      for mask in variation.children("mask") where mask["key"] == "constraints" {
        result.formUnion(mask.children("exclude").compactMap { $0["reference"] })
      }
    }
    for child in element.children { result.formUnion(excludedByDefault(child)) }
    return result
  }

  /// The `UINibTraitStorageListsKey` members: a list per top-level object with variations.
  mutating func compileTraitStorageLists(_ topLevel: [(element: InterfaceDocument.Element, object: Int)]) -> [Int] {
    var lists: [Int] = []
    for (element, object) in topLevel {
      var storages: [(storage: Int, object: Int)] = []
      traitStorages(of: element, into: &storages)
      guard !storages.isEmpty else { continue }
      var descendants: [Int] = []
      for (_, owner) in storages where owner != object && !descendants.contains(owner) { descendants.append(owner) }
      lists.append(
        graph.add(
          "_UITraitStorageList",
          [
            .init("UITopLevelObject", .object(object)),
            .init("UITraitStorages", .object(graph.collection("NSArray", storages.map(\.storage)))),
            .init("UIDescendants", .object(graph.collection("NSSet", descendants))),
          ]))
    }
    return lists
  }

  /// A view's storages, then its constraints' (twice), then its subviews', depth first.
  mutating func traitStorages(of element: InterfaceDocument.Element, into storages: inout [(storage: Int, object: Int)]) {
    guard let id = element["id"], let view = objectsByID[id], Self.isView(element) else { return }
    if let storage = relationshipStorage(element, view: view) { storages.append((storage, view)) }
    if element.name == "stackView" {
      let spacings = element.children("variation").compactMap { variation in variation.double("spacing").map { (variation["key"] ?? "", $0) } }
      if !spacings.isEmpty {
        let base = element.double("spacing") ?? 0
        let storage = attributeStorage(view, keyPath: "spacing", spacings, base: base) { compiler, value in compiler.number(value, integer: false) }
        storages.append((storage, view))
      }
    }
    let varying = (element.child("constraints")?.children("constraint") ?? []).filter { constraint in
      !constraint.flag("placeholder") && constraint.children("variation").contains { $0["constant"] != nil }
    }
    for _ in 0..<2 {
      for constraint in varying {
        guard let id = constraint["id"], let object = objectsByID[id] else { continue }
        let constants = constraint.children("variation").compactMap { variation in variation.double("constant").map { (variation["key"] ?? "", $0) } }
        let storage = attributeStorage(object, keyPath: "encodedConstant", constants, base: constraint.double("constant") ?? 0) { compiler, value in
          compiler.graph.add("_NSLayoutConstraintConstant", [.init("UISymbolicConstant", .null), .init("UINumericConstant", .float64(value))])
        }
        storages.append((storage, object))
      }
    }
    for subview in element.child("subviews")?.children ?? [] { traitStorages(of: subview, into: &storages) }
  }

  /// A `UITraitCollection` of the given builtin traits (empty for the base record).
  mutating func traitCollection(_ traits: [(String, Int)]) -> Int {
    graph.add("UITraitCollection", traits.map { NibGraph.Entry($0.0, NibGraph.integer($0.1)) })
  }

  /// An `_UIAttributeTraitStorage`: a record per size-class variation, then the base value.
  mutating func attributeStorage(
    _ object: Int, keyPath: String, _ variations: [(key: String, value: Double)], base: Double,
    value make: (inout UIKitNibCompiler, Double) -> Int
  ) -> Int {
    var records: [Int] = []
    for (key, value) in variations.sorted(by: { $0.key < $1.key }) {
      guard let traits = Self.traits(ofVariation: key), !traits.isEmpty else { continue }
      let collection = traitCollection(traits)
      let value = make(&self, value)
      records.append(graph.add("_UIAttributeTraitStorageRecord", [.init("UITraitCollection", .object(collection)), .init("UIValue", .object(value))]))
    }
    let empty = traitCollection([])
    let baseValue = make(&self, base)
    records.append(graph.add("_UIAttributeTraitStorageRecord", [.init("UITraitCollection", .object(empty)), .init("UIValue", .object(baseValue))]))
    return graph.add(
      "_UIAttributeTraitStorage",
      [
        .init("UIObject", .object(object)), .init("UIKeyPath", .object(graph.string(keyPath))),
        .init("UIRecords", .object(graph.collection("NSMutableArray", records))),
      ])
  }

  /// A view's `_UIRelationshipTraitStorage` of constraints, when a variation masks them.
  mutating func relationshipStorage(_ element: InterfaceDocument.Element, view: Int) -> Int? {
    let masks = element.children("variation").compactMap { variation -> (String, InterfaceDocument.Element)? in
      guard let key = variation["key"], let mask = variation.children("mask").first(where: { $0["key"] == "constraints" }) else { return nil }
      return (key, mask)
    }
    guard !masks.isEmpty else { return nil }
    func objects(_ mask: InterfaceDocument.Element, _ name: String) -> [Int] {
      mask.children(name).compactMap { $0["reference"].flatMap { objectsByID[$0] } }
    }
    var records: [Int] = []
    for (key, mask) in masks.sorted(by: { $0.0 < $1.0 }) {
      guard let traits = Self.traits(ofVariation: key) else { continue }
      let collection = traitCollection(traits)
      let added = graph.collection("NSSet", objects(mask, "include"))
      let removed = graph.collection("NSSet", objects(mask, "exclude"))
      records.append(
        graph.add(
          "_UIRelationshipTraitStorageRecord",
          [.init("UITraitCollection", .object(collection)), .init("UIAddedObjects", .object(added)), .init("UIRemovedObjects", .object(removed))]))
    }
    // The candidates: the view's constraints, those of one item (a size) first.
    let constraints = (element.child("constraints")?.children("constraint") ?? []).filter { !$0.flag("placeholder") }
    let ordered = constraints.filter { $0["secondItem"] == nil && $0["secondAttribute"] == nil } + constraints.filter { $0["secondItem"] != nil || $0["secondAttribute"] != nil }
    let candidates = ordered.compactMap { $0["id"].flatMap { objectsByID[$0] } }
    let set = graph.add("NSOrderedSet", candidates.enumerated().map { NibGraph.Entry("NS.object.\($0.offset)", .object($0.element)) })
    return graph.add(
      "_UIRelationshipTraitStorage",
      [
        .init("UIObject", .object(view)), .init("UIKeyPath", .object(graph.string("traitStorageConstraints"))),
        .init("UIRecords", .object(graph.collection("NSMutableArray", records))), .init("UIRelationshipCandidates", .object(set)),
      ])
  }
}
