import FoundationEssentials

/// Base64 as CoreFoundation's XML property-list code reads and writes it (`parseDataTag`,
/// `_XMLPlistAppendDataUsingBase64`). Neither side is a general-purpose codec: the reader is
/// deliberately forgiving (CF's rules, not RFC 4648's) and the writer lays out lines for XML.
enum XMLPlistBase64 {
  private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Byte → six-bit value; −1 for bytes CF skips (everything below 0x80 outside the alphabet),
  /// −2 for bytes ≥ 0x80, which CF rejects, and 64 for `=`, which counts as a zero digit. So four
  /// plain alphabet characters are exactly those whose values OR together below 64.
  private static let decodeTable: [Int8] = {
    var table = [Int8](repeating: -1, count: 256)
    for index in 0x80..<0x100 { table[index] = -2 }
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(value) }
    table[Int(UInt8(ascii: "="))] = 64
    return table
  }()

  /// Decodes `input` (the text of a `<data>` element, without its `<`) into `output`, which must
  /// hold at least `input.count / 4 * 3` bytes. Returns the number of bytes written; sets
  /// `badOffset` to the offset of a byte ≥ 0x80 and stops there if there is one.
  ///
  /// CF's rules: each alphabet character (and `=`) is a digit; every fourth digit completes a
  /// group of three bytes, of which the last one or two are dropped when the group ended in one
  /// or two `=` (white space between them does not reset the count, anything else does); a last
  /// group of fewer than four digits produces nothing.
  static func decodeCF(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableRawBufferPointer, badOffset: inout Int) -> Int {
    decodeTable.withUnsafeBufferPointer { table in
      var accumulator: UInt32 = 0
      var digits = 0
      var equals = 0
      var written = 0
      var index = 0
      while index < input.count {
        // Fast path: four alphabet characters (no '=', no skipped bytes) at a group boundary.
        if digits & 3 == 0 && index + 4 <= input.count {
          let a = table[Int(input[index])]
          let b = table[Int(input[index + 1])]
          let c = table[Int(input[index + 2])]
          let d = table[Int(input[index + 3])]
          if UInt8(bitPattern: a | b | c | d) < 64 {
            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
            output[written] = UInt8(truncatingIfNeeded: group >> 16)
            output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
            output[written + 2] = UInt8(truncatingIfNeeded: group)
            written += 3
            accumulator = group
            equals = 0
            index += 4
            continue
          }
        }
        let byte = input[index]
        index += 1
        if byte == UInt8(ascii: "=") {
          equals += 1
        } else if !(byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)) {
          equals = 0
        }
        let value = table[Int(byte)]
        if value < 0 {
          if value == -2 {
            badOffset = index - 1
            return written
          }
          continue
        }
        digits += 1
        accumulator = accumulator << 6 | UInt32(value & 0x3F)
        if digits & 3 == 0 {
          output[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
          written += 1
          if equals < 2 {
            output[written] = UInt8(truncatingIfNeeded: accumulator >> 8)
            written += 1
          }
          if equals < 1 {
            output[written] = UInt8(truncatingIfNeeded: accumulator)
            written += 1
          }
        }
      }
      return written
    }
  }

  /// Appends `data` as CF's XML writer does: lines of exactly `76 − 8 × min(indent, 8)`
  /// characters (the last may be shorter), each preceded by `min(indent, 8)` tabs and followed by
  /// a newline, with `=` padding.
  static func appendLines(_ data: Data, indent: Int, to out: inout XMLPlistOutput) {
    let tabs = Swift.min(indent, 8)
    let bytesPerLine = (76 - 8 * tabs) / 4 * 3
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      alphabet.withUnsafeBufferPointer { alphabet in
        // Each line: tabs, at most 76 characters, a newline.
        let lines = (bytes.count + bytesPerLine - 1) / bytesPerLine
        out.reserve(lines * (tabs + 77))
        var lineStart = 0
        while lineStart < bytes.count {
          let lineEnd = Swift.min(lineStart + bytesPerLine, bytes.count)
          out.appendTabs(tabs)
          var index = lineStart
          while index + 3 <= lineEnd {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.appendUnchecked(alphabet[Int(group >> 18)], alphabet[Int(group >> 12 & 0x3F)],
                                alphabet[Int(group >> 6 & 0x3F)], alphabet[Int(group & 0x3F)])
            index += 3
          }
          let rest = lineEnd - index
          if rest == 1 {
            let group = UInt32(bytes[index]) << 16
            out.appendUnchecked(alphabet[Int(group >> 18)], alphabet[Int(group >> 12 & 0x3F)], UInt8(ascii: "="), UInt8(ascii: "="))
          } else if rest == 2 {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.appendUnchecked(alphabet[Int(group >> 18)], alphabet[Int(group >> 12 & 0x3F)],
                                alphabet[Int(group >> 6 & 0x3F)], UInt8(ascii: "="))
          }
          out.append(0x0A)
          lineStart = lineEnd
        }
      }
    }
  }
}
