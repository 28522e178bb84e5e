/// The one table of class names and the Swift types they stand for, shared by the keyed
/// unarchiver (`$classname`), the nib loader (`customClass`, NIBArchive class names) and state
/// restoration (restoration classes).
///
/// Swift on Linux has no `NSClassFromString`: a name in a file can only produce a type registered
/// here, which is also what keeps a hostile file from instantiating anything else. Registration
/// is explicit and cheap, done once at start-up:
///
/// ```swift
/// var classes = ClassRegistry()
/// classes.register(Item.self, as: "BNRItem", makeInstance: { Item() })
/// classes.register(ItemCell.self, as: "ItemCell", makeInstanceOnMainActor: { ItemCell() })   // a main-actor class
/// classes.isKind(of: "ItemCell", "UITableViewCell")   // when UITableViewCell is registered as an ancestor
/// ```
///
/// Each module keeps what it needs per class as an **add-on**: the archiver its coding functions
/// (`KeyedArchive`), the nib loader its archived keys. An add-on is any `Sendable` value, stored by
/// its type; ``attach(_:toClassNamed:)`` adds one, ``addOn(_:forClassNamed:)`` reads it.
public struct ClassRegistry: Sendable {
  /// One registered class name.
  public struct Entry: Sendable {
    /// The name in files: `$classname` of a keyed archive, a nib's class name, a xib's
    /// `customClass`.
    public let name: String
    /// The Swift type, as `String(describing:)` spells it.
    public let typeName: String
    /// The type and its superclasses, nearest first (a value type has only itself).
    public let lineage: [ObjectIdentifier]
    let type: RegisteredType
    let makeInstance: Factory?
    var addOns: [ObjectIdentifier: any Sendable] = [:]

    /// The registered Swift type.
    public var swiftType: Any.Type { type.value }
    /// Whether ``ClassRegistry/makeInstanceOnMainActor(ofClassNamed:)`` can make instances of it
    /// (``ClassRegistry/makeInstance(ofClassNamed:)`` too, unless the class is the main actor's).
    public var isInstantiable: Bool { makeInstance != nil }
    /// The factory that makes an instance (`+alloc`/`-init`) on any thread, for loaders that make
    /// many; `nil` for a class made on the main actor only (see ``mainActorFactory``).
    public var factory: (@Sendable () -> AnyObject)? {
      guard case .anywhere(let make)? = makeInstance else { return nil }
      return make
    }
    /// The factory as the main actor calls it: either kind (the nib loader's).
    public var mainActorFactory: (@MainActor @Sendable () -> AnyObject)? {
      switch makeInstance {
      case .anywhere(let make)?: make
      case .mainActor(let make)?: make
      case nil: nil
      }
    }
  }

  /// How a class's instances are made: anywhere (a model class the keyed unarchiver makes), or
  /// on the main actor only (an interface class, as UIKit's are).
  enum Factory: Sendable {
    case anywhere(@Sendable () -> AnyObject)
    case mainActor(@MainActor @Sendable () -> AnyObject)
  }

  /// A metatype, which never changes once made.
  struct RegisteredType: @unchecked Sendable {
    let value: Any.Type
  }

  private(set) var byName: [String: Entry] = [:]
  private(set) var nameByType: [ObjectIdentifier: String] = [:]
  /// Names to try, in order, when a name is not registered (a nib's class-name fallbacks,
  /// `UIImageView` for a custom image-view subclass the program does not have).
  private(set) var fallbacks: [String: [String]] = [:]

  /// An empty registry.
  public init() {}

  // MARK: - Registering

