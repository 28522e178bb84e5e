import FoundationEssentials
public import StasisSystem

extension NIBArchive {
  /// Bounds on what a reader accepts (a nib is input too: its counts must not make the reader
  /// allocate or loop without bound).
  public struct Limits: Hashable, Sendable {
    /// The largest file read, in bytes. Default 256 MiB.
    public var maximumByteCount: Int
    /// The most entries in any one table. Default 16,777,216.
    public var maximumEntryCount: Int

    public init(maximumByteCount: Int = 256 << 20, maximumEntryCount: Int = 1 << 24) {
      self.maximumByteCount = maximumByteCount
      self.maximumEntryCount = maximumEntryCount
    }

    public static let `default` = Limits()
  }

  /// The magic at the start of every NIBArchive.
  public static let magic: [UInt8] = Array("NIBArchive".utf8)

  /// Whether `bytes` start like a NIBArchive (else a nib is a keyed archive).
  public static func isNIBArchive(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: magic) }

  /// Reads the NIBArchive in the file at `path`, through `environment`'s file system.
  ///
  /// - Throws: ``InterfaceError`` naming the file and the byte offset.
  public init(contentsOfFile path: String, limits: Limits = .default, environment: HostEnvironment = .current) throws(InterfaceError) {
    let bytes = try fileBytes(at: path, limit: limits.maximumByteCount, what: "the nib", fileSystem: environment.fileSystem)
    do {
      try self.init(bytes: bytes, limits: limits)
    } catch {
      throw InterfaceError(error.code, path: path, offset: error.offset, detail: error.detail)
    }
  }

  /// Reads a NIBArchive from `bytes`. Every count, offset and index is checked before use.
  ///
  /// - Throws: ``InterfaceError``: `.notANib` without the magic, `.truncated` when a table or
  ///   value runs past the end, `.corrupt` for a bad index, varint or value type,
  ///   `.limitExceeded` past `limits`.
  public init(bytes: [UInt8], limits: Limits = .default) throws(InterfaceError) {
    guard bytes.count <= limits.maximumByteCount else {
      throw InterfaceError(.limitExceeded, detail: "the nib has \(bytes.count) bytes, more than the limit of \(limits.maximumByteCount)")
    }
    guard Self.isNIBArchive(bytes) else {
      throw InterfaceError(.notANib, offset: 0, detail: "expected the ASCII magic NIBArchive")
    }
    self = try bytes.withUnsafeBufferPointer { (buffer) throws(InterfaceError) -> NIBArchive in
      try NIBArchive(parsing: buffer, limits: limits)
    }
  }

  /// The reading itself, over the file's bytes in place (``NIBReader`` checks every bound).
  private init(parsing bytes: UnsafeBufferPointer<UInt8>, limits: Limits) throws(InterfaceError) {
    var reader = NIBReader(bytes: bytes)
    reader.position = 10
    let formatVersion = try reader.u32()
    guard formatVersion == 1 else {
      throw InterfaceError(.notANib, offset: 10, detail: "format version \(formatVersion); expected 1")
    }
    let coderVersion = try reader.u32()
    var counts: [Int] = []
    var offsets: [Int] = []
    for _ in 0..<4 {
      counts.append(Int(try reader.u32()))
      offsets.append(Int(try reader.u32()))
    }
    for (table, count) in zip(["objects", "keys", "values", "class names"], counts) where count > limits.maximumEntryCount {
      throw InterfaceError(.limitExceeded, offset: 18, detail: "the \(table) table announces \(count) entries, more than the limit of \(limits.maximumEntryCount)")
    }
    // Every entry takes at least 3, 1, 2 and 3 bytes (objects, keys, values, class names): a
    // count that cannot fit in the file is a lie, caught before anything is allocated for it.
    for (index, minimum) in [3, 1, 2, 3].enumerated() where counts[index] > bytes.count / minimum {
      throw InterfaceError(
        .truncated, offset: 18 + 8 * index,
        detail: "a table announces \(counts[index]) entries, more than a file of \(bytes.count) bytes can hold")
    }

    reader.position = offsets[0]
    var objects: [Object] = []
    objects.reserveCapacity(counts[0])
    for _ in 0..<counts[0] {
      let classIndex = try reader.varint(), firstValue = try reader.varint(), valueCount = try reader.varint()
      objects.append(Object(classIndex: classIndex, firstValue: firstValue, valueCount: valueCount))
    }
    var end = reader.position

    reader.position = offsets[1]
    var keys: [String] = []
    keys.reserveCapacity(counts[1])
    for _ in 0..<counts[1] {
      let length = try reader.varint()
      // Known long keys share a literal's storage (``NibVocabulary``): copies of them are free.
      keys.append(NibVocabulary.interned(String(decoding: try reader.bytes(length), as: UTF8.self)))
    }
    end = max(end, reader.position)

    reader.position = offsets[2]
    var values: [Value] = []
    values.reserveCapacity(counts[2])
    for _ in 0..<counts[2] {
      let keyIndex = try reader.varint()
      guard keyIndex < keys.count else {
        throw InterfaceError(.corrupt, offset: reader.position, detail: "a value names key \(keyIndex) of \(keys.count)")
      }
      let typeOffset = reader.position
      let payload: Payload
      switch try reader.u8() {
      case 0: payload = .int8(Int8(bitPattern: try reader.u8()))
      case 1: payload = .int16(Int16(bitPattern: try reader.little(UInt16.self)))
      case 2: payload = .int32(Int32(bitPattern: try reader.little(UInt32.self)))
      case 3: payload = .int64(Int64(bitPattern: try reader.little(UInt64.self)))
      case 4: payload = .bool(false)
      case 5: payload = .bool(true)
      case 6: payload = .float32(Float(bitPattern: try reader.little(UInt32.self)))
      case 7: payload = .float64(Double(bitPattern: try reader.little(UInt64.self)))
      case 8: payload = .data(Array(try reader.bytes(try reader.varint())))
      case 9: payload = .null
      case 10:
        let index = Int(try reader.little(UInt32.self))
        guard index < counts[0] else {
          throw InterfaceError(.corrupt, offset: typeOffset + 1, detail: "a value refers to object \(index) of \(counts[0])")
        }
        payload = .object(index)
      case let type:
        throw InterfaceError(.corrupt, offset: typeOffset, detail: "unknown value type \(type); expected 0…10")
      }
      values.append(Value(keyIndex: keyIndex, payload: payload))
    }
    end = max(end, reader.position)

    reader.position = offsets[3]
    var classNames: [ClassName] = []
    classNames.reserveCapacity(counts[3])
    for _ in 0..<counts[3] {
      let start = reader.position
      let length = try reader.varint()
      let fallbackCount = try reader.varint()
      var fallbacks: [Int32] = []
      for _ in 0..<fallbackCount {
        let fallback = Int32(bitPattern: try reader.little(UInt32.self))
        guard fallback >= 0, Int(fallback) < counts[3] else {
          throw InterfaceError(.corrupt, offset: reader.position - 4, detail: "a class names fallback \(fallback) of \(counts[3])")
        }
        fallbacks.append(fallback)
      }
      guard length >= 1 else { throw InterfaceError(.corrupt, offset: start, detail: "a class name of length 0; expected its bytes and a NUL") }
      let name = try reader.bytes(length)
      guard name.last == 0 else {
        throw InterfaceError(.corrupt, offset: reader.position - 1, detail: "a class name does not end with a NUL byte")
      }
      classNames.append(ClassName(name: NibVocabulary.interned(String(decoding: UnsafeBufferPointer(rebasing: name.dropLast()), as: UTF8.self)), fallbacks: fallbacks))
    }
    end = max(end, reader.position)

    for (index, object) in objects.enumerated() {
      guard object.classIndex < classNames.count else {
        throw InterfaceError(.corrupt, offset: offsets[0], detail: "object \(index) has class \(object.classIndex) of \(classNames.count)")
      }
      guard object.firstValue <= values.count, object.valueCount <= values.count - object.firstValue else {
        throw InterfaceError(
          .corrupt, offset: offsets[0],
          detail: "object \(index) has values \(object.firstValue)..<\(object.firstValue + object.valueCount) of \(values.count)")
      }
    }
    self.init(
      formatVersion: formatVersion, coderVersion: coderVersion, objects: objects, keys: keys, values: values,
      classNames: classNames, trailingBytes: end < bytes.count ? Array(UnsafeBufferPointer(rebasing: bytes[end...])) : [])
  }
}

