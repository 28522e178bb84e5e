/// The value of one hexadecimal digit, `0`–`9`, `a`–`f`, `A`–`F` — what every text reader of
/// the package decodes: OpenStep `<data>` and `\U` escapes, JSON `\u` escapes, XML `0x` integers
/// and `&#x…;` references, and `defaults write -data`.
package enum HexDigit {
  /// `byte`'s value (0–15), or nil when it is not a hexadecimal digit.
  @inline(__always)
  package static func value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
    default: nil
    }
  }
}
