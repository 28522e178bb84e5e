import Foundation
import PropertyLists

/// Encoding values in plutil's output formats and sending them where they belong.
extension PlistTool {
  /// Writes `value`, which came from `inputPath`, in `format`: to standard output or to a file
  /// (atomically), as ``Options/destination(for:format:)`` decides.
  ///
  /// - Parameters:
  ///   - keyPath: the key path the value came from, for messages (`-extract`).
  ///   - objcHeader: with `objc`, also write the matching `.h` next to the output.
  func emit(
    _ value: PropertyListValue, from inputPath: String, as format: OutputFormat, options: Options,
    keyPath: String? = nil, objcHeader: Bool = false
  ) throws(PlistToolError) {
    let destination = options.destination(for: inputPath, format: format)
    let bytes = try encode(
      value, as: format, readable: options.readable, sourcePath: inputPath, outputPath: destination ?? "-",
      keyPath: keyPath)
    guard let destination else {
      environment.writeStandardOutput(bytes)
      if options.terminatingNewline && format.printsByDefault { environment.writeStandardOutput([0x0A]) }
      return
    }
    try environment.writeFileAtomically(bytes, toPath: destination, input: inputPath)
    if format == .objc && objcHeader {
      let header = try Literal.objcHeader(for: value, sourcePath: inputPath, outputPath: destination)
      try environment.writeFileAtomically(
        Array(header.utf8), toPath: Options.replacingExtension(of: destination, with: "h"), input: inputPath)
    }
  }

  /// The bytes of `value` in `format`.
  func encode(
    _ value: PropertyListValue, as format: OutputFormat, readable: Bool, sourcePath: String,
    outputPath: String, keyPath: String?
  ) throws(PlistToolError) -> [UInt8] {
    switch format {
    case .xml: return try encode(value, as: .xml, options: .default)
    case .binary: return try encode(value, as: .binary, options: .default)
    case .openStep: return try encode(value, as: .openStep, options: .default)
    case .json:
      guard Self.isValidJSONDocument(value) else {
        throw PlistToolError(.unrepresentable, "Invalid object in plist for JSON format")
      }
      let options = readable ? PropertyListWritingOptions(prettyPrinted: true, sortedKeys: true) : .default
      return try encode(value, as: .json, options: options)
    case .raw:
      return Array(try Self.rawText(value, keyPath: keyPath ?? "unknown key path").utf8)
    case .type:
      return Array(ValueType(of: value).rawValue.utf8)
    case .swift:
      return Array(try Literal.swift(value, sourcePath: sourcePath).utf8)
    case .objc:
      return Array(try Literal.objc(value, sourcePath: sourcePath, outputPath: outputPath).utf8)
    }
  }

  private func encode(
    _ value: PropertyListValue, as format: PropertyListFormat, options: PropertyListWritingOptions
  ) throws(PlistToolError) -> [UInt8] {
    do {
      return try value.encodedBytes(as: format, options: options)
    } catch {
      throw PlistToolError(.unrepresentable, "Invalid object in plist for \(format) format (\(error.detail))")
    }
  }

  /// What `JSONSerialization.isValidJSONObject` accepts: an array or dictionary at the top, and
  /// inside only strings, finite numbers, booleans, arrays and dictionaries.
  static func isValidJSONDocument(_ value: PropertyListValue) -> Bool {
    switch value {
    case .array, .dictionary: return isValidJSONValue(value)
    default: return false
    }
  }

  private static func isValidJSONValue(_ value: PropertyListValue) -> Bool {
    switch value {
    case .string, .integer, .bool: return true
    case .real(let real, _): return real.isFinite
    case .date, .data, .uid: return false
    case .array(let array): return array.allSatisfy(isValidJSONValue)
    case .dictionary(let dictionary): return dictionary.values.allSatisfy(isValidJSONValue)
    }
  }

  /// The `raw` form of `-extract`: the bare value, not a document.
  ///
  /// bool → `true`/`false`; integer → decimal; float → `%f`; string → itself; date → RFC 3339 in
  /// UTC (`2020-01-02T03:04:05Z`); data → base64; dictionary → its keys in plutil's order, one
  /// per line; array → its count.
  static func rawText(_ value: PropertyListValue, keyPath: String) throws(PlistToolError) -> String {
    switch value {
    case .bool(let bool): return bool ? "true" : "false"
    case .integer(let integer): return integer.description
    case .real(let real, _): return String(format: "%f", real)
    case .string(let string): return string
    case .date(let date): return iso8601(date)
    case .data(let data): return data.base64EncodedString()
    case .array(let array): return String(array.count)
    case .dictionary(let dictionary): return dictionary.keys.sorted(by: KeyOrder.areInIncreasingOrder).joined(separator: "\n")
    case .uid:
      throw PlistToolError(.unrepresentable, "Value at \(keyPath) is a uid type and cannot be extracted in raw format")
    }
  }

  /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, seconds rounded down.
  static func iso8601(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, abs(interval) < 1e15 else { return String(interval) }
    let fields = PropertyListValue.CalendarFields(secondsSinceReferenceDate: Int64(interval.rounded(.down)))
    func pad(_ value: Int64, _ width: Int) -> String {
      let digits = String(abs(value))
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return pad(fields.year, 4) + "-" + pad(fields.month, 2) + "-" + pad(fields.day, 2) + "T" + pad(fields.hour, 2)
      + ":" + pad(fields.minute, 2) + ":" + pad(fields.second, 2) + "Z"
  }
}

/// plutil's dictionary-key order for `-p`, raw dictionaries and literals: a numeric,
/// case-insensitive comparison in the root locale with ties broken, which is ICU's root
/// collation (`"a2" < "a10"`, `"a" < "A" < "b"`, punctuation before digits before letters).
enum KeyOrder {
  private static let rootLocale = Locale(identifier: "")

  static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
    lhs.compare(rhs, options: [.numeric, .caseInsensitive, .forcedOrdering], range: nil, locale: rootLocale)
      == .orderedAscending
  }
}
