public import Interface
public import ObjectModel
internal import Foundation

/// Makes the live objects of a nib graph: each object's class is looked up in the class registry
/// (its custom class first — `NSClassName` of `NSCustomObject`/`NSCustomView`/`NSClassSwapper`,
/// `NSWindowClass` of `NSWindowTemplate`, `UIClassName` of `UIClassSwapper` — then the original
/// class and the nib's class-name fallbacks), made with the registry's factory (`alloc`/`init`)
/// and then given its archived values through ``NibDecodable/decode(from:)`` (`initWithCoder:`).
///
/// Objects are made when first referred to and decoded at once, children before the object that
/// refers to them finishes, as `initWithCoder:` recursion does; past a nesting depth of
/// ``Options/eagerDepth`` they are queued and decoded by ``finishDecoding()`` instead, so no
/// graph can exhaust the stack. A reference back to an object still being decoded gets the made
/// object (cycles — superview and subviews — are fine).
///
/// The nib loader (`NibLoading`) drives it: it sets ``substitutes`` for the placeholders (File's
/// Owner, First Responder, external objects), asks for the objects it needs and makes the
/// connections.
@MainActor public final class NibUnarchiver {
  /// How strictly unknown classes are treated, and how deep decoding may nest.
  public struct Options: Sendable {
    /// Strict mode: a class the registry does not know is an error, even when the nib names a
    /// class to fall back on. Lenient mode (the default, as UIKit and AppKit, which log and go
    /// on) makes the custom class's original class, or else a ``GenericObject`` keeping every
    /// archived value.
    public var isStrict: Bool
    /// How deep object decoding nests before further objects are queued.
    public var eagerDepth: Int
    /// How deep value collections (arrays in dictionaries in arrays …) may nest.
    public var maximumValueDepth: Int

    /// Localizes the nib's localizable strings (`NSLocalizableString`, keyed
    /// `<objectID>.<property>` as in the storyboard's `.strings` file): answers the translation
    /// of a key, or `nil` to keep the development string.
    public var localize: (@Sendable (String) -> String?)?

    public init(
      isStrict: Bool = false, eagerDepth: Int = 48, maximumValueDepth: Int = 64, localize: (@Sendable (String) -> String?)? = nil
    ) {
      self.isStrict = isStrict
      self.eagerDepth = eagerDepth
      self.maximumValueDepth = maximumValueDepth
      self.localize = localize
    }
  }

  /// The graph being unarchived.
  public let graph: NibGraph
  /// The registry that turns archived class names into types.
  public let classes: ClassRegistry
  public let options: Options
  /// Objects that stand in for graph objects instead of being made (placeholders), by index.
  public var substitutes: [Int: AnyObject] = [:] { didSet { substituteMarksAreStale = true } }
  /// Which graph indices ``substitutes`` holds, rebuilt after it changes: an untouched object is
  /// looked up in an array instead of hashing its index into the dictionary.
  @exclusivity(unchecked) private var substituteMarks: [Bool] = []
  @exclusivity(unchecked) private var substituteMarksAreStale = true
  /// Indices of the objects made, in the order they were made.
  public private(set) var madeIndices: [Int] = []
  /// What lenient mode let through: classes made as a ``GenericObject``, custom classes that
  /// fell back to their original class. One line each.
  public private(set) var warnings: [String] = []
  /// The archived class names that no registered class answered (made generic in lenient mode).
  public private(set) var unknownClassNames: Set<String> = []

  /// What the unarchiver has done with each graph object, in parallel tables of one slot per
  /// graph object (an enum with payloads would be copied — retained and released — on every
  /// look).
  ///
  /// The tables are buffers the unarchiver allocates and frees itself rather than arrays: every
  /// read of an array held by a class retains and releases its storage, and these are read
  /// several times for each object of a load (profiled: a tenth of making and decoding). Every
  /// index is a graph index, checked against the graph before use (`slotCount` slots). The
  /// unarchiver is `@MainActor` and no access to this state is held across a call, so
  /// the rest of its hot state goes without runtime exclusivity checks (profiled: the checks
  /// were about a twentieth of a load).
  private enum SlotKind: UInt8 {
    case untouched, made, decoded, value
  }
  private let slotCount: Int
  private let kinds: UnsafeMutablePointer<SlotKind>
  private let made: UnsafeMutablePointer<AnyObject?>
  private let values: UnsafeMutablePointer<Any?>
  /// The class kind of each graph object (``ClassKind``), classified when the object is first
  /// looked at; `nil` until then.
  private let classKinds: UnsafeMutablePointer<ClassKind?>
  @exclusivity(unchecked) private var pending: [Int] = []
  @exclusivity(unchecked) private var depth = 0

