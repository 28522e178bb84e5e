public import Foundation
public import Interface

/// The archived values of one object of a nib graph, as its class's ``NibDecodable/decode(from:)``
/// reads them (`initWithCoder:` with a `UINibDecoder` or `NSKeyedUnarchiver`).
///
/// Lookups follow Apple's nib decoder: a key is searched from just after the previous hit,
/// wrapping around, so a class that reads its keys in archive order finds each at once, and
/// reading a repeated key again gives its next value.
///
/// References come back as live objects, made through the class registry on first use; strings,
/// numbers, collections, data, dates, colours, fonts and images come back as Swift values
/// (`String`, `Int`, `Double`, `[Any]`, `[String: Any]`, `Data`, `Date`, ``Color``, ``Font``,
/// ``Image``).
@MainActor public final class NibCoder {
  /// The object's index in the graph (its object number in a NIBArchive).
  public let objectIndex: Int
  /// The class name the object was archived under (`NSButton`, `NSClassSwapper`, …).
  public let archivedClassName: String
  let unarchiver: NibUnarchiver
  let entries: [NibGraph.Entry]
  /// Where the next lookup starts. The coder is `@MainActor` and no access is held across a
  /// call: no runtime exclusivity checks (profiled).
  @exclusivity(unchecked) var cursor = 0
  /// One bit per key signature (``signature(_:)``) of the object's keys: a key whose bit is not
  /// set is absent without a scan (decoders ask for many keys an object does not have).
  let keyMask: UInt64

  init(unarchiver: NibUnarchiver, objectIndex: Int) {
    self.unarchiver = unarchiver
    self.objectIndex = objectIndex
    let object = unarchiver.graph.objects[objectIndex]
    self.archivedClassName = object.className
    self.entries = object.entries
    var mask: UInt64 = 0
    for entry in object.entries { mask |= Self.signature(entry.key) }
    keyMask = mask
  }

  /// A key's bit: from its length and last byte, both O(1) to read. The last byte is read
  /// through the contiguous UTF-8 (native strings, small or not) rather than `utf8.last`, whose
  /// index validation made it a twentieth of a load (profiled); the result is the same.
  /// Nonisolated: on the main actor, the closure given to `withContiguousStorageIfAvailable`
  /// would be main-actor isolated, and check the executor on every call (a sixth of a decode,
  /// profiled); it touches nothing but the key.
  @inline(__always)
  nonisolated static func signature(_ key: String) -> UInt64 {
    let utf8 = key.utf8
    let last = utf8.withContiguousStorageIfAvailable { $0.last ?? 0 } ?? utf8.last ?? 0
    return 1 << UInt64((utf8.count &* 7 &+ Int(last)) & 63)
  }

  /// Whether the object comes from a UIKit nib (else AppKit): decoders skip the other
  /// platform's keys.
  public var isUIKit: Bool { unarchiver.isUIKit }

  /// The archived keys, in order (a key repeats for inlined collections).
  public var keys: [String] { entries.map(\.key) }

  /// Whether the object has a value for `key` (`containsValueForKey:`).
  public func contains(_ key: String) -> Bool { position(of: key) != nil }

  /// The raw archived value of `key`, or `nil` when the object has none.
  public func payload(forKey key: String) -> NIBArchive.Payload? {
    guard let found = position(of: key) else { return nil }
    cursor = found + 1 == entries.count ? 0 : found + 1
    return entries[found].value
  }

  private func position(of key: String) -> Int? {
    let count = entries.count
    guard count > 0, keyMask & Self.signature(key) != 0 else { return nil }
    // The lengths first: a string's UTF-8 length is in the string itself, while comparing two
    // strings calls into the runtime, and for keys over 15 bytes compares their bytes (profiled:
    // scanning past the keys decoders do not read was most of a lookup).
    let length = key.utf8.count
    var index = cursor < count ? cursor : 0
    for _ in 0..<count {
      if entries[index].key.utf8.count == length && entries[index].key == key { return index }
      index += 1
      if index == count { index = 0 }
    }
    return nil
  }

