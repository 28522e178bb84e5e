import FoundationEssentials

extension BinaryPlistWriter {
  /// An object in write order, in 16 bytes: a container whose references live in the
  /// flattener's `references`, a number, date, Boolean or UID held by its bits, or a string or
  /// data laid out in the flattener's ``TextStore``. Half the size of a copied ``PropertyListValue`` (32
  /// bytes): a keyed archive of 100,000 objects writes about 1.3 million of them, and every page
  /// of this table is a fresh page the kernel zeroes.
  struct Object {
    enum Kind: UInt8 {
      case array, dictionary, text, positive, negative, single, double, date, bool, uid
    }
    /// A container's first reference; a number's, date's or UID's bits; a Boolean's value (0 or
    /// 1); the offset of a string or data in the text store.
    var word: UInt64
    /// A container's member count (entries for a dictionary); a string's or data's length as laid
    /// out in the text store (``TextStore/lengthField(_:)``).
    var count: UInt32
    var kind: Kind

    static func array(first: Int, count: Int) -> Object {
      Object(word: UInt64(first), count: UInt32(count), kind: .array)
    }

    static func dictionary(first: Int, count: Int) -> Object {
      Object(word: UInt64(first), count: UInt32(count), kind: .dictionary)
    }

    @inline(__always)
    static func integer(_ integer: PropertyListInteger) -> Object {
      Object(word: integer.bitPattern, count: 0, kind: integer.isNegative ? .negative : .positive)
    }

    @inline(__always)
    static func real(_ number: Double, width: PropertyListValue.RealWidth) -> Object {
      Object(word: number.bitPattern, count: 0, kind: width == .single ? .single : .double)
    }

    @inline(__always)
    static func date(_ date: Date) -> Object { Object(word: date.timeIntervalSinceReferenceDate.bitPattern, count: 0, kind: .date) }

    /// A number, date, Boolean or UID; nil for strings, data and containers.
    @inline(__always)
    static func scalar(_ value: PropertyListValue) -> Object? {
      switch value {
      case .integer(let integer): .integer(integer)
      case .real(let number, let width): .real(number, width: width)
      case .date(let date): .date(date)
      case .bool(let flag): Object(word: flag ? 1 : 0, count: 0, kind: .bool)
      case .uid(let uid): Object(word: uid, count: 0, kind: .uid)
      case .string, .data, .array, .dictionary: nil
      }
    }
  }

  /// Writes a number's, date's, Boolean's or UID's bytes (strings and data are copied from the
  /// text store).
  @inline(__always)
  static func appendScalar(_ object: Object, to output: inout ByteOutput) {
    switch object.kind {
    case .positive: appendInteger(bitPattern: object.word, isNegative: false, to: &output)
    case .negative: appendInteger(bitPattern: object.word, isNegative: true, to: &output)
    case .single: appendReal(bitPattern: object.word, single: true, to: &output)
    case .double: appendReal(bitPattern: object.word, single: false, to: &output)
    case .date:
      output.append(0x33)
      appendBigEndian(object.word, width: 8, to: &output)
    case .bool: output.append(object.word != 0 ? 0x09 : 0x08)
    case .uid: appendUID(object.word, to: &output)
    case .array, .dictionary, .text: preconditionFailure("containers, strings and data are written by the flattener")
    }
  }

  /// An integer as CF writes it: negative ones in 8 bytes (`0x13`), those above `Int64.max` in
  /// 16 (`0x14`), the others in the fewest of 1, 2, 4 or 8 bytes.
  @inline(__always)
  static func appendInteger(bitPattern: UInt64, isNegative: Bool, to output: inout ByteOutput) {
    if isNegative {
      output.append(0x13)
      appendBigEndian(bitPattern, width: 8, to: &output)
    } else if bitPattern > UInt64(Int64.max) {
      output.append(0x14)
      appendBigEndian(0, width: 8, to: &output)
      appendBigEndian(bitPattern, width: 8, to: &output)
    } else {
      let width = binaryPlistByteWidth(bitPattern)
      output.append(0x10 | UInt8(width.trailingZeroBitCount))
      appendBigEndian(bitPattern, width: width, to: &output)
    }
  }

  /// A real: `0x22` and 4 bytes for single precision, `0x23` and 8 for double.
  @inline(__always)
  static func appendReal(bitPattern: UInt64, single: Bool, to output: inout ByteOutput) {
    if single {
      output.append(0x22)
      appendBigEndian(UInt64(Float(Double(bitPattern: bitPattern)).bitPattern), width: 4, to: &output)
    } else {
      output.append(0x23)
      appendBigEndian(bitPattern, width: 8, to: &output)
    }
  }

  /// A UID: `0x8n` and the fewest bytes that hold it.
  @inline(__always)
  static func appendUID(_ uid: UInt64, to output: inout ByteOutput) {
    let width = binaryPlistByteWidth(uid)
    output.append(0x80 | UInt8(width - 1))
    appendBigEndian(uid, width: width, to: &output)
  }
}