  /// Whether the graph is a UIKit nib (its root holds `UINibObjectsKey`); decoders read only
  /// their platform's keys.
  public let isUIKit: Bool

  public init(graph: NibGraph, classes: ClassRegistry, options: Options = Options()) {
    self.graph = graph
    self.classes = classes
    self.options = options
    let count = graph.objects.count
    slotCount = count
    kinds = .allocate(capacity: count)
    kinds.initialize(repeating: .untouched, count: count)
    made = .allocate(capacity: count)
    made.initialize(repeating: nil, count: count)
    values = .allocate(capacity: count)
    values.initialize(repeating: nil, count: count)
    classKinds = .allocate(capacity: count)
    classKinds.initialize(repeating: nil, count: count)
    isUIKit = graph.objects.indices.contains(graph.root) && graph.objects[graph.root]["UINibObjectsKey"] != nil
  }

  isolated deinit {
    made.deinitialize(count: slotCount)
    made.deallocate()
    values.deinitialize(count: slotCount)
    values.deallocate()
    kinds.deallocate()
    classKinds.deallocate()
  }

  // MARK: - Objects

  /// The live object at `index`: its substitute, or the object made (and decoded) for it; `nil`
  /// for an object that is a Foundation value (string, number, collection …).
  public func instance(at index: Int) throws(InterfaceObjectsError) -> AnyObject? {
    // Already made: answered without boxing the object into an `Any`.
    if let object = madeObject(at: index) { return object }
    _ = try value(at: index, depth: 0)
    if kinds[index] == .made || kinds[index] == .decoded { return made[index] }
    return substitutes[index]
  }

  /// The object made for `index`, when it has been made; `nil` for anything else (not made yet,
  /// a value, a substitute, outside the graph).
  @inline(__always)
  func madeObject(at index: Int) -> AnyObject? {
    guard index >= 0, index < slotCount, kinds[index] == .made || kinds[index] == .decoded else { return nil }
    return made[index]
  }

  /// The graph index of an object this unarchiver made or substituted.
  public func index(of object: AnyObject) -> Int? {
    if indexByObject.isEmpty || indexByObject.count != madeIndices.count + substitutes.count {
      indexByObject = [:]
      for index in madeIndices { if let object = made[index] { indexByObject[ObjectIdentifier(object)] = index } }
      for (index, substitute) in substitutes { indexByObject[ObjectIdentifier(substitute)] = index }
    }
    return indexByObject[ObjectIdentifier(object)]
  }
  private var indexByObject: [ObjectIdentifier: Int] = [:]

  /// Decodes every object that was made but queued (past ``Options/eagerDepth``), until none is
  /// left.
  public func finishDecoding() throws(InterfaceObjectsError) {
    while let index = pending.popLast() {
      guard kinds[index] == .made, let object = made[index] else { continue }
      try decode(object, at: index)
    }
  }

  /// The value of the graph object at `index`: a Swift value for a Foundation value object, the
  /// live object otherwise (made on first use).
  public func value(ofObjectAt index: Int) throws(InterfaceObjectsError) -> Any? {
    try value(at: index, depth: 0)
  }

  /// The value of an archived payload: a number, a flag, `Data`, `nil`, or what
  /// ``value(ofObjectAt:)`` gives for a reference.
  public func value(of payload: NIBArchive.Payload) throws(InterfaceObjectsError) -> Any? {
    try value(of: payload, key: "", owner: -1)
  }

