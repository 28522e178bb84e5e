import PropertyLists

/// One archived class name as the archiver writes it: the UID of its class entry
/// (`{$classname, $classes}`) once that is written, and the keys its last object wrote, in order.
///
/// Objects of one class nearly always write the same keys in the same order, so the next object
/// starts from that key list (``ObjectContents``) and, while it writes the same keys, shares the
/// list instead of building its own.
final class ArchivedClass {
  let name: String
  // Touched for every object; the accesses never overlap (see `KeyedArchiver`'s state).
  /// The class entry's UID, once the first object of this name has been written.
  @exclusivity(unchecked) var entryUID: UInt64?
  /// The keys of the last object written under this name.
  @exclusivity(unchecked) var layout: [String] = []

  init(name: String) { self.name = name }
}

/// What the archiver needs to write the instances of one Swift type, looked up once per type
/// (rather than once per object): its registration, class name and version.
final class ArchivedType {
  /// How a registered type is written.
  final class Registration {
    /// The class its instances are archived as (after ``KeyedArchiver/setClassName(_:for:)``).
    let archivedClass: ArchivedClass
    /// `$classes` as the registry gives it.
    let chain: [String]
    /// The type as an ``ArchiveVersioned`` class, if it is one.
    let versioned: (any ArchiveVersioned.Type)?
    /// The registry's `encode(with:)` call.
    let encode: @Sendable (Any, ArchiveEncoder) throws -> Void

    init(
      archivedClass: ArchivedClass, chain: [String], versioned: (any ArchiveVersioned.Type)?,
      encode: @escaping @Sendable (Any, ArchiveEncoder) throws -> Void
    ) {
      self.archivedClass = archivedClass
      self.chain = chain
      self.versioned = versioned
      self.encode = encode
    }

    /// `$classversion`, written when not 0.
    var version: Int { versioned?.archiveVersion ?? 0 }
  }

  /// The Swift type, for error messages.
  let type: Any.Type
  /// Whether the type is an ``ArchiveFoundationValue``, written by its own encoding.
  let isFoundationValue: Bool
  /// `nil` when the type is not registered with archive coding (which is an error to archive
  /// unless the type is a Foundation value).
  let registration: Registration?

  init(type: Any.Type, isFoundationValue: Bool, registration: Registration?) {
    self.type = type
    self.isFoundationValue = isFoundationValue
    self.registration = registration
  }
}

/// The dictionary of the object being written, built with `PropertyListDictionary`'s rules: keys
/// in the order first written, a repeated key replacing its value in place.
///
/// It starts from its class's last key list (``ArchivedClass/layout``). While the object writes
/// that list's keys in the same order, a key needs no search (the list's keys are distinct, so a
/// key equal to the next one in the list equals none before it) and the finished dictionary shares
/// the list's storage. At the first other key it becomes an ordinary `PropertyListDictionary`.
struct ObjectContents {
  /// The keys being followed; this object's keys are its first `values.count`.
  private var layout: [String]
  private var values: [PropertyListValue] = []
  /// The contents once they left the layout.
  private var dictionary: PropertyListDictionary?

  init(following layout: [String]) {
    self.layout = layout
    values.reserveCapacity(layout.count)
  }

  /// Sets `value` for `key`, replacing the value of an equal key already set.
  mutating func set(_ value: PropertyListValue, forKey key: String) {
    if dictionary == nil {
      let position = values.count
      if position < layout.count, layout[position] == key {
        values.append(value)
        return
      }
      dictionary = PropertyListDictionary(uniqueKeys: Array(layout[..<position]), values: values)
      values = []
    }
    dictionary![key] = value
  }

  /// The finished dictionary (whose keys become the class's next layout), taken out of the
  /// builder (which is left empty) so that its storage is not shared with it.
  mutating func take() -> PropertyListDictionary {
    if let dictionary {
      self = ObjectContents(following: [])
      return dictionary
    }
    var keys: [String] = []
    var taken: [PropertyListValue] = []
    swap(&keys, &layout)
    swap(&taken, &values)
    if taken.count < keys.count { keys.removeSubrange(taken.count...) }
    return PropertyListDictionary(uniqueKeys: keys, values: taken)
  }
}