  // MARK: - Scalars (the decoder's coercions: integers and booleans read as each other)

  /// An integer value (`decodeIntegerForKey:`); a boolean reads as 0 or 1, an integral float as
  /// its value.
  public func decodeInteger(forKey key: String) -> Int? {
    switch payload(forKey: key) {
    case .int8(let value)?: Int(value)
    case .int16(let value)?: Int(value)
    case .int32(let value)?: Int(value)
    case .int64(let value)?: Int(value)
    case .bool(let flag)?: flag ? 1 : 0
    case .float32(let value)?: Int(exactly: value)
    case .float64(let value)?: Int(exactly: value)
    case .object(let index)?: unarchiver.number(at: index).flatMap { Int(exactly: $0) }
    default: nil
    }
  }

  /// A boolean value (`decodeBoolForKey:`); a non-zero integer reads as `true`.
  public func decodeBool(forKey key: String) -> Bool? {
    switch payload(forKey: key) {
    case .bool(let flag)?: flag
    case .int8(let value)?: value != 0
    case .int16(let value)?: value != 0
    case .int32(let value)?: value != 0
    case .int64(let value)?: value != 0
    case .object(let index)?: unarchiver.number(at: index).map { $0 != 0 }
    default: nil
    }
  }

  /// A floating-point value (`decodeDoubleForKey:`); integers read as their value.
  public func decodeDouble(forKey key: String) -> Double? {
    switch payload(forKey: key) {
    case .float64(let value)?: value
    case .float32(let value)?: Double(value)
    case .int8(let value)?: Double(value)
    case .int16(let value)?: Double(value)
    case .int32(let value)?: Double(value)
    case .int64(let value)?: Double(value)
    case .object(let index)?: unarchiver.number(at: index)
    default: nil
    }
  }

  // MARK: - Objects and values

  /// The value of `key`: a live object for a reference to a class instance, a Swift value for a
  /// Foundation value object, a number for a scalar, `Data` for bytes, `nil` for nil or absent.
  public func decodeObject(forKey key: String) throws(InterfaceObjectsError) -> Any? {
    guard let payload = payload(forKey: key) else { return nil }
    return try unarchiver.value(of: payload, key: key, owner: objectIndex)
  }

  /// The string value of `key` (an `NSString` reference, or UTF-8 bytes).
  public func decodeString(forKey key: String) throws(InterfaceObjectsError) -> String? {
    switch payload(forKey: key) {
    case .object(let index)?:
      // A localizable string goes through the unarchiver, which translates it.
      if unarchiver.graph.objects.indices.contains(index), unarchiver.graph.objects[index].className != "NSLocalizableString",
        let text = unarchiver.graph.text(of: index)
      {
        return text
      }
      return try unarchiver.value(at: index, depth: 0) as? String
    case .data(let bytes)?: return String(decoding: bytes, as: UTF8.self)
    default: return nil
    }
  }

  /// The live object `key` refers to, when it is of type `T` (a reference to an object of
  /// another class, or to a value, gives `nil`).
  public func decodeObject<T>(forKey key: String, as type: T.Type) throws(InterfaceObjectsError) -> T? {
    guard let payload = payload(forKey: key) else { return nil }
    // An object already made (a reference back up the tree: superview, control view, next key
    // view) is cast as it is, without boxing it into an `Any` first.
    if case .object(let index) = payload, let object = unarchiver.madeObject(at: index) { return object as? T }
    return try unarchiver.value(of: payload, key: key, owner: objectIndex) as? T
  }

  /// The live object `key` refers to (made or a placeholder's stand-in); `nil` for a value, a
  /// nil or an absent key.
  public func decodeReference(forKey key: String) throws(InterfaceObjectsError) -> AnyObject? {
    guard case .object(let index)? = payload(forKey: key) else { return nil }
    return try unarchiver.instance(at: index)
  }