  func value(of payload: NIBArchive.Payload, key: String, owner: Int) throws(InterfaceObjectsError) -> Any? {
    switch payload {
    case .int8(let value): Int(value)
    case .int16(let value): Int(value)
    case .int32(let value): Int(value)
    case .int64(let value): Int(value)
    case .bool(let flag): flag
    case .float32(let value): Double(value)
    case .float64(let value): value
    case .data(let bytes): Data(bytes)
    case .null: nil
    case .object(let index): try value(at: index, depth: 0)
    }
  }

  func value(at index: Int, depth valueDepth: Int) throws(InterfaceObjectsError) -> Any? {
    guard graph.objects.indices.contains(index) else {
      throw InterfaceObjectsError(.invalidGraph, objectIndex: index, detail: "a reference to object #\(index), outside the graph")
    }
    switch kinds[index] {
    case .made, .decoded: return made[index]
    case .value: return values[index]
    case .untouched: break
    }
    if substituteMarksAreStale { markSubstitutes() }
    if substituteMarks[index], let substitute = substitutes[index] { return substitute }
    if classKind(at: index).isValue,
      let converted = try FoundationValue.convert(graph.objects[index], kind: classKind(at: index), at: index, in: self, depth: valueDepth)
    {
      values[index] = converted.value
      kinds[index] = .value
      return converted.value
    }
    let made = try make(index)
    self.made[index] = made
    kinds[index] = .made
    madeIndices.append(index)
    if depth < options.eagerDepth {
      try decode(made, at: index)
    } else {
      pending.append(index)
    }
    return made
  }

  func number(at index: Int) -> Double? {
    guard graph.objects.indices.contains(index), classKind(at: index) == .number else { return nil }
    return FoundationValue.number(graph.objects[index])
  }

  /// The kind of the class object `index` is archived under, classified once per load.
  func classKind(at index: Int) -> ClassKind {
    if let known = classKinds[index] { return known }
    let kind = ClassKind(className: graph.objects[index].className)
    classKinds[index] = kind
    return kind
  }

  private func markSubstitutes() {
    substituteMarks = Array(repeating: false, count: graph.objects.count)
    for index in substitutes.keys where index >= 0 && index < substituteMarks.count { substituteMarks[index] = true }
    substituteMarksAreStale = false
  }

  /// Cuts the strong reference cycles the nib's objects would otherwise form — through generic
  /// objects (an unknown class's references are all kept, in values and arrays) and through the
  /// `Any`-typed values of menu items (submenu, represented object), cells (formatter, value),
  /// windows (toolbar) and tabs (identifier) — so that nothing outlives its last user. A
  /// depth-first walk over every strong reference (views' subviews, controls' cells, windows'
  /// content, controllers' views and children, menus' items …) from each object that can close a
  /// cycle: a reference back to an object on the walk's path closes one, and it is made weak (a
  /// generic object's), or dropped (an `Any` value, or a view a scroll view, box, table or tab
  /// holds beside its subviews); when the closing reference is one of a known
  /// class's own (a window's content view), the last such cuttable reference on the path is cut
  /// instead. Cycles of known classes alone cannot form (`View/addSubview(_:)` and
  /// `ViewController/addChild(_:)` refuse them). Answers how many references were cut.
  @discardableResult
  public func breakReferenceCycles() -> Int {
    typealias Edge = (target: AnyObject, cut: (() -> Void)?)
    var state: [ObjectIdentifier: Bool] = [:]  // false: on the path; true: finished
    var cut = 0
    /// Each class declares its own references (``NibObject/collectStrongReferences(into:)``).
    func edges(_ object: AnyObject) -> [Edge] {
      guard let object = object as? NibObject else { return [] }
      var references = NibReferences()
      object.collectStrongReferences(into: &references)
      return references.edges
    }
    /// One walk from every object that can close a cycle; answers how many references it cut.
    var verdicts: [ObjectIdentifier: CycleVerdict] = [:]
    func walk() -> Int {
      var cutHere = 0
      state.removeAll(keepingCapacity: true)
      // The objects made, then the placeholders' stand-ins (a File's Owner that is a generic
      // object keeps its outlets strongly).
      let starts = madeIndices.compactMap { made[$0] } + substitutes.keys.sorted().compactMap { substitutes[$0] }
      for start in starts {
        guard Self.mayCloseACycle(start, verdicts: &verdicts), state[ObjectIdentifier(start)] == nil else { continue }
        // The path: each object with its references, the next to follow, and how it was reached.
        var stack: [(object: AnyObject, edges: [Edge], next: Int, reachedBy: (() -> Void)?)] = [(start, edges(start), 0, nil)]
        state[ObjectIdentifier(start)] = false
        while !stack.isEmpty {
          let top = stack.count - 1
          guard stack[top].next < stack[top].edges.count else {
            state[ObjectIdentifier(stack[top].object)] = true
            stack.removeLast()
            continue
          }
          let edge = stack[top].edges[stack[top].next]
          stack[top].next += 1
          switch state[ObjectIdentifier(edge.target)] {
          case false?:
            if let cutIt = edge.cut {
              cutIt()
              cutHere += 1
            } else if let target = stack.lastIndex(where: { $0.object === edge.target }),
              let last = stack[(target + 1)...].lastIndex(where: { $0.reachedBy != nil })
            {
              stack[last].reachedBy?()
              stack[last].reachedBy = nil
              cutHere += 1
            }
          case true?:
            break
          case nil:
            state[ObjectIdentifier(edge.target)] = false
            stack.append((edge.target, edges(edge.target), 0, edge.cut))
          }
        }
      }
      return cutHere
    }
    // Walk again until a walk cuts nothing: cutting one reference on a path can leave another
    // cycle through the same objects, which the next walk finds (each walk cuts at least one
    // reference while a cycle is left, so this ends; at most 256 walks for a hostile graph).
    for _ in 0..<256 {
      let cutHere = walk()
      cut += cutHere
      if cutHere == 0 { break }
    }
    return cut
  }

