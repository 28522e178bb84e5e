import FoundationEssentials
public import PropertyLists

/// An `NSValue` of any Objective-C type other than the geometry and range kinds: the type
/// encoding (`@encode`) and the fields Apple's archiver wrote for it.
///
/// `-[NSValue encodeWithCoder:]` writes such values the unkeyed way, under generated keys: `$0`
/// → UID → the type-encoding string (`[3i]`, `{?=ii}`…), then `$1`, `$2`… one per field, each
/// either a scalar stored inline or a reference to a C array (``ArchivedCArray``).
public struct ArchivedTypedValue: Hashable, Sendable {
  /// One field written by `encodeValueOfObjCType:at:`.
  public enum Field: Hashable, Sendable {
    /// A number (or string) stored inline.
    case scalar(PropertyListValue)
    /// A C array, archived as a `_NSKeyedCoderOldStyleArray` object.
    case array(ArchivedCArray)
  }

  /// The Objective-C type encoding, as `@encode` gives it.
  public var objCType: String
  public var fields: [Field]

  public init(objCType: String, fields: [Field]) {
    self.objCType = objCType
    self.fields = fields
  }
}

/// A C array inside an unkeyed archive value, as `_NSKeyedCoderOldStyleArray` archives it:
/// `{NS.count, NS.size, NS.type, $0, $1, …}` with the elements stored inline.
public struct ArchivedCArray: Hashable, Sendable {
  /// The element's one-character Objective-C type code as an ASCII value (`i` = 105 for `int`).
  public var elementType: UInt8
  /// The size of one element in bytes (`sizeof`).
  public var elementSize: Int
  /// The elements: integers or reals.
  public var elements: [PropertyListValue]

  public init(elementType: UInt8, elementSize: Int, elements: [PropertyListValue]) {
    self.elementType = elementType
    self.elementSize = elementSize
    self.elements = elements
  }
}

extension ArchivedTypedValue: ArchiveFoundationValue, ArchiveFoundationAliased {
  static var archivedClassNames: [String] { ["NSValue"] }
  public var archiveClass: (name: String, classes: [String]) { NSValueSpecial.archiveClass }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: objCType)), forKey: "$0")
    for (index, field) in fields.enumerated() {
      let key = "$\(index + 1)"
      switch field {
      case .scalar(let value):
        guard value.isInlineScalar else {
          throw KeyedArchiveError(.invalidValue, "an NSValue field must be a number or string, not a \(value.typeName)")
        }
        coder.encodeRaw(value, forKey: key)
      case .array(let array):
        coder.encodeRaw(.uid(try coder.reference(to: array)), forKey: key)
      }
    }
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    // `$0` is a generated key, stored as written (user keys starting with `$` are escaped).
    guard case .uid(let typeReference)? = coder.storedValue(forKey: "$0"),
      let type = archivedStringValue(try coder.object(atReference: typeReference, key: "$0"))
    else {
      throw coder.corrupt("NSValue", "has neither NS.special nor a type-encoding string under $0")
    }
    objCType = type
    fields = []
    var index = 1
    // One key per field; an object's dictionary bounds how many there can be.
    while let stored = coder.storedValue(forKey: "$\(index)") {
      if case .uid(let uid) = stored {
        guard let object = try coder.object(atReference: uid, key: "$\(index)", including: [ArchivedCArray.self]) else {
          throw coder.corrupt("NSValue", "has a $null field at $\(index)")
        }
        guard let array = object as? ArchivedCArray else {
          throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSValue) field $\(index) is a \(Swift.type(of: object)); expected a C array")
        }
        fields.append(.array(array))
      } else {
        guard stored.isInlineScalar else {
          throw KeyedArchiveError(.typeMismatch, "\(coder.location) (NSValue) field $\(index) holds a \(stored.typeName); expected a number")
        }
        fields.append(.scalar(stored))
      }
      index += 1
    }
  }
}

extension ArchivedCArray: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) {
    ("_NSKeyedCoderOldStyleArray", ["_NSKeyedCoderOldStyleArray", "NSObject"])
  }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.integer(elements.count), forKey: "NS.count")
    coder.encodeRaw(.integer(elementSize), forKey: "NS.size")
    coder.encodeRaw(.integer(Int(elementType)), forKey: "NS.type")
    for (index, element) in elements.enumerated() {
      guard element.isInlineScalar else {
        throw KeyedArchiveError(.invalidValue, "a C-array element must be a number, not a \(element.typeName)")
      }
      coder.encodeRaw(element, forKey: "$\(index)")
    }
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "_NSKeyedCoderOldStyleArray"
    guard let count = try coder.storedInteger("NS.count", of: className),
      let size = try coder.storedInteger("NS.size", of: className),
      let type = try coder.storedInteger("NS.type", of: className)
    else {
      throw coder.corrupt(className, "lacks NS.count, NS.size or NS.type")
    }
    guard count >= 0, count <= coder.currentKeyCount, size >= 0, let code = UInt8(exactly: type), code > 0, code < 0x80 else {
      throw coder.corrupt(className, "has NS.count \(count), NS.size \(size), NS.type \(type), which do not describe a C array of this object's \(coder.currentKeyCount) keys")
    }
    elementType = code
    elementSize = size
    elements = []
    elements.reserveCapacity(count)
    for index in 0..<count {
      guard let element = coder.storedValue(forKey: "$\(index)") else {
        throw coder.corrupt(className, "has no element $\(index) of \(count)")
      }
      guard element.isInlineScalar else {
        throw KeyedArchiveError(.typeMismatch, "\(coder.location) (\(className)) element $\(index) holds a \(element.typeName); expected a number")
      }
      elements.append(element)
    }
  }
}

extension PropertyListValue {
  /// Integers, reals, booleans and strings: what unkeyed fields store inline.
  var isInlineScalar: Bool {
    switch self {
    case .integer, .real, .bool, .string: true
    default: false
    }
  }
}