  /// The members of the collection `key` refers to (an inlined `NSArray`/`NSSet`), each as
  /// ``decodeObject(forKey:)`` gives it; empty when the key is absent.
  public func decodeArray(forKey key: String) throws(InterfaceObjectsError) -> [Any] {
    guard let value = try decodeObject(forKey: key) else { return [] }
    if let array = value as? [Any] { return array }
    throw InterfaceObjectsError(
      .invalidValue, objectIndex: objectIndex, className: archivedClassName, key: key,
      detail: "expected an array, found \(type(of: value))")
  }

  /// The members of the collection `key` refers to that are of type `T`, in order.
  public func decodeArray<T>(forKey key: String, of type: T.Type) throws(InterfaceObjectsError) -> [T] {
    try decodeArray(forKey: key).compactMap { $0 as? T }
  }

  /// The bytes of `key`: a data value or an `NSData` reference.
  public func decodeData(forKey key: String) throws(InterfaceObjectsError) -> Data? {
    switch payload(forKey: key) {
    case .data(let bytes)?: return Data(bytes)
    case .object(let index)?: return try unarchiver.value(at: index, depth: 0) as? Data
    default: return nil
    }
  }

  // MARK: - Geometry

  /// A rectangle: AppKit's `NSStringFromRect` text (`{{x, y}, {w, h}}`) or UIKit's geometry data
  /// (element type 6/7, then x, y, width, height).
  public func decodeRect(forKey key: String) throws(InterfaceObjectsError) -> CGRect? {
    guard let numbers = try geometry(forKey: key, count: 4) else { return nil }
    return CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
  }

  /// A size (`{w, h}`, or geometry data).
  public func decodeSize(forKey key: String) throws(InterfaceObjectsError) -> CGSize? {
    guard let numbers = try geometry(forKey: key, count: 2) else { return nil }
    return CGSize(width: numbers[0], height: numbers[1])
  }

  /// A point (`{x, y}`, or geometry data).
  public func decodePoint(forKey key: String) throws(InterfaceObjectsError) -> CGPoint? {
    guard let numbers = try geometry(forKey: key, count: 2) else { return nil }
    return CGPoint(x: numbers[0], y: numbers[1])
  }

  private func geometry(forKey key: String, count: Int) throws(InterfaceObjectsError) -> Geometry.Numbers? {
    let numbers: Geometry.Numbers?
    switch payload(forKey: key) {
    case nil, .null?: return nil
    case .data(let bytes)?: numbers = Geometry.numbers(inData: bytes).map(Geometry.Numbers.init)
    case .object(let index)?:
      guard unarchiver.graph.objects.indices.contains(index), case .data(let bytes)? = unarchiver.graph.objects[index]["NS.bytes"],
        unarchiver.graph.objects[index].className == "NSString"
      else {
        numbers = nil
        break
      }
      numbers = Geometry.scan(text: bytes)
    default: numbers = nil
    }
    guard let numbers, numbers.count == count else {
      throw InterfaceObjectsError(
        .invalidValue, objectIndex: objectIndex, className: archivedClassName, key: key,
        detail: "expected \(count == 4 ? "a rectangle" : "a point or size") ({…} text or geometry data)")
    }
    return numbers
  }

  /// Every archived value, in order, as ``decodeObject(forKey:)`` gives it (what a
  /// ``GenericObject`` keeps).
  public func decodeAllValues() throws(InterfaceObjectsError) -> [(key: String, value: Any?)] {
    try decodeAllEntries().map { ($0.key, $0.value) }
  }

  /// Every archived value with the index of the object it refers to, when it is a reference.
  public func decodeAllEntries() throws(InterfaceObjectsError) -> [(key: String, value: Any?, reference: Int?)] {
    var result: [(key: String, value: Any?, reference: Int?)] = []
    result.reserveCapacity(entries.count)
    for entry in entries {
      let value = try unarchiver.value(of: entry.value, key: entry.key, owner: objectIndex)
      if case .object(let index) = entry.value { result.append((entry.key, value, index)) } else { result.append((entry.key, value, nil)) }
    }
    return result
  }
}

