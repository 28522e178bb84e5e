public import FoundationEssentials
public import PropertyLists

/// What an object's `encode(with:)` writes through: Apple's `NSKeyedArchiver` seen as an
/// `NSCoder`. Scalars are stored inline in the object's dictionary under the given key; objects are
/// stored as UID references into `$objects`.
public final class ArchiveEncoder {
  @exclusivity(unchecked) unowned(unsafe) var archiver: KeyedArchiver!
  // Touched for every key; the accesses never overlap (see `KeyedArchiver`'s state).
  /// The object being written (its values are the top of the archiver's pending stack).
  @exclusivity(unchecked) var contents = ObjectContents(following: [], number: 0, mark: 0, uidMark: 0)
  @exclusivity(unchecked) var currentObject = 0

  init() {}

  @inline(__always)
  func set(_ slot: ArchiveSlot, _ key: String) {
    archiver.table.set(slot, forKey: KeyedArchiver.escape(key), in: &contents)
  }

  @inline(__always)
  func set(_ value: PropertyListValue, _ key: String) {
    let slot = archiver.table.slot(value)
    set(slot, key)
  }

  @inline(__always)
  func setUID(_ uid: UInt64, _ key: String) { set(ArchiveSlot(.uid, uid), key) }

  /// Sets the UIDs pushed onto the archiver's pending UIDs from `mark` as an array under `key`
  /// (unescaped: Foundation's own keys), taking them off the stack.
  func setUIDs(from mark: Int, forKey key: String) {
    let slot = archiver.table.uidRun(from: mark)
    archiver.table.set(slot, forKey: key, in: &contents)
  }

  @inline(__always)
  func setInteger(_ integer: PropertyListInteger, _ key: String) { set(ArchiveSlot.integer(integer), key) }

  /// `encodeBool:forKey:` — a plist boolean.
  public func encode(_ value: Bool, forKey key: String) { set(ArchiveSlot(.bool, value ? 1 : 0), key) }
  /// `encodeInteger:forKey:` / `encodeInt64:forKey:` — a plist integer.
  public func encode(_ value: Int, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: Int64, forKey key: String) { setInteger(PropertyListInteger(value), key) }
  public func encode(_ value: Int32, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: Int16, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: Int8, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: UInt64, forKey key: String) { setInteger(PropertyListInteger(value), key) }
  public func encode(_ value: UInt, forKey key: String) { setInteger(PropertyListInteger(UInt64(value)), key) }
  public func encode(_ value: UInt32, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: UInt16, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  public func encode(_ value: UInt8, forKey key: String) { setInteger(PropertyListInteger(Int64(value)), key) }
  /// `encodeDouble:forKey:` — a 64-bit real.
  public func encode(_ value: Double, forKey key: String) { set(ArchiveSlot.real(value, width: .double), key) }
  /// `encodeFloat:forKey:` — a 32-bit real (`0x22` in binary).
  public func encode(_ value: Float, forKey key: String) { set(ArchiveSlot.real(Double(value), width: .single), key) }
  /// `encodeBytes:length:forKey:` — plist data stored inline.
  public func encodeBytes(_ bytes: some Collection<UInt8>, forKey key: String) { set(.data(Data(bytes)), key) }

  /// `encodeObject:forKey:` — any archivable value: a string, number, data, date, URL, UUID, an
  /// array, dictionary or set of archivable values, a registered class instance or value type;
  /// `nil` writes UID 0 (`$null`).
  public func encode(_ value: Any?, forKey key: String) throws {
    let uid = try archiver.reference(to: value)
    setUID(uid, key)
  }

  // MARK: Typed fast paths
  //
  // `encode(_: Any?, forKey:)` finds out at run time what the `Any` holds, trying the scalar types
  // one cast after another; with Foundation loaded, every failing cast of a class instance also
  // probes bridging, which cost half of archiving an object graph. These overloads are chosen at
  // compile time for strings, dates, registered class instances and arrays of them, and write
  // exactly what the general path writes (the archiver's typed paths). With a `willEncode` hook
  // they take the general path.

  /// `encodeObject:forKey:` for a string: stored inline, once per distinct string.
  public func encode(_ value: String, forKey key: String) throws {
    setUID(try archiver.stringReference(value), key)
  }

  /// `encodeObject:forKey:` for a date: an `NSDate` object.
  public func encode(_ value: Date, forKey key: String) throws {
    setUID(try archiver.dateReference(value), key)
  }

  /// `encodeObject:forKey:` for a registered class instance (or `nil`, UID 0): once per identity.
  public func encode<Object: ArchiveEncodable>(_ object: Object?, forKey key: String) throws {
    guard let object else { return setUID(0, key) }
    setUID(try archiver.instanceReference(object), key)
  }

  /// `encodeObject:forKey:` for an array of registered class instances: an `NSArray` object.
  public func encode<Object: ArchiveEncodable>(_ objects: [Object]?, forKey key: String) throws {
    guard let objects else { return setUID(0, key) }
    setUID(try archiver.arrayReference(to: objects), key)
  }

  /// `encodeConditionalObject:forKey:` — a reference that is written only if the object is also
  /// encoded unconditionally somewhere in the archive; otherwise the key holds `$null`.
  public func encodeConditionalObject(_ object: AnyObject?, forKey key: String) {
    guard let object else {
      setUID(0, key)
      return
    }
    let identity = ObjectIdentifier(object)
    if let uid = archiver.objectNumbers.number(of: identity) {
      setUID(uid, key)
    } else {
      setUID(0, key)
      archiver.conditionalSlots.append((currentObject, KeyedArchiver.escape(key), identity))
    }
  }

  /// Writes an already-built property-list value under `key` (for Foundation encodings).
  public func encodeRaw(_ value: PropertyListValue, forKey key: String) {
    let slot = archiver.table.slot(value)
    archiver.table.set(slot, forKey: key, in: &contents)
  }

  /// Encodes `value` as an object and returns its UID (for Foundation encodings that write lists
  /// of references, such as `NS.objects`).
  public func reference(to value: Any?) throws -> UInt64 {
    try archiver.reference(to: value)
  }
}

/// A Swift value that is archived as one of Foundation's classes (an `NSArray` for `Array`, an
/// `NSDate` for `Date`…). Conforming types write their Foundation keys (`NS.objects`, `NS.time`…).
public protocol ArchiveFoundationValue {
  /// `$classname` and `$classes` to write.
  var archiveClass: (name: String, classes: [String]) { get }
  func encodeArchiveContents(with coder: ArchiveEncoder) throws
}
