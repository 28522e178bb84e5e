public import Foundation
public import ObjectModel

/// The keys of one interface class, declared once: for each property, the nib keys its
/// `initWithCoder:` reads it from and how (text, an integer, an object of a class, …), and the
/// key-value-coding name it answers to, if it has one. ``NibObject/decode(from:)`` runs the
/// decode steps of the object's class (its superclasses' first); ``keyTable`` is the class's
/// `KeyTable` for `valueForKey:` and `setValue:forKey:` (outlets and runtime attributes).
///
/// ```swift
/// public static let barItemKeys = NibKeyTable(for: BarItem.self) {
///   $0.string(\.title, from: "UITitle", key: "title") { $0.title = $1 } { $0.title = $1 }
///   $0.integer(\.tag, from: "UITag", key: "tag") { $0.tag = $1 } { $0.tag = $1 }
///   $0.key("target", \.target)  // key-value coding only (an outlet)
/// }
/// open override class var nibKeyTable: NibKeyTable { barItemKeys }
/// ```
///
/// The steps run in the order declared, a superclass's before its subclass's, as a chain of
/// `initWithCoder:` calls reads them: the order in which referenced objects are made (a view
/// adding itself to its superview) is the archive's. A key the archive does not have leaves the
/// property as `init()` made it (Apple's decoders read each key with its default). Given several
/// nib keys, the first one present is read (a newer key before its older spelling:
/// `NSFirstAttributeV2`, then `NSFirstAttribute`). Steps declared in ``Builder/appKit(_:)`` or
/// ``Builder/uiKit(_:)`` run only for objects of that platform's nibs (their key-value-coding
/// names hold on both); what does more than
/// assign one key to one property (a flags word, geometry, a parent link) is a
/// ``Builder/decode(_:)`` step.
///
/// Each property's setter is written where the class declares it (`{ $0.title = $1 }`), so that
/// the decode step assigns the property directly; its key path serves key-value coding only
/// (writing through a key path at run time cost the decode loop about a tenth, profiled). The
/// steps are plain closures made on the main actor (no `@Sendable` or `@MainActor` in their type:
/// a thunk converting to those checked the executor on every call, profiled), and each property's
/// is made where the class declares it (`@inline(__always)`), so that it is specialized for the
/// property's type.
public struct NibKeyTable {
  /// One property's decoding: reads its keys from the coder and assigns what it found. A struct
  /// around the closure, so that an array of steps holds it as it is called (an array of bare
  /// closures holds them at the most general abstraction: a reabstraction thunk on every call,
  /// profiled).
  struct Step {
    let run: Run
  }
  typealias Run = (NibObject, NibCoder) throws(InterfaceObjectsError) -> Void

  /// The steps for objects of AppKit nibs and of UIKit nibs, each in order (a step for both
  /// platforms is in both): as declared, which a subclass's table starts from, and as one call.
  /// A reference, so that taking the table out of its class for a decode copies one.
  final class Steps {
    let appKit: [Step], uiKit: [Step]
    let appKitRun: Run, uiKitRun: Run

    init(appKit: [Step] = [], uiKit: [Step] = []) {
      self.appKit = appKit
      self.uiKit = uiKit
      appKitRun = Self.composed(appKit[...])
      uiKitRun = Self.composed(uiKit[...])
    }

    /// `steps` as one call: a balanced tree of closures, each calling its two halves in order. A
    /// closure calls those its context holds without retaining them, where a loop over the array
    /// retained and released every step around its call (profiled).
    private static func composed(_ steps: ArraySlice<Step>) -> Run {
      // Not `steps.first?.run ?? …`: the generic `??` would hold the closure at the most general
      // abstraction, a reabstraction thunk pair around every call (profiled).
      if steps.isEmpty { return { _, _ in } }
      if steps.count == 1 { return steps[steps.startIndex].run }
      let middle = steps.startIndex + steps.count / 2
      let first = composed(steps[..<middle]), second = composed(steps[middle...])
      return { object, coder throws(InterfaceObjectsError) in
        try first(object, coder)
        try second(object, coder)
      }
    }
  }
  let steps: Steps

  /// The class's keys for key-value coding.
  public let keyTable: KeyTable

  /// An empty table (`NSObject`'s: nothing to decode, no keys).
  public init() {
    steps = Steps()
    keyTable = KeyTable()
  }

