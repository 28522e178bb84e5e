public import PropertyLists

/// The checks every fuzz target runs on one input.
///
/// 1. Read the bytes in the target's format (or detect the format) under modest limits. Throwing a
///    ``PropertyListError`` is a correct answer to hostile input; anything else that goes wrong
///    (a trap, an address-sanitizer report, a leak, a hang) is found by libFuzzer itself.
/// 2. When the bytes read, write the value back in the same format and in binary, read each
///    result back, and require it to equal (`==`) the first value. A writer that throws, a
///    document we wrote that we cannot read, or a value that changes on the way is a bug: the
///    harness traps with a message naming the target, the format and the first differing path,
///    so libFuzzer saves the input as a crash.
public enum FuzzHarness {
  /// Limits for fuzzed input: CoreFoundation's depth, and at most 1 MB / 2^20 objects so that a
  /// single input cannot spend the fuzzer's memory budget.
  public static let inputOptions = PropertyListReadingOptions(
    maximumDepth: 512, maximumObjectCount: 1 << 20, maximumByteCount: 1 << 20)

  /// Limits for reading back what we wrote. The depth is the same (the writers do not add
  /// nesting), but a document we wrote may legitimately be larger than its source, for example
  /// XML re-indented at depth 500, so the byte and object limits are the library defaults.
  public static let readBackOptions = PropertyListReadingOptions.default

  /// Runs the checks on `size` bytes at `data`; `format` `nil` means format detection.
  ///
  /// Returns 0, as libFuzzer requires; every failure traps instead.
  public static func testOneInput(
    _ data: UnsafePointer<UInt8>?, _ size: Int, format: PropertyListFormat?, target: String
  ) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
    let value: PropertyListValue
    let readFormat: PropertyListFormat
    do {
      (value, readFormat) = try PropertyListValue.read(buffer, format: format, options: inputOptions)
    } catch {
      return 0  // a typed PropertyListError: the right outcome for bytes that do not read
    }
    if let format, readFormat != format {
      fail(target, "asked for \(format) but the reader reported \(readFormat)")
    }
    if format == nil {
      // Detection must agree with reading the detected format directly.
      do {
        let direct = try PropertyListValue.read(buffer, format: readFormat, options: inputOptions).value
        if let difference = firstDifference(value, direct) {
          fail(target, "detected \(readFormat) reads differently when that format is given: \(difference)")
        }
      } catch {
        fail(target, "detected \(readFormat), but reading as \(readFormat) throws: \(error)")
      }
    }
    roundTrip(value, readFrom: readFormat, through: readFormat, target: target)
    if readFormat != .binary {
      roundTrip(value, readFrom: readFormat, through: .binary, target: target)
    }
    return 0
  }

  /// Writes `value` as `format`, reads it back and traps unless the result equals `value`.
  ///
  /// JSON is allowed its two documented differences from the other formats:
  /// * the reader takes any value at the top level, but the writer, like plutil's, takes only a
  ///   dictionary or an array, so a top-level scalar is checked through binary only;
  /// * an integral real is written without a fraction and reads back as an integer (see
  ///   ``firstDifference(_:_:at:integralRealsMayBecomeIntegers:)``); the value read back must
  ///   then survive a second JSON round trip exactly.
  static func roundTrip(
    _ value: PropertyListValue, readFrom source: PropertyListFormat, through format: PropertyListFormat,
    target: String
  ) {
    if format == .json, value.arrayValue == nil, value.dictionaryValue == nil { return }
    let back = writeAndReadBack(value, readFrom: source, through: format, target: target)
    let relaxed = format == .json
    if let difference = firstDifference(value, back, integralRealsMayBecomeIntegers: relaxed) {
      fail(target, "a value read from a \(source) changes when written as \(format) and read back: \(difference)")
    }
    if relaxed && back != value {
      let again = writeAndReadBack(back, readFrom: format, through: format, target: target)
      if let difference = firstDifference(back, again) {
        fail(target, "a value changes on its second round trip through \(format): \(difference)")
      }
    }
  }

  static func writeAndReadBack(
    _ value: PropertyListValue, readFrom source: PropertyListFormat, through format: PropertyListFormat,
    target: String
  ) -> PropertyListValue {
    let bytes: [UInt8]
    do {
      bytes = try value.encodedBytes(as: format)
    } catch {
      fail(target, "a value read from a \(source) cannot be written as \(format): \(error)")
    }
    do {
      return try PropertyListValue(decoding: bytes, format: format, options: readBackOptions)
    } catch {
      fail(target, "the \(format) written for a value read from a \(source) does not read back: \(error)")
    }
  }

  /// Traps with a message that libFuzzer prints above the stack.
  public static func fail(_ target: String, _ message: String) -> Never {
    fatalError("[\(target)] round-trip failure: \(message)")
  }
}
