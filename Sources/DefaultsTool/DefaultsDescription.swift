import Foundation
import Defaults
import PropertyLists

/// The text `defaults read` prints: Foundation's `-[NSDictionary descriptionWithLocale:indent:]`
/// and `-[NSArray descriptionWithLocale:indent:]` layout.
///
/// ```text
/// {
///     AppleLanguages =     (
///         "en-US",
///         fr
///     );
///     Nested =     {
///         "autohide-delay" = "0.5";
///         tilesize = 36;
///     };
///     Blob = {length = 4, bytes = 0x01020304};
/// }
/// ```
///
/// * A container described at level *n* begins with 4·*n* spaces of its own, so a container
///   value sits after `key = ` with that extra run of spaces (`"persistent-apps" =     (`), and a
///   dictionary inside an array is indented twice. Entries are at 4·(*n*+1) spaces, the closing
///   bracket at 4·*n*.
/// * Dictionary entries are `key = value;`, sorted by key (UTF-16 order, as `compare:`); array
///   elements are separated by `,` with no comma after the last.
/// * Inside a container, strings, numbers and dates are written as their description, quoted
///   when empty or when any character is not an ASCII letter or digit (so `"en-US"`, `"0.5"`,
///   `"-1"`, `"2024-01-02 03:04:05 +0000"`). Inside quotes `"` and `\` are escaped, as are
///   control characters (`\n`, `\t`, …) and non-ASCII characters (`\U00e9`, one per UTF-16 unit).
/// * Numbers: integers in decimal, booleans `1`/`0`, reals in the shortest form that reads back
///   (`0.5`, integral reals without a fraction); dates `yyyy-MM-dd HH:mm:ss +0000` (UTC); data
///   `{length = N, bytes = 0x…}` (all bytes up to 24, otherwise the first 16 and last 8) and
///   never quoted.
/// * A value printed on its own (`defaults read <domain> <key>` of a string, number or date) is
///   its bare description, without quotes or escapes.
///
/// Checked against published output: a whole `defaults read` of a Skype for Business domain (in
/// Microsoft's documentation, 2017: sorted keys, `key =     (` runs, `"LastSignOut_me"` and
/// `"1496164840.505589"` quoted, dates quoted, nested dictionaries) and `NSDictionary`
/// descriptions pasted in public code (`copyrights =     (` with the dictionary element at 16
/// spaces, empty `(`…`    );`, `\U4e16` escapes). Data there is the older `<62706c69 …>` form;
/// recent macOS prints `{length = N, bytes = 0x…}`, which is what is written here.
enum DefaultsDescription {
  /// The description of a top-level value, without the final newline.
  static func describe(_ value: PropertyListValue) -> String {
    var output = ""
    switch value {
    case .array, .dictionary: appendContainer(value, level: 0, to: &output)
    default: output = leafText(value)
    }
    return output
  }

  private static func indent(_ level: Int) -> String { String(repeating: " ", count: 4 * level) }

  private static func appendContainer(_ value: PropertyListValue, level: Int, to output: inout String) {
    output += indent(level)
    switch value {
    case .dictionary(let dictionary):
      output += "{\n"
      for (key, element) in dictionary.sortedByKey {
        output += indent(level + 1)
        output += quotedIfNeeded(key)
        output += " = "
        appendElement(element, level: level + 1, to: &output)
        output += ";\n"
      }
      output += indent(level)
      output += "}"
    case .array(let array):
      output += "(\n"
      for (index, element) in array.enumerated() {
        output += indent(level + 1)
        appendElement(element, level: level + 1, to: &output)
        output += index == array.count - 1 ? "\n" : ",\n"
      }
      output += indent(level)
      output += ")"
    default:
      appendElement(value, level: level, to: &output)
    }
  }

  private static func appendElement(_ value: PropertyListValue, level: Int, to output: inout String) {
    switch value {
    case .array, .dictionary: appendContainer(value, level: level, to: &output)
    case .data(let data): output += PropertyListValue.dataDescription(data)
    case .uid(let uid): output += "{\n\(indent(level + 1))\"CF$UID\" = \(uid);\n\(indent(level))}"
    default: output += quotedIfNeeded(leafText(value))
    }
  }

  /// The bare description of a leaf value.
  static func leafText(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let string): string
    case .integer(let integer): integer.description
    case .real(let real, let width): DefaultsConversion.numberText(real, width: width)
    case .bool(let bool): bool ? "1" : "0"
    case .date(let date): dateText(date)
    case .data(let data): PropertyListValue.dataDescription(data)
    case .uid(let uid): "{\n    \"CF$UID\" = \(uid);\n}"
    case .array, .dictionary: describe(value)
    }
  }

  /// The string as it appears inside a container description.
  static func quotedIfNeeded(_ string: String) -> String {
    var plain = !string.isEmpty
    for byte in string.utf8 where !(byte >= 0x30 && byte <= 0x39 || byte >= 0x41 && byte <= 0x5A || byte >= 0x61 && byte <= 0x7A) {
      plain = false
      break
    }
    if plain { return string }
    var output = "\""
    for unit in string.utf16 {
      switch unit {
      case 0x22: output += "\\\""
      case 0x5C: output += "\\\\"
      case 0x07: output += "\\a"
      case 0x08: output += "\\b"
      case 0x09: output += "\\t"
      case 0x0A: output += "\\n"
      case 0x0B: output += "\\v"
      case 0x0C: output += "\\f"
      case 0x0D: output += "\\r"
      case 0x20...0x7E: output.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
      default:
        let hex = String(unit, radix: 16)
        output += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
      }
    }
    output += "\""
    return output
  }

  /// `yyyy-MM-dd HH:mm:ss +0000`, in UTC.
  static func dateText(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < 1e15 else { return "<description unavailable>" }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func padded(_ value: Int?, _ width: Int) -> String {
      let digits = String(abs(value ?? 0))
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2)) "
      + "\(padded(parts.hour, 2)):\(padded(parts.minute, 2)):\(padded(parts.second, 2)) +0000"
  }
}