  /// Whether a walk must start at `object`: generic objects and menus always; menu items,
  /// cells, windows and tabs only when they hold an object in an `Any` value.
  private static func mayCloseACycle(_ object: AnyObject, verdicts: inout [ObjectIdentifier: CycleVerdict]) -> Bool {
    func isObject(_ value: Any?) -> Bool {
      guard let value else { return false }
      return type(of: value) is AnyClass || value is [Any] || value is [String: Any]
    }
    // The casts are made once per class (profiled: up to nine casts for each of a nib's objects
    // was most of cutting cycles); the class's verdict says which instance check applies. The
    // downcasts below are to the class the verdict's cast matched.
    let classID = ObjectIdentifier(Swift.type(of: object))
    let verdict: CycleVerdict
    if let known = verdicts[classID] {
      verdict = known
    } else {
      switch object {
      case is GenericObject, is Menu, is ScrollView, is Box, is TableView, is TabViewItem: verdict = .always
      case is MenuItem: verdict = .menuItem
      case is Cell: verdict = .cell
      case is Window: verdict = .window
      default: verdict = .never
      }
      verdicts[classID] = verdict
    }
    switch verdict {
    case .always: return true
    case .never: return false
    case .menuItem:
      let item = unsafeDowncast(object, to: MenuItem.self)
      return item.submenu != nil || isObject(item.representedObject)
    case .cell:
      let cell = unsafeDowncast(object, to: Cell.self)
      return cell.formatter != nil || isObject(cell.objectValue)
    case .window:
      return unsafeDowncast(object, to: Window.self).toolbar != nil
    }
  }

  /// Which check ``mayCloseACycle(_:verdicts:)`` makes for the instances of one class.
  private enum CycleVerdict {
    case always, never, menuItem, cell, window
  }

  private func decode(_ object: AnyObject, at index: Int) throws(InterfaceObjectsError) {
    kinds[index] = .decoded
    // A class cast first: almost every object is a `NibObject` (which adopts `NibDecodable`),
    // and a cast to a protocol looks the conformance up (profiled). The same method runs.
    if let nibObject = object as? NibObject {
      depth += 1
      defer { depth -= 1 }
      try nibObject.decode(from: NibCoder(unarchiver: self, objectIndex: index))
      return
    }
    guard let decodable = object as? NibDecodable else { return }
    depth += 1
    defer { depth -= 1 }
    try decodable.decode(from: NibCoder(unarchiver: self, objectIndex: index))
  }

