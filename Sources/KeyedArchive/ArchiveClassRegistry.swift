/// The explicit table of archived class names and the Swift types they stand for.
///
/// Swift on Linux has no `NSClassFromString`: an archive can only produce types registered
/// here, which is also what keeps hostile archives from instantiating anything else (the
/// object-substitution attack). Registration is cheap and done once, usually at start-up:
///
/// ```swift
/// var registry = ArchiveClassRegistry.foundation   // NSArray, NSString, NSDate, … built in
/// registry.register(Item.self, as: "Item", supportsSecureCoding: true)
/// ```
///
/// The archived name is what Apple's archiver writes as `$classname` (for Swift classes on Apple
/// platforms, the `@objc(Name)` or `Module.Class` name). Superclasses that are registered too
/// appear in `$classes` after it, then `NSObject`.
///
/// The registry is `Sendable`, and its entries create and encode instances on whatever thread
/// archives or unarchives, so the `register` methods require `SendableMetatype`. Every type meets
/// it; what it rules out is a conformance isolated to a global actor
/// (`extension Item: @MainActor ArchiveEncodable`), which could not be used from other threads.
public struct ArchiveClassRegistry: Sendable {
  /// How instances of a registered name come to exist.
  enum Construction: Sendable {
    /// `init(coder:)`: the object exists only after decoding.
    case initializer(@Sendable (ArchiveDecoder) throws -> AnyObject)
    /// `init()` then `decode(from:)`: recorded before decoding, so cycles resolve.
    case inPlace(allocate: @Sendable () -> AnyObject, decode: @Sendable (AnyObject, ArchiveDecoder) throws -> Void)
    /// A value type or a Foundation class mapped to a Swift value.
    case value(@Sendable (ArchiveDecoder) throws -> Any)
  }

  struct Entry: Sendable {
    var name: String
    var type: ObjectIdentifier
    /// The type and its superclasses, nearest first (for "kind of" checks).
    var lineage: [ObjectIdentifier]
    /// `$classes` as this archiver writes it.
    var classChain: [String]
    var construction: Construction
    var supportsSecureCoding: Bool
    /// For instances: writes the object's keys.
    var encode: (@Sendable (Any, ArchiveEncoder) throws -> Void)?
    var typeName: String
    /// The built-in `NSDate` decoder (a date read straight from `NS.time`), which the unarchiver
    /// may run without the general object machinery.
    var isFoundationDate = false
  }

  var byName: [String: Entry] = [:]
  var byType: [ObjectIdentifier: Entry] = [:]

  /// An empty registry: not even Foundation's classes.
  public init() {}

  /// Registers a class decoded by `init(coder:)` under `name`.
  ///
  /// - Parameters:
  ///   - type: the class; the archiver writes its instances under `name`, and the unarchiver
  ///     creates it for objects archived as `name`.
  ///   - name: the archived class name (`$classname`), as Apple's archiver writes it for the
  ///     class on Apple platforms.
  ///   - supportsSecureCoding: this very class opts in to secure decoding
  ///     (`+supportsSecureCoding`). A subclass must be registered with its own `true`; it does not
  ///     inherit its superclass's.
  public mutating func register<T: ArchiveEncodable & ArchiveDecodable & SendableMetatype>(
    _ type: T.Type, as name: String, supportsSecureCoding: Bool = false
  ) {
    add(type, name: name, secure: supportsSecureCoding, construction: .initializer { try T(coder: $0) }) { object, coder in
      try (object as! T).encode(with: coder)
    }
  }

  /// Registers a class decoded in two steps (`init()`, then `decode(from:)`), which may take part
  /// in reference cycles.
  public mutating func register<T: ArchiveEncodable & ArchiveDecodableInPlace & SendableMetatype>(
    _ type: T.Type, as name: String, supportsSecureCoding: Bool = false
  ) {
    add(type, name: name, secure: supportsSecureCoding,
        construction: .inPlace(allocate: { T() }, decode: { object, coder in try (object as! T).decode(from: coder) })) { object, coder in
      try (object as! T).encode(with: coder)
    }
  }

  /// Registers a struct or enum archived as an object of its own.
  public mutating func register<T: ArchiveValueCodable & SendableMetatype>(
    _ type: T.Type, as name: String, supportsSecureCoding: Bool = false
  ) {
    var entry = Entry(
      name: name, type: ObjectIdentifier(type), lineage: [ObjectIdentifier(type)], classChain: [name, "NSObject"],
      construction: .value { try T(coder: $0) }, supportsSecureCoding: supportsSecureCoding,
      encode: { value, coder in try (value as! T).encode(with: coder) }, typeName: String(describing: type))
    if name == "NSObject" { entry.classChain = [name] }
    byName[name] = entry
    byType[ObjectIdentifier(type)] = entry
  }

  private mutating func add<T: AnyObject>(
    _ type: T.Type, name: String, secure: Bool, construction: Construction,
    encode: @escaping @Sendable (Any, ArchiveEncoder) throws -> Void
  ) {
    var lineage: [ObjectIdentifier] = [ObjectIdentifier(type)]
    var ancestor: AnyClass? = _getSuperclass(type)
    while let current = ancestor {
      lineage.append(ObjectIdentifier(current))
      ancestor = _getSuperclass(current)
    }
    let entry = Entry(
      name: name, type: ObjectIdentifier(type), lineage: lineage, classChain: [], construction: construction,
      supportsSecureCoding: secure, encode: encode, typeName: String(describing: type))
    byName[name] = entry
    byType[ObjectIdentifier(type)] = entry
    refreshClassChains()
  }

  /// `$classes` for every registered class: its name, the names of its registered superclasses,
  /// then `NSObject`.
  private mutating func refreshClassChains() {
    for (name, var entry) in byName where entry.classChain.isEmpty || entry.lineage.count > 1 {
      var chain = [entry.name]
      for ancestor in entry.lineage.dropFirst() {
        if let registered = byType[ancestor], registered.name != entry.name { chain.append(registered.name) }
      }
      if chain.last != "NSObject" { chain.append("NSObject") }
      entry.classChain = chain
      byName[name] = entry
      byType[entry.type] = entry
    }
  }

  /// Registers a Foundation class mapped to a Swift value (used for the built-in table).
  mutating func registerFoundation(
    _ name: String, classes: [String], type: Any.Type, isFoundationDate: Bool = false,
    decode: @escaping @Sendable (ArchiveDecoder) throws -> Any
  ) {
    let entry = Entry(
      name: name, type: ObjectIdentifier(type), lineage: [ObjectIdentifier(type)], classChain: classes,
      construction: .value(decode), supportsSecureCoding: true, encode: nil, typeName: String(describing: type),
      isFoundationDate: isFoundationDate)
    byName[name] = entry
    if byType[ObjectIdentifier(type)] == nil { byType[ObjectIdentifier(type)] = entry }
  }

  /// Whether a name is registered.
  public func contains(className name: String) -> Bool { byName[name] != nil }

  /// The archived name registered for a type, if any.
  public func className(for type: Any.Type) -> String? { byType[ObjectIdentifier(type)]?.name }

  /// The archived names registered, sorted.
  public var classNames: [String] { byName.keys.sorted() }
}
