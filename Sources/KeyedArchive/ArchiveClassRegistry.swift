public import ObjectModel

/// The explicit table of archived class names and the Swift types they stand for: the shared
/// `ClassRegistry` (names, types, lineage, fallbacks) with each class's archive
/// coding attached to it as an add-on.
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
/// The nib loader and state restoration read the same ``classes`` table: one registration makes
/// a class known to every module.
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

  /// The archive coding of one registered class: the add-on this module attaches to the
  /// `ClassRegistry` entry.
  struct ArchiveCoding: Sendable {
    /// `$classes` as this archiver writes it; `nil` means "the registered lineage, then NSObject".
    var fixedClassChain: [String]?
    var construction: Construction
    var supportsSecureCoding: Bool
    /// For instances: writes the object's keys.
    var encode: (@Sendable (Any, ArchiveEncoder) throws -> Void)?
    /// The built-in `NSDate` decoder (a date read straight from `NS.time`), which the unarchiver
    /// may run without the general object machinery.
    var isFoundationDate = false
  }

  /// A registered name with its archive coding, as the archiver and unarchiver use it.
  struct Entry: Sendable {
    var name: String
    var type: ObjectIdentifier
    /// The type and its superclasses, nearest first (for "kind of" checks).
    var lineage: [ObjectIdentifier]
    /// `$classes` as this archiver writes it.
    var classChain: [String]
    var construction: Construction
    var supportsSecureCoding: Bool
    var encode: (@Sendable (Any, ArchiveEncoder) throws -> Void)?
    var typeName: String
    var isFoundationDate: Bool
  }

  /// The class table shared with the nib loader and restoration: names, Swift types, lineage,
  /// fallbacks, and every module's add-ons. Classes registered here without archive coding are
  /// known by name but cannot be archived.
  public private(set) var classes: ClassRegistry

  /// An empty registry: not even Foundation's classes.
  public init() { classes = ClassRegistry() }

  /// A registry over an existing class table (for example one the nib loader filled), to which
  /// archive coding is then added.
  public init(classes: ClassRegistry) { self.classes = classes }

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
    add(type, name: name, makeInstance: nil, coding: ArchiveCoding(
      construction: .initializer { try T(coder: $0) }, supportsSecureCoding: supportsSecureCoding,
      encode: { object, coder in try (object as! T).encode(with: coder) }))
  }

  /// Registers a class decoded in two steps (`init()`, then `decode(from:)`), which may take part
  /// in reference cycles.
  public mutating func register<T: ArchiveEncodable & ArchiveDecodableInPlace & SendableMetatype>(
    _ type: T.Type, as name: String, supportsSecureCoding: Bool = false
  ) {
    add(type, name: name, makeInstance: { T() }, coding: ArchiveCoding(
      construction: .inPlace(allocate: { T() }, decode: { object, coder in try (object as! T).decode(from: coder) }),
      supportsSecureCoding: supportsSecureCoding, encode: { object, coder in try (object as! T).encode(with: coder) }))
  }

  /// Registers a struct or enum archived as an object of its own.
  public mutating func register<T: ArchiveValueCodable & SendableMetatype>(
    _ type: T.Type, as name: String, supportsSecureCoding: Bool = false
  ) {
    add(type, name: name, makeInstance: nil, coding: ArchiveCoding(
      fixedClassChain: name == "NSObject" ? [name] : [name, "NSObject"],
      construction: .value { try T(coder: $0) }, supportsSecureCoding: supportsSecureCoding,
      encode: { value, coder in try (value as! T).encode(with: coder) }))
  }

  private mutating func add(
    _ type: Any.Type, name: String, makeInstance: (@Sendable () -> AnyObject)?, coding: ArchiveCoding
  ) {
    classes.register(type, as: name, makeInstance: makeInstance)
    classes.makePrimaryName(name)
    classes.attach(coding, toClassNamed: name)
  }

  /// Registers a Foundation class mapped to a Swift value (used for the built-in table). The
  /// first name registered for a type is the one it is archived under.
  mutating func registerFoundation(
    _ name: String, classes chain: [String], type: Any.Type, isFoundationDate: Bool = false,
    decode: @escaping @Sendable (ArchiveDecoder) throws -> Any
  ) {
    classes.register(type, as: name)
    classes.attach(
      ArchiveCoding(
        fixedClassChain: chain, construction: .value(decode), supportsSecureCoding: true, encode: nil,
        isFoundationDate: isFoundationDate),
      toClassNamed: name)
  }

  // MARK: - Lookups for the archiver and unarchiver

  /// The entry registered as `name`, when it has archive coding.
  func entry(named name: String) -> Entry? {
    guard let registered = classes.entry(named: name), let coding = classes.addOn(ArchiveCoding.self, forClassNamed: name)
    else { return nil }
    return Entry(
      name: name, type: registered.lineage[0], lineage: registered.lineage,
      classChain: coding.fixedClassChain ?? classChain(of: name), construction: coding.construction,
      supportsSecureCoding: coding.supportsSecureCoding, encode: coding.encode, typeName: registered.typeName,
      isFoundationDate: coding.isFoundationDate)
  }

  /// The entry of the name a type is archived under.
  func entry(for type: Any.Type) -> Entry? {
    guard let name = classes.name(for: type) else { return nil }
    return entry(named: name)
  }

  /// `$classes` of a registered class: its name, the names of its registered superclasses, then
  /// `NSObject`.
  private func classChain(of name: String) -> [String] {
    var chain = classes.registeredLineageNames(of: name)
    if chain.last != "NSObject" { chain.append("NSObject") }
    return chain
  }

  /// The names whose Swift type is `type`.
  func names(registeredFor type: ObjectIdentifier) -> [String] {
    classes.addOns(ArchiveCoding.self).compactMap { name, _ in
      classes.entry(named: name)?.lineage[0] == type ? name : nil
    }
  }

  /// Whether a name is registered.
  public func contains(className name: String) -> Bool { classes.contains(className: name) }

  /// The archived name registered for a type, if any.
  public func className(for type: Any.Type) -> String? { classes.name(for: type) }

  /// The archived names registered, sorted.
  public var classNames: [String] { classes.classNames }
}