  /// The table of the class `Object`: `inheriting`'s steps and keys (the superclass's table),
  /// then those `build` adds; a key of the same name replaces the inherited one.
  @MainActor public init<Object: NibObject>(
    for type: Object.Type, inheriting inherited: NibKeyTable = NibKeyTable(), _ build: (inout Builder<Object>) -> Void
  ) {
    var builder = Builder<Object>(inherited: inherited.steps)
    build(&builder)
    steps = Steps(appKit: builder.appKit, uiKit: builder.uiKit)
    let keys = builder.keys
    keyTable = KeyTable(for: type, inheriting: inherited.keyTable) { table in
      for add in keys { add(&table) }
    }
  }

  /// Runs the steps for `object`, which is of the table's class or a subclass of it.
  @MainActor func decode(_ object: NibObject, from coder: NibCoder) throws(InterfaceObjectsError) {
    try (coder.isUIKit ? steps.uiKitRun : steps.appKitRun)(object, coder)
  }

  /// Adds the properties of the class `Object` to a ``NibKeyTable``.
  @MainActor public struct Builder<Object: NibObject> {
    fileprivate var appKit: [Step], uiKit: [Step]
    fileprivate var keys: [(inout KeyTable.Builder<Object>) -> Void] = []
    /// Where new steps go: nil for both platforms.
    private var platform: Bool?

    fileprivate init(inherited: Steps) {
      appKit = inherited.appKit
      uiKit = inherited.uiKit
    }

    /// Declares steps that run only for objects of AppKit nibs.
    public mutating func appKit(_ build: (inout Self) -> Void) { scoped(false, build) }

    /// Declares steps that run only for objects of UIKit nibs.
    public mutating func uiKit(_ build: (inout Self) -> Void) { scoped(true, build) }

    private mutating func scoped(_ uiKit: Bool, _ build: (inout Self) -> Void) {
      let outer = platform
      platform = uiKit
      build(&self)
      platform = outer
    }

    // MARK: Key-value coding only

    /// A settable key with no nib key of its own (an outlet, a runtime attribute).
    public mutating func key<Value>(_ name: String, _ path: ReferenceWritableKeyPath<Object, Value>) {
      keys.append { $0.key(name, path) }
    }

    /// A read-only key backed by a property or a computed value.
    public mutating func readOnlyKey<Value>(_ name: String, _ path: KeyPath<Object, Value>) {
      keys.append { $0.readOnlyKey(name, path) }
    }

    /// A key with a hand-written getter and setter (a key that is not a stored property, or
    /// whose setter does more than assign).
    public mutating func key<Value>(
      _ name: String, get: @escaping @MainActor @Sendable (Object) -> Value, set: @escaping @MainActor @Sendable (Object, Value) -> Void
    ) {
      keys.append { $0.key(name, get: get, set: set) }
    }

    // MARK: Decoded properties

    /// A property read by `read` from the first of `nibKeys` it finds, assigned by `set`, and
    /// answering to the key-value-coding name `key` (through `path`) when there is one. `read`
    /// answers nil for an absent key, which leaves the property as it is.
    @inline(__always)
    private mutating func field<Value, Read>(
      _ path: ReferenceWritableKeyPath<Object, Value>, _ nibKeys: [String], key: String?,
      read: @escaping (NibCoder, String) throws(InterfaceObjectsError) -> Read?, set: @escaping (Object, Read) -> Void
    ) {
      if let key { keys.append { $0.key(key, path) } }
      guard nibKeys.count > 1 else {
        let nibKey = nibKeys[0]
        return add { object, coder throws(InterfaceObjectsError) in
          if let value = try read(coder, nibKey) { set(unsafeDowncast(object, to: Object.self), value) }
        }
      }
      add { object, coder throws(InterfaceObjectsError) in
        for nibKey in nibKeys {
          guard let value = try read(coder, nibKey) else { continue }
          return set(unsafeDowncast(object, to: Object.self), value)
        }
      }
    }

    private mutating func add(_ run: @escaping (NibObject, NibCoder) throws(InterfaceObjectsError) -> Void) {
      let step = Step(run: run)
      if platform != true { appKit.append(step) }
      if platform != false { uiKit.append(step) }
    }

    /// A step that does more than assign one key to one property: reads a flags word, geometry,
    /// a parent link (the object is of the class `Object`).
    public mutating func decode(_ body: @escaping (Object, NibCoder) throws(InterfaceObjectsError) -> Void) {
      add { object, coder throws(InterfaceObjectsError) in try body(unsafeDowncast(object, to: Object.self), coder) }
    }