  /// Registers `type` under `name` (replacing an earlier registration of the name). Its lineage
  /// is read from the type itself: a class's superclasses, nearest first.
  ///
  /// - Parameters:
  ///   - type: the Swift type (a class, or a value type known by name only).
  ///   - name: the class name in files.
  ///   - makeInstance: makes a fresh instance (`+alloc` / `-init`), for loaders that create the
  ///     object before they set its keys (the nib loader, two-step unarchiving).
  public mutating func register(_ type: Any.Type, as name: String, makeInstance: (@Sendable () -> AnyObject)? = nil) {
    add(type, as: name, makeInstance: makeInstance.map(Factory.anywhere))
  }

  /// Registers `type` under `name` with a factory that runs on the main actor: a class whose
  /// initializer is the main actor's (the interface classes, `UIView`'s and `NSView`'s stand-ins),
  /// made by ``makeInstanceOnMainActor(ofClassNamed:)`` and the nib loader.
  public mutating func register(
    _ type: Any.Type, as name: String, makeInstanceOnMainActor: @escaping @MainActor @Sendable () -> AnyObject
  ) {
    add(type, as: name, makeInstance: .mainActor(makeInstanceOnMainActor))
  }

  private mutating func add(_ type: Any.Type, as name: String, makeInstance: Factory?) {
    var lineage = [ObjectIdentifier(type)]
    if let classType = type as? AnyClass {
      var ancestor: AnyClass? = _getSuperclass(classType)
      while let current = ancestor {
        lineage.append(ObjectIdentifier(current))
        ancestor = _getSuperclass(current)
      }
    }
    let previous = byName[name]?.addOns ?? [:]
    byName[name] = Entry(
      name: name, typeName: String(describing: type), lineage: lineage, type: RegisteredType(value: type),
      makeInstance: makeInstance, addOns: previous)
    if nameByType[ObjectIdentifier(type)] == nil { nameByType[ObjectIdentifier(type)] = name }
  }

  /// Makes `name` the name ``name(for:)`` answers for its type, when several names are
  /// registered for one type (`NSMutableArray` and `NSArray` both decode as `[Any]`).
  public mutating func makePrimaryName(_ name: String) {
    guard let entry = byName[name] else { return }
    nameByType[entry.lineage[0]] = name
  }

  /// Names to try, in order, when `name` is not registered: what a nib stores as a class-name
  /// fallback, or a known ancestor of an app's class that this program does not have.
  public mutating func setFallbacks(_ names: [String], forClassNamed name: String) {
    fallbacks[name] = names
  }

  /// Stores `addOn` for the class registered as `name`, replacing an add-on of the same type.
  /// Does nothing when `name` is not registered.
  public mutating func attach<AddOn: Sendable>(_ addOn: AddOn, toClassNamed name: String) {
    byName[name]?.addOns[ObjectIdentifier(AddOn.self)] = addOn
  }

  // MARK: - Looking up

  /// The entry registered as `name`, if any (fallbacks are not tried).
  public func entry(named name: String) -> Entry? { byName[name] }

  /// Whether a name is registered.
  public func contains(className name: String) -> Bool { byName[name] != nil }

  /// The registered names, sorted.
  public var classNames: [String] { byName.keys.sorted() }

  /// The name registered for a type, if any (the first registered, or ``makePrimaryName(_:)``'s).
  public func name(for type: Any.Type) -> String? { nameByType[ObjectIdentifier(type)] }

  /// The entry for `name`, or else for the first registered of `alternatives` (a keyed archive's
  /// `$classes` chain, nearest superclass first), or else for the first registered of the
  /// fallbacks set for `name`. Answers the entry and the name it was found under.
  public func resolve(_ name: String, alternatives: [String] = []) -> (entry: Entry, foundAs: String)? {
    if let entry = byName[name] { return (entry, name) }
    for alternative in alternatives { if let entry = byName[alternative] { return (entry, alternative) } }
    for fallback in fallbacks[name] ?? [] { if let entry = byName[fallback] { return (entry, fallback) } }
    return nil
  }

  /// Whether the class registered as `name` is `ancestor` or a subclass of it (`isKindOfClass:`
  /// between names): both must be registered.
  public func isKind(of name: String, _ ancestor: String) -> Bool {
    guard let entry = byName[name], let other = byName[ancestor] else { return false }
    return entry.lineage.contains(other.lineage[0])
  }