/// The two spellings of geometry in nibs: AppKit's text and UIKit's typed data.
enum Geometry {
  /// Up to six numbers, kept inline (an AppKit frame is read for every view of a nib; an array
  /// for its four numbers was a fiftieth of a load, profiled).
  struct Numbers {
    private var storage: (Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    init() {}

    /// The first six of `numbers`, and their count.
    init(_ numbers: [Double]) {
      for number in numbers.prefix(6) { append(number) }
      count = numbers.count
    }

    subscript(index: Int) -> Double {
      switch index {
      case 0: storage.0
      case 1: storage.1
      case 2: storage.2
      case 3: storage.3
      case 4: storage.4
      default: storage.5
      }
    }

    /// Adds a number; past six, only the count grows.
    mutating func append(_ number: Double) {
      switch count {
      case 0: storage.0 = number
      case 1: storage.1 = number
      case 2: storage.2 = number
      case 3: storage.3 = number
      case 4: storage.4 = number
      case 5: storage.5 = number
      default: break
      }
      count += 1
    }

    var array: [Double] { (0..<Swift.min(count, 6)).map { self[$0] } }
  }

  /// The numbers of `{{190, 288}, {158, 29}}`, in order; `nil` when a part is not a number.
  static func numbers(inText text: [UInt8]) -> [Double]? {
    scan(text: text)?.array
  }

  /// ``numbers(inText:)`` without an array: at most six numbers.
  static func scan(text: [UInt8]) -> Numbers? {
    var numbers = Numbers()
    var index = 0
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || (byte >= 48 && byte <= 57) {
        var end = index
        while end < text.count, text[end] != UInt8(ascii: ","), text[end] != UInt8(ascii: "}"), text[end] != UInt8(ascii: " ") { end += 1 }
        guard end - index <= 40, let value = fastNumber(text[index..<end]) ?? Double(String(decoding: text[index..<end], as: UTF8.self)),
          value.isFinite
        else {
          return nil
        }
        numbers.append(value)
        guard numbers.count <= 6 else { return nil }
        index = end
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: " ") {
        index += 1
      } else {
        return nil
      }
    }
    return numbers
  }

  /// A plain decimal (`-12`, `190.5`) read without making a string; `nil` for anything else
  /// (exponents, signs in the middle), which the caller reads with `Double(_:)`. Up to 15
  /// significant digits, so the value is exact as `Double` reads it.
  static func fastNumber(_ bytes: ArraySlice<UInt8>) -> Double? {
    var index = bytes.startIndex
    var negative = false
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var mantissa: Int64 = 0
    var digits = 0
    var scale = 0
    var seenPoint = false
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte >= 48 && byte <= 57 {
        guard digits < 15 else { return nil }
        mantissa = mantissa * 10 + Int64(byte - 48)
        digits += 1
        if seenPoint { scale += 1 }
      } else if byte == UInt8(ascii: "."), !seenPoint {
        seenPoint = true
      } else {
        return nil
      }
      index += 1
    }
    guard digits > 0 else { return nil }
    let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]
    let value = Double(mantissa) / powers[scale]
    return negative ? -value : value
  }

  /// The numbers of UIKit's geometry data: one type byte (6 float32, 7 float64), then the
  /// little-endian elements.
  static func numbers(inData bytes: [UInt8]) -> [Double]? {
    guard let type = bytes.first else { return nil }
    let width = type == 6 ? 4 : type == 7 ? 8 : 0
    guard width > 0, (bytes.count - 1) % width == 0, bytes.count - 1 <= 6 * width else { return nil }
    var numbers: [Double] = []
    var offset = 1
    while offset < bytes.count {
      var bits: UInt64 = 0
      for shift in 0..<width { bits |= UInt64(bytes[offset + shift]) << (8 * UInt64(shift)) }
      numbers.append(width == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))) : Double(bitPattern: bits))
      offset += width
    }
    return numbers
  }
}
