package import FoundationEssentials

/// The human-readable listing that `plutil -p` prints.
///
/// ```text
/// {
///   "CFBundleName" => "Sample"
///   "Items" => [
///     0 => 1
///     1 => 2.5
///   ]
///   "Created" => 2020-01-02 03:04:05 +0000
///   "Icon" => {length = 4, bytes = 0x89504e47}
///   "$class" => {
///     "CF$UID" => 3
///   }
/// }
/// ```
///
/// Each dictionary entry is `"key" => value`, each array element `index => value`, one per line,
/// nested two spaces per level. Strings are quoted but not escaped; reals print in Swift's
/// shortest round-trip form (`3.0`, `1e+300`); dates print as
/// `yyyy-MM-dd HH:mm:ss +0000` in UTC (proleptic Gregorian calendar); data prints as
/// Foundation's `NSData` description (all bytes in hex up to 24 bytes, otherwise the first 16 and
/// the last 8 in groups of four). A keyed-archiver UID prints as the one-entry `CF$UID`
/// dictionary it stands for in XML, because Apple's own listing (`<CFKeyedArchiverUID 0x…>`)
/// shows a memory address.
///
/// Apple says this format is "not stable and not designed for machine parsing"; so do we.
extension PropertyListValue {
  /// The `plutil -p` listing of this value, ending in a newline.
  ///
  /// - Parameter areInIncreasingOrder: the order of dictionary keys. plutil sorts keys with a
  ///   localized, numeric, case-insensitive comparison (ICU's root collation), which needs
  ///   FoundationInternationalization; the default here is the UTF-16 code-unit order that
  ///   CoreFoundation's XML writer uses.
  /// - Complexity: O(*n* log *n*) in the number of values; recursion as deep as the nesting.
  public func humanReadableDescription(
    sortingKeysBy areInIncreasingOrder: (String, String) -> Bool = { $0.utf16.lexicographicallyPrecedes($1.utf16) }
  ) -> String {
    var output = ""
    appendHumanReadable(to: &output, indent: 2, areInIncreasingOrder)
    return output
  }

  private func appendHumanReadable(
    to output: inout String, indent: Int, _ areInIncreasingOrder: (String, String) -> Bool
  ) {
    switch self {
    case .dictionary(let dictionary):
      output += "{\n"
      let order = dictionary.keys.indices.sorted {
        areInIncreasingOrder(dictionary.storedKeys[$0], dictionary.storedKeys[$1])
      }
      for position in order {
        Self.appendSpaces(indent, to: &output)
        output += "\""
        output += dictionary.storedKeys[position]
        output += "\" => "
        dictionary.storedValues[position].appendHumanReadable(to: &output, indent: indent + 2, areInIncreasingOrder)
      }
      Self.appendSpaces(indent - 2, to: &output)
      output += "}\n"
    case .array(let array):
      output += "[\n"
      for (index, element) in array.enumerated() {
        Self.appendSpaces(indent, to: &output)
        output += String(index)
        output += " => "
        element.appendHumanReadable(to: &output, indent: indent + 2, areInIncreasingOrder)
      }
      Self.appendSpaces(indent - 2, to: &output)
      output += "]\n"
    case .uid(let uid):
      output += "{\n"
      Self.appendSpaces(indent, to: &output)
      output += "\"CF$UID\" => \(uid)\n"
      Self.appendSpaces(indent - 2, to: &output)
      output += "}\n"
    case .string(let string):
      output += "\""
      output += string
      output += "\"\n"
    case .integer(let integer):
      output += integer.description
      output += "\n"
    case .real(let real, let width):
      output += width == .single ? Float(real).description : real.description
      output += "\n"
    case .bool(let bool):
      output += bool ? "true\n" : "false\n"
    case .date(let date):
      output += Self.dateDescription(date)
      output += "\n"
    case .data(let data):
      output += Self.dataDescription(data)
      output += "\n"
    }
  }

  private static func appendSpaces(_ count: Int, to output: inout String) {
    if count > 0 { output += String(repeating: " ", count: count) }
  }

  /// `NSData`'s description: `{length = 4, bytes = 0x01020304}`, or for more than 24 bytes
  /// `{length = 40, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 20212223 24252627 }`.
  package static func dataDescription(_ data: Data) -> String {
    let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    var text: [UInt8] = Array("{length = \(data.count), bytes = 0x".utf8)
    func appendHex(_ byte: UInt8) {
      text.append(hexDigits[Int(byte >> 4)])
      text.append(hexDigits[Int(byte & 0x0F)])
    }
    let count = data.count
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      if count <= 24 {
        for byte in bytes { appendHex(byte) }
      } else {
        for group in 0..<4 {
          for offset in 0..<4 { appendHex(bytes[group * 4 + offset]) }
          text.append(UInt8(ascii: " "))
        }
        text.append(contentsOf: "... ".utf8)
        for group in 0..<2 {
          for offset in 0..<4 { appendHex(bytes[count - 8 + group * 4 + offset]) }
          text.append(UInt8(ascii: " "))
        }
      }
    }
    text.append(UInt8(ascii: "}"))
    return String(decoding: text, as: UTF8.self)
  }

  /// `yyyy-MM-dd HH:mm:ss +0000`, in UTC, with the seconds rounded down.
  static func dateDescription(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < 1e15 else { return "<description unavailable>" }
    let civil = CalendarFields(secondsSinceReferenceDate: Int64(interval.rounded(.down)))
    var text = civil.year < 0 ? "-" : ""
    text += Self.zeroPadded(abs(civil.year), 4)
    text += "-" + Self.zeroPadded(civil.month, 2) + "-" + Self.zeroPadded(civil.day, 2)
    text += " " + Self.zeroPadded(civil.hour, 2) + ":" + Self.zeroPadded(civil.minute, 2)
    text += ":" + Self.zeroPadded(civil.second, 2) + " +0000"
    return text
  }

  static func zeroPadded(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}

extension PropertyListValue {
  /// A UTC calendar date and time in the proleptic Gregorian calendar (shared with plutil's raw
  /// date output).
  package struct CalendarFields: Hashable, Sendable {
    package var year: Int64, month: Int64, day: Int64
    package var hour: Int64, minute: Int64, second: Int64

    /// Splits whole seconds since 2001-01-01 00:00:00 UTC into calendar fields.
    package init(secondsSinceReferenceDate seconds: Int64) {
      // 2001-01-01 is 11_323 days after 1970-01-01.
      let (daysSinceReference, secondOfDay) = Self.floorDivide(seconds, 86_400)
      hour = secondOfDay / 3600
      minute = secondOfDay / 60 % 60
      second = secondOfDay % 60
      // Days since 0000-03-01, so that the leap day falls at the end of each counted year.
      let days = daysSinceReference + 11_323 + 719_468
      let (era, dayOfEra) = Self.floorDivide(days, 146_097)
      let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
      let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
      let shiftedMonth = (5 * dayOfYear + 2) / 153
      day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
      month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
      year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
      var quotient = value / divisor
      var remainder = value % divisor
      if remainder < 0 {
        quotient -= 1
        remainder += divisor
      }
      return (quotient, remainder)
    }
  }
}