  /// Whether `object` is an instance of the class registered as `name`, or of a subclass.
  public func isKind(_ object: AnyObject, of name: String) -> Bool {
    guard let target = byName[name]?.lineage.first else { return false }
    var current: AnyClass? = type(of: object)
    while let candidate = current {
      if ObjectIdentifier(candidate) == target { return true }
      current = _getSuperclass(candidate)
    }
    return false
  }

  /// The registered names of the class registered as `name` and of its registered superclasses,
  /// nearest first (the start of a keyed archive's `$classes`).
  public func registeredLineageNames(of name: String) -> [String] {
    guard let entry = byName[name] else { return [] }
    var names = [name]
    for ancestor in entry.lineage.dropFirst() {
      if let ancestorName = nameByType[ancestor], ancestorName != name { names.append(ancestorName) }
    }
    return names
  }

  /// The add-on of type `AddOn` attached to the class registered as `name`.
  public func addOn<AddOn: Sendable>(_ type: AddOn.Type, forClassNamed name: String) -> AddOn? {
    byName[name]?.addOns[ObjectIdentifier(AddOn.self)] as? AddOn
  }

  /// The add-on of type `AddOn` attached to the name registered for `swiftType`.
  public func addOn<AddOn: Sendable>(_ type: AddOn.Type, for swiftType: Any.Type) -> AddOn? {
    guard let name = nameByType[ObjectIdentifier(swiftType)] else { return nil }
    return addOn(type, forClassNamed: name)
  }

  /// Every registered name with its add-on of type `AddOn`, for building a module's own index.
  public func addOns<AddOn: Sendable>(_ type: AddOn.Type) -> [(name: String, addOn: AddOn)] {
    byName.compactMap { name, entry in (entry.addOns[ObjectIdentifier(AddOn.self)] as? AddOn).map { (name, $0) } }
  }

  // MARK: - Making instances

  /// A fresh instance of the class registered as `name` (or its fallbacks).
  ///
  /// - Throws: `ObjectModelError.Code.unknownClass` when neither `name` nor a fallback is
  ///   registered; `ObjectModelError.Code.notInstantiable` when it has no factory, or only one
  ///   that runs on the main actor (``makeInstanceOnMainActor(ofClassNamed:)`` makes those).
  public func makeInstance(ofClassNamed name: String) throws(ObjectModelError) -> AnyObject {
    let (entry, factory) = try instantiable(name)
    guard case .anywhere(let make) = factory else {
      throw ObjectModelError(
        .notInstantiable, className: name, name: name,
        detail: "the class \(entry.typeName) is made on the main actor only (makeInstanceOnMainActor)")
    }
    return make()
  }

  /// A fresh instance of the class registered as `name` (or its fallbacks), made on the main
  /// actor: any registered factory.
  ///
  /// - Throws: `ObjectModelError.Code.unknownClass`, `ObjectModelError.Code.notInstantiable`, as
  ///   ``makeInstance(ofClassNamed:)``.
  @MainActor public func makeInstanceOnMainActor(ofClassNamed name: String) throws(ObjectModelError) -> AnyObject {
    switch try instantiable(name).factory {
    case .anywhere(let make): make()
    case .mainActor(let make): make()
    }
  }

  private func instantiable(_ name: String) throws(ObjectModelError) -> (entry: Entry, factory: Factory) {
    guard let (entry, _) = resolve(name) else {
      throw ObjectModelError(.unknownClass, className: name, name: name, detail: "no class is registered under the name \(name)")
    }
    guard let factory = entry.makeInstance else {
      throw ObjectModelError(
        .notInstantiable, className: name, name: name, detail: "the class \(entry.typeName) is registered without a way to make instances")
    }
    return (entry, factory)
  }
}
