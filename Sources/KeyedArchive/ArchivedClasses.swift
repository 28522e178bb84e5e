import PropertyLists

/// One archived class name as the archiver writes it: the UID of its class entry
/// (`{$classname, $classes}`) once that is written, and the keys its last object wrote, in order.
///
/// Objects of one class nearly always write the same keys in the same order, so the next object
/// starts from that key list (``ObjectContents``) and, while it writes the same keys, shares the
/// list (and its layout number) instead of building its own.
final class ArchivedClass {
  let name: String
  // Touched for every object; the accesses never overlap (see `KeyedArchiver`'s state).
  /// The class entry's UID, once the first object of this name has been written.
  @exclusivity(unchecked) var entryUID: UInt64?
  /// The keys of the last object written under this name, and their number in the archiver's
  /// ``ArchiveObjectTable/layouts``.
  @exclusivity(unchecked) var layout: [String] = []
  @exclusivity(unchecked) var layoutNumber: UInt32 = 0

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