  // MARK: - Classes

  /// The class to make for object `index`, then the classes to fall back on, nearest first.
  public func classNames(forObjectAt index: Int) -> [String] {
    let object = graph.objects[index]
    func text(_ key: String) -> String? { graph.text(of: object, forKey: key) }
    var names: [String] = []
    switch object.className {
    case "NSCustomObject":
      names = [text("NSClassName") ?? "NSObject"]
    case "NSCustomView":
      names = [text("NSClassName"), "NSView"].compactMap { $0 }
    case "NSClassSwapper":
      names = [text("NSClassName"), text("NSOriginalClassName")].compactMap { $0 }
    case "NSWindowTemplate":
      names = [text("NSWindowClass"), "NSWindow"].compactMap { $0 }
    case "UIClassSwapper":
      names = [text("UIClassName"), text("UIOriginalClassName")].compactMap { $0 }
    default:
      names = [object.className]
    }
    return names + object.fallbacks
  }

  /// Factories already found, by class name: plain archived class names, and custom class names
  /// that resolved under their own name.
  private var factories: [String: @MainActor @Sendable () -> AnyObject] = [:]

  private func make(_ index: Int) throws(InterfaceObjectsError) -> AnyObject {
    // A custom-class holder (NSCustomObject, NSCustomView, NSClassSwapper, NSWindowTemplate,
    // UIClassSwapper) names its class in its values; any other class is made from its own name.
    let plain = classKind(at: index) != .customClassHolder && graph.objects[index].fallbacks.isEmpty
    if plain {
      let className = graph.objects[index].className
      if let factory = factories[className] { return factory() }
      if let entry = classes.entry(named: className), let factory = entry.mainActorFactory {
        factories[className] = factory
        return factory()
      }
    }
    let names = classNames(forObjectAt: index)
    // A custom class found before under its own name (the first name, first spelling, as the
    // loop below would find it first) is made by the same factory.
    if let first = names.first, let factory = factories[first] { return factory() }
    for (position, name) in names.enumerated() {
      for candidate in Self.spellings(of: name) {
        guard let entry = classes.entry(named: candidate), entry.isInstantiable else { continue }
        if position > 0 {
          unknownClassNames.insert(names[0])
          if options.isStrict {
            throw InterfaceObjectsError(
              .unknownClass, objectIndex: index, className: names[0],
              detail: "no class is registered as \(names[0]) (strict mode; lenient mode would make a \(candidate))")
          }
          warnings.append("object #\(index): unknown class \(names[0]), made as \(candidate)")
        }
        if position == 0, candidate == name, let factory = entry.mainActorFactory { factories[candidate] = factory }
        do {
          return try classes.makeInstanceOnMainActor(ofClassNamed: candidate)
        } catch {
          throw InterfaceObjectsError(.unknownClass, objectIndex: index, className: candidate, detail: error.detail, underlying: error)
        }
      }
    }
    let name = names.first ?? graph.objects[index].className
    unknownClassNames.insert(name)
    if options.isStrict {
      throw InterfaceObjectsError(
        .unknownClass, objectIndex: index, className: name,
        detail: "no class is registered as \(names.joined(separator: " or ")) (strict mode)")
    }
    warnings.append("object #\(index): unknown class \(name), kept as a generic object")
    return GenericObject(className: name)
  }

  /// The names a registered class may be found under: the archived name, and for a Swift class's
  /// mangled name (`_TtC7TestApp11AppDelegate`) `TestApp.AppDelegate` and `AppDelegate`.
  static func spellings(of name: String) -> [String] {
    guard name.hasPrefix("_TtC") else { return [name] }
    var parts: [String] = []
    var rest = Substring(name.dropFirst(4))
    while !rest.isEmpty {
      let digits = rest.prefix(while: \.isNumber)
      guard let length = Int(digits), length > 0, length <= rest.count - digits.count else { return [name] }
      rest = rest.dropFirst(digits.count)
      parts.append(String(rest.prefix(length)))
      rest = rest.dropFirst(length)
    }
    guard parts.count >= 2 else { return [name] }
    return [name, parts.joined(separator: "."), parts[parts.count - 1]]
  }
}