/// A cursor over the bytes with bounds checks and the NIBArchive varint. Every read checks its
/// bounds itself and throws past the end, so the buffer's own (debug-only) checks never fire.
struct NIBReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var position = 0

  @inline(__always)
  mutating func u8() throws(InterfaceError) -> UInt8 {
    guard position >= 0, position < bytes.count else { throw truncated("a byte") }
    defer { position += 1 }
    return bytes[position]
  }

  /// A little-endian unsigned integer of `T`'s width, loaded whole.
  @inline(__always)
  mutating func little<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(InterfaceError) -> T {
    let count = MemoryLayout<T>.size
    guard position >= 0, count <= bytes.count - position else { throw truncated("\(count) bytes") }
    defer { position += count }
    return T(littleEndian: UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: position, as: T.self))
  }

  mutating func u32() throws(InterfaceError) -> UInt32 { try little(UInt32.self) }

  mutating func bytes(_ count: Int) throws(InterfaceError) -> UnsafeBufferPointer<UInt8> {
    guard position >= 0, count >= 0, count <= bytes.count - position else { throw truncated("\(count) bytes") }
    defer { position += count }
    return UnsafeBufferPointer(rebasing: bytes[position..<(position + count)])
  }

  /// 7 bits per byte, low group first; the byte with the high bit set is the last (at most 5).
  @inline(__always)
  mutating func varint() throws(InterfaceError) -> Int {
    let first = try u8()
    if first & 0x80 != 0 { return Int(first & 0x7F) }
    return try longVarint(startingWith: first)
  }

  mutating func longVarint(startingWith first: UInt8) throws(InterfaceError) -> Int {
    let start = position - 1
    var value = Int(first)
    for shift in stride(from: 7, to: 35, by: 7) {
      let byte = try u8()
      value |= Int(byte & 0x7F) << shift
      if byte & 0x80 != 0 { return value }
    }
    throw InterfaceError(.corrupt, offset: start, detail: "a varint longer than 5 bytes")
  }

  func truncated(_ what: String) -> InterfaceError {
    InterfaceError(.truncated, offset: position, detail: "the nib ends (at \(bytes.count) bytes) where \(what) should follow")
  }
}