    /// Text: an `NSString` reference or UTF-8 bytes (`decodeObjectForKey:` of a string).
    @inline(__always)
    public mutating func string(
      _ path: ReferenceWritableKeyPath<Object, String>, from nibKeys: String..., key: String? = nil,
      set: @escaping (Object, String) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeString(forKey: nibKey) }, set: set)
    }

    /// Optional text, read as for a `String` property.
    @inline(__always)
    public mutating func string(
      _ path: ReferenceWritableKeyPath<Object, String?>, from nibKeys: String..., key: String? = nil,
      set: @escaping (Object, String) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeString(forKey: nibKey) }, set: set)
    }

    /// An integer (`decodeIntegerForKey:`).
    @inline(__always)
    public mutating func integer(
      _ path: ReferenceWritableKeyPath<Object, Int>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, Int) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey in coder.decodeInteger(forKey: nibKey) }, set: set)
    }

    /// An optional integer: nil when the archive has none.
    @inline(__always)
    public mutating func integer(
      _ path: ReferenceWritableKeyPath<Object, Int?>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, Int) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey in coder.decodeInteger(forKey: nibKey) }, set: set)
    }

    /// A floating-point number (`decodeDoubleForKey:`).
    @inline(__always)
    public mutating func double(
      _ path: ReferenceWritableKeyPath<Object, Double>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, Double) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey in coder.decodeDouble(forKey: nibKey) }, set: set)
    }

    /// A size: AppKit's `NSStringFromSize` text (`{w, h}`) or UIKit's geometry data.
    @inline(__always)
    public mutating func size(
      _ path: ReferenceWritableKeyPath<Object, CGSize?>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, CGSize) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeSize(forKey: nibKey) }, set: set)
    }

    /// A rectangle: AppKit's `NSStringFromRect` text (`{{x, y}, {w, h}}`) or UIKit's geometry data.
    @inline(__always)
    public mutating func rect(
      _ path: ReferenceWritableKeyPath<Object, CGRect>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, CGRect) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeRect(forKey: nibKey) }, set: set)
    }

    /// A boolean (`decodeBoolForKey:`); `inverted` for a key that archives the opposite
    /// (`NSIsDisabled` for `enabled`).
    @inline(__always)
    public mutating func bool(
      _ path: ReferenceWritableKeyPath<Object, Bool>, from nibKeys: String..., inverted: Bool = false, key: String? = nil,
      set: @escaping (Object, Bool) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey in coder.decodeBool(forKey: nibKey).map { $0 != inverted } }, set: set)
    }

    /// An object of the type `T` (`decodeObjectForKey:`): a live object, or a value such as a
    /// ``Color`` or an ``Image``; anything else reads as absent.
    @inline(__always)
    public mutating func object<T>(
      _ path: ReferenceWritableKeyPath<Object, T?>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, T) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeObject(forKey: nibKey, as: T.self) }, set: set)
    }

    /// Any value (`decodeObjectForKey:`): an object, or a Foundation value as a Swift value.
    @inline(__always)
    public mutating func value(
      _ path: ReferenceWritableKeyPath<Object, Any?>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, Any) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeObject(forKey: nibKey) }, set: set)
    }

    /// A live object (made, or a placeholder's stand-in) of the class `T`, as a weak link holds
    /// it: a delegate, a target, a link back up the tree.
    @inline(__always)
    public mutating func reference<T: AnyObject>(
      _ path: ReferenceWritableKeyPath<Object, T?>, from nibKeys: String..., key: String? = nil, set: @escaping (Object, T) -> Void
    ) {
      field(path, nibKeys, key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeReference(forKey: nibKey) as? T }, set: set)
    }

    /// The members of class `T` of a collection (an inlined `NSArray`/`NSSet`), in order; empty
    /// when the archive has none.
    @inline(__always)
    public mutating func array<T>(
      _ path: ReferenceWritableKeyPath<Object, [T]>, from nibKey: String, key: String? = nil, set: @escaping (Object, [T]) -> Void
    ) {
      field(path, [nibKey], key: key, read: { coder, nibKey throws(InterfaceObjectsError) in try coder.decodeArray(forKey: nibKey, of: T.self) }, set: set)
    }
  }
}

extension KeyTable {
  /// A key table extending an interface class's (`ViewController.viewControllerKeys`): an app
  /// class's outlets and attributes on top of the keys of the class it subclasses.
  @MainActor public init<Object: AnyObject>(
    for type: Object.Type, inheriting inherited: NibKeyTable, _ build: (inout Builder<Object>) -> Void
  ) {
    self.init(for: type, inheriting: inherited.keyTable, build)
  }
}