/// A decoded Foundation value object (so that a stored `nil` differs from "not a value").
struct ConvertedValue {
  let value: Any?
}

/// The Foundation classes a nib stores as values, and the Swift values they become.
enum FoundationValue {
  /// The numbers of a geometry string as `NSStringFromCGRect` writes it (`{{1, 2}, {3.5, 4}}`,
  /// `{1, 2}`), or `nil` when a part between the braces and commas is not a number.
  static func geometryNumbers(inText text: String) -> [Double]? {
    let parts = text.split { "{}, ".contains($0) }
    guard !parts.isEmpty, parts.count <= 4 else { return nil }
    var numbers: [Double] = []
    for part in parts {
      guard let number = Double(part), number.isFinite else { return nil }
      numbers.append(number)
    }
    return numbers
  }

  static func number(_ object: NibGraph.Object) -> Double? {
    switch object["NS.intval"] ?? object["NS.dblval"] ?? object["NS.boolval"] {
    case .int8(let value)?: Double(value)
    case .int16(let value)?: Double(value)
    case .int32(let value)?: Double(value)
    case .int64(let value)?: Double(value)
    case .float32(let value)?: Double(value)
    case .float64(let value)?: value
    case .bool(let flag)?: flag ? 1 : 0
    default: nil
    }
  }

  @MainActor static func convert(
    _ object: NibGraph.Object, kind: ClassKind, at index: Int, in unarchiver: NibUnarchiver, depth: Int
  ) throws(InterfaceObjectsError) -> ConvertedValue? {
    let graph = unarchiver.graph
    func tooDeep() -> InterfaceObjectsError {
      InterfaceObjectsError(
        .invalidGraph, objectIndex: index, className: object.className,
        detail: "collections nest more than \(unarchiver.options.maximumValueDepth) deep (or contain themselves)")
    }
    switch kind {
    case .object, .customClassHolder:
      return nil
    case .string:
      return ConvertedValue(value: graph.text(of: index) ?? "")
    case .localizableString:
      let development = graph.text(of: index) ?? ""
      if let localize = unarchiver.options.localize, case .object(let keyIndex)? = object["NSKey"],
        graph.objects.indices.contains(keyIndex), let key = graph.text(of: keyIndex), let translated = localize(key)
      {
        return ConvertedValue(value: translated)
      }
      return ConvertedValue(value: development)
    case .geometryValue:
      // Geometry as CocoaTouchCompiler writes runtime attributes: NS.pointval, NS.sizeval or
      // NS.rectval holding UIKit's geometry data. Other NSValues stay generic objects.
      // Apple's UIKit encoding (`NS.special` beside it) holds the value as text instead,
      // `{{275, 110}, {51, 31}}` (a switch's `frame` runtime attribute).
      for key in ["NS.pointval", "NS.sizeval", "NS.rectval"] {
        let numbers: [Double]
        switch object[key] {
        case .data(let bytes)?:
          guard let decoded = Geometry.numbers(inData: bytes) else { continue }
          numbers = decoded
        case .object(let textIndex)?:
          guard let text = graph.text(of: textIndex), let parsed = Self.geometryNumbers(inText: text) else { continue }
          numbers = parsed
        default: continue
        }
        switch (key, numbers.count) {
        case ("NS.pointval", 2): return ConvertedValue(value: CGPoint(x: numbers[0], y: numbers[1]))
        case ("NS.sizeval", 2): return ConvertedValue(value: CGSize(width: numbers[0], height: numbers[1]))
        case ("NS.rectval", 4): return ConvertedValue(value: CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
        default: return nil
        }
      }
      return nil
    case .number:
      if case .float64(let value)? = object["NS.dblval"] { return ConvertedValue(value: value) }
      if case .float32(let value)? = object["NS.dblval"] { return ConvertedValue(value: Double(value)) }
      if case .bool(let flag)? = object["NS.boolval"] { return ConvertedValue(value: flag) }
      return ConvertedValue(value: number(object).map { Int(exactly: $0) ?? 0 } ?? 0)
    case .collection:
      guard depth < unarchiver.options.maximumValueDepth else { throw tooDeep() }
      var members: [Any] = []
      for member in graph.members(of: index) ?? [] {
        if let value = try unarchiver.value(at: member, depth: depth + 1) { members.append(value) }
      }
      return ConvertedValue(value: members)
    case .dictionary:
      guard depth < unarchiver.options.maximumValueDepth else { throw tooDeep() }
      let members = graph.members(of: index) ?? []
      var dictionary: [String: Any] = [:]
      var position = 0
      while position + 1 < members.count {
        let key = try unarchiver.value(at: members[position], depth: depth + 1)
        let value = try unarchiver.value(at: members[position + 1], depth: depth + 1)
        dictionary[key.map { "\($0)" } ?? "<null>"] = value
        position += 2
      }
      return ConvertedValue(value: dictionary)
    case .data:
      if case .data(let bytes)? = object["NS.bytes"] { return ConvertedValue(value: Data(bytes)) }
      return ConvertedValue(value: Data())
    case .date:
      switch object["NS.time"] {
      case .float64(let time)?: return ConvertedValue(value: Date(timeIntervalSinceReferenceDate: time))
      default: return ConvertedValue(value: nil)
      }
    case .null:
      return ConvertedValue(value: nil)
    case .url:
      var text: String?
      if case .object(let relative)? = object["NS.relative"] { text = graph.text(of: relative) }
      return ConvertedValue(value: text.flatMap { URL(string: $0) })
    case .color:
      return ConvertedValue(value: try Color(object, at: index, in: unarchiver))
    case .font:
      return ConvertedValue(value: Font(object, in: graph))
    case .image:
      return ConvertedValue(value: Image(object, in: graph))
    }
  }
}

/// What the unarchiver does with an archived class name: a Foundation value class becomes a Swift
/// value (``FoundationValue``), a custom-class holder names the class to make in its values, and
/// any other class is made through the registry.
enum ClassKind: UInt8 {
  case object, customClassHolder
  case string, localizableString, geometryValue, number, collection, dictionary, data, date, null, url, color, font, image

