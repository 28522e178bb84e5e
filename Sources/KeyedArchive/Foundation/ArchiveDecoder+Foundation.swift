import FoundationEssentials
import PropertyLists

/// Swift types that stand for a Foundation class registered under another Swift type, such as
/// the geometry structs that all come from `NSValue`. Asking for one of them in secure mode
/// allows these archived class names; the decoded value is then checked against the type asked.
protocol ArchiveFoundationAliased {
  static var archivedClassNames: [String] { get }
}

// Helpers shared by the Foundation decoders in this folder.
extension ArchiveDecoder {
  /// A `KeyedArchiveError.Code.corruptArchive` error naming the current object and its class.
  @inline(never)
  func corrupt(_ className: String, _ detail: String) -> KeyedArchiveError {
    KeyedArchiveError(.corruptArchive, "\(location) (\(className)) \(detail)")
  }

  /// Decodes the object under `key`, allowing the classes the enclosing call allowed plus those
  /// `types` stand for. Foundation containers use it for members whose classes the caller picks
  /// (attribute values, user-info values), while their own internal parts (arrays of attribute
  /// dictionaries) are admitted explicitly.
  func decodeObject(forKey key: String, including types: [Any.Type]) throws -> Any? {
    guard unarchiver.requiresSecureCoding else { return try decodeObject(forKey: key, allowed: nil) }
    let set = allowed?.copy() ?? AllowedClasses()
    for type in types { unarchiver.registry.addAllowed(type, to: set) }
    return try decodeObject(forKey: key, allowed: set)
  }

  /// Decodes the object a UID refers to, allowing the enclosing call's classes plus those `types`
  /// stand for (for references stored under generated keys such as `$1`).
  func object(atReference uid: UInt64, key: String, including types: [Any.Type]) throws -> Any? {
    guard unarchiver.requiresSecureCoding else { return try unarchiver.object(at: uid, allowed: nil, key: key) }
    let set = allowed?.copy() ?? AllowedClasses()
    for type in types { unarchiver.registry.addAllowed(type, to: set) }
    return try unarchiver.object(at: uid, allowed: set, key: key)
  }

  /// An integer stored inline under an archive key; `nil` when the key is missing.
  func storedInteger(_ key: String, of className: String) throws -> Int? {
    switch storedValue(forKey: key) {
    case nil: return nil
    case .integer(let integer)?:
      guard let value = integer.exactly(Int.self) else {
        throw corrupt(className, "has \(key) = \(integer), which does not fit in Int")
      }
      return value
    case let other?:
      throw KeyedArchiveError(.typeMismatch, "\(location) (\(className)) key \"\(key)\" holds a \(other.typeName); expected an integer")
    }
  }

  /// A real (or integer) stored inline under an archive key; `nil` when the key is missing.
  func storedReal(_ key: String, of className: String) throws -> Double? {
    switch storedValue(forKey: key) {
    case nil: return nil
    case .real(let number, _)?: return number
    case .integer(let integer)?: return integer.doubleValue
    case let other?:
      throw KeyedArchiveError(.typeMismatch, "\(location) (\(className)) key \"\(key)\" holds a \(other.typeName); expected a real")
    }
  }

  /// Bytes stored under `key` either inline or as a reference to an `NSData`/`NSMutableData`.
  func storedBytes(_ key: String, of className: String) throws -> Data? {
    if case .data(let data)? = storedValue(forKey: key) { return data }
    return try decode(Data.self, forKey: key)
  }
}

// MARK: - Base-128 varints

/// The unsigned varints of `NSAttributeInfo`, `NSRangeData` and `NSIndexPathData`: seven bits per
/// byte, least significant group first, the high bit set on every byte but the last
/// (300 → `AC 02`).
enum ArchiveVarint {
  static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Every varint in `data`, or a description of the first malformed one (cut off by the end
  /// of the data, or too large for 64 bits).
  static func decodeAll(_ data: Data) -> Result<[UInt64], VarintFailure> {
    var values: [UInt64] = []
    values.reserveCapacity(min(data.count, 1 << 16))
    var current: UInt64 = 0
    var shift: UInt64 = 0
    var start = 0
    var offset = 0
    for byte in data {
      let group = UInt64(byte & 0x7F)
      if shift == 63 ? group > 1 : shift > 63 {
        return .failure(VarintFailure(offset: start, reason: "is larger than 64 bits"))
      }
      current |= group << shift
      if byte & 0x80 == 0 {
        values.append(current)
        current = 0
        shift = 0
        start = offset + 1
      } else {
        shift += 7
      }
      offset += 1
    }
    guard shift == 0 else { return .failure(VarintFailure(offset: start, reason: "is cut off by the end of the data")) }
    return .success(values)
  }

  struct VarintFailure: Error {
    var offset: Int
    var reason: String
    var description: String { "the varint at byte \(offset) \(reason)" }
  }
}
