import Defaults
import Foundation
import PropertyLists

/// The `<value>` part of `defaults write <domain> <key> <value>`.
enum ValueArguments {
  /// Reads a value specification: a bare value (a property list when it starts with `{ ( [ < "`,
  /// otherwise a string) or a type flag and its arguments. `existing` is the key's current value,
  /// which `-array-add` and `-dict-add` extend.
  static func value(
    from words: [String], existing: PropertyListValue?, key: String, domain: String
  ) throws(ToolFailure) -> PropertyListValue {
    guard let flag = words.first else { throw ToolFailure.usage }
    let rest = Array(words.dropFirst())
    switch flag {
    case "-array", "-array-add":
      var elements: [PropertyListValue] = []
      if flag == "-array-add", let existing {
        guard case .array(let current) = existing else {
          throw ToolFailure("Value for key \(key) is not an array; cannot append.  Leaving defaults unchanged.")
        }
        elements = current
      }
      var index = 0
      while index < rest.count { elements.append(try item(rest, &index)) }
      return .array(elements)
    case "-dict", "-dict-add":
      var dictionary = PropertyListDictionary()
      if flag == "-dict-add", let existing {
        guard case .dictionary(let current) = existing else {
          throw ToolFailure("Value for key \(key) is not a dictionary; cannot append.  Leaving defaults unchanged.")
        }
        dictionary = current
      }
      var index = 0
      while index < rest.count {
        var entryKey = rest[index]
        if entryKey == "-string", index + 1 < rest.count {
          index += 1
          entryKey = rest[index]
        }
        index += 1
        guard index < rest.count else {
          throw ToolFailure("Key \(entryKey) lacks a corresponding value")
        }
        dictionary[entryKey] = try item(rest, &index)
      }
      return .dictionary(dictionary)
    default:
      var index = 0
      let value = try item(words, &index)
      guard index == words.count else { throw ToolFailure.usage }
      return value
    }
  }

  /// One value at `index` (a type flag and its argument, or a bare value), advancing past it.
  static func item(_ words: [String], _ index: inout Int) throws(ToolFailure) -> PropertyListValue {
    let word = words[index]
    index += 1
    let typed: Set<String> = ["-string", "-data", "-int", "-integer", "-float", "-bool", "-boolean", "-date"]
    guard typed.contains(word) else {
      if word.hasPrefix("-") && (word == "-array" || word == "-dict" || word == "-array-add" || word == "-dict-add") {
        throw ToolFailure("Cannot nest composite types (arrays and dictionaries); exiting")
      }
      return ArgumentDomain.value(of: word)
    }
    guard index < words.count else { throw ToolFailure.usage }
    let argument = words[index]
    index += 1
    switch word {
    case "-string": return .string(argument)
    case "-int", "-integer":
      guard let number = strictInteger(argument) else {
        throw ToolFailure("Value \(argument) for \(word) is not a decimal integer between -9223372036854775808 and 9223372036854775807")
      }
      return .integer(number)
    case "-float":
      guard let number = strictFloat(argument) else {
        throw ToolFailure("Value \(argument) for -float is not a finite decimal number")
      }
      return .real(Double(number), width: .single)
    case "-bool", "-boolean":
      switch argument.lowercased() {
      case "yes", "true", "1": return .bool(true)
      case "no", "false", "0": return .bool(false)
      default: throw ToolFailure("Value \(argument) for -bool is not one of TRUE, FALSE, YES or NO")
      }
    case "-date": return .date(try date(argument))
    case "-data": return .data(try hexData(argument))
    default: throw ToolFailure.usage
    }
  }

  /// `-int`'s argument: an optional sign and decimal digits that fit in 64 bits, nothing else
  /// (`abc`, `12abc`, `0x10`, `1e20` and the empty string are refused rather than stored as 0, 12,
  /// 0 or the largest integer).
  static func strictInteger(_ text: String) -> Int? {
    var digits = Substring(text)
    var negative = false
    if let sign = digits.first, sign == "-" || sign == "+" {
      negative = sign == "-"
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    var result = 0
    for byte in digits.utf8 {
      let (times, overflowed) = result.multipliedReportingOverflow(by: 10)
      let (next, overflowedAgain) =
        negative ? times.subtractingReportingOverflow(Int(byte - 0x30)) : times.addingReportingOverflow(Int(byte - 0x30))
      guard !overflowed, !overflowedAgain else { return nil }
      result = next
    }
    return result
  }

  /// `-float`'s argument: a whole decimal number (`1.5`, `-2`, `.5`, `1e3`) whose value is
  /// finite as a 32-bit float; `abc`, `1.5x`, `nan`, `inf` and `1e40` are refused.
  static func strictFloat(_ text: String) -> Float? {
    let bytes = Array(text.utf8)
    var index = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
    var digitCount = 0
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digitCount += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1; digitCount += 1 }
    }
    guard digitCount > 0 else { return nil }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
      let exponentStart = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      guard index > exponentStart else { return nil }
    }
    guard index == bytes.count, let value = Double(text) else { return nil }
    let single = Float(value)
    return single.isFinite ? single : nil
  }

  /// `write <domain> '<plist>'`: the text must be a property list.
  static func parsePlist(_ text: String) throws(ToolFailure) -> PropertyListValue {
    do {
      return try PropertyListValue(decoding: Array(text.utf8))
    } catch {
      throw ToolFailure("Could not parse: \(text).  Try single-quoting it.")
    }
  }

  /// Hex digits (spaces and `<` `>` allowed) as bytes.
  static func hexData(_ text: String) throws(ToolFailure) -> Data {
    var bytes: [UInt8] = []
    var high: UInt8?
    for character in text.utf8 {
      if character == UInt8(ascii: " ") || character == UInt8(ascii: "<") || character == UInt8(ascii: ">") { continue }
      guard let nibble = HexDigit.value(character) else { throw ToolFailure("Value \(text) for -data is not hexadecimal digits") }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    guard high == nil else { throw ToolFailure("Value \(text) for -data has an odd number of hexadecimal digits") }
    return Data(bytes)
  }

  /// Dates as `defaults` accepts them: `2024-01-02 03:04:05 +0000`, ISO 8601
  /// (`2024-01-02T03:04:05Z`), `2024-01-02 03:04:05` and `2024-01-02` (both UTC).
  static func date(_ text: String) throws(ToolFailure) -> Date {
    let formats = ["yyyy-MM-dd HH:mm:ss Z", "yyyy-MM-dd'T'HH:mm:ssZ", "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd"]
    for format in formats {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "UTC")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    throw ToolFailure("Value \(text) for -date is not a date such as 2024-01-02 03:04:05 +0000")
  }
}