  /// Whether objects of this kind are converted to Swift values (`NSValue` only for geometry).
  var isValue: Bool { self != .object && self != .customClassHolder }

  /// The kind of `className`. The names are grouped by UTF-8 length, so a class name is compared
  /// with the one to four names of its length instead of every name in turn (this runs once for
  /// every object a load looks at).
  init(className: String) {
    let count = className.utf8.count
    guard count < Self.namesByLength.count else {
      self = .object
      return
    }
    for (name, kind) in Self.namesByLength[count] where name == className {
      self = kind
      return
    }
    self = .object
  }

  private static let names: [(String, ClassKind)] = [
    ("NSString", .string), ("NSMutableString", .string), ("NSLocalizableString", .localizableString),
    ("NSValue", .geometryValue), ("NSNumber", .number),
    ("NSArray", .collection), ("NSMutableArray", .collection), ("NSSet", .collection), ("NSMutableSet", .collection),
    ("NSOrderedSet", .collection), ("NSMutableOrderedSet", .collection),
    ("NSDictionary", .dictionary), ("NSMutableDictionary", .dictionary),
    ("NSData", .data), ("NSMutableData", .data), ("NSDate", .date), ("NSNull", .null), ("NSURL", .url),
    ("NSColor", .color), ("UIColor", .color), ("NSFont", .font), ("UIFont", .font),
    ("NSCustomResource", .image), ("UIImageNibPlaceholder", .image),
    ("NSCustomObject", .customClassHolder), ("NSCustomView", .customClassHolder), ("NSClassSwapper", .customClassHolder),
    ("NSWindowTemplate", .customClassHolder), ("UIClassSwapper", .customClassHolder),
  ]

  /// ``names`` by UTF-8 length.
  private static let namesByLength: [[(String, ClassKind)]] = {
    var table = Array(repeating: [(String, ClassKind)](), count: 1 + names.map { $0.0.utf8.count }.max()!)
    for (name, kind) in names { table[name.utf8.count].append((name, kind)) }
    return table
  }()
}
