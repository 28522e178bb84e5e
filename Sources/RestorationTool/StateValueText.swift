import FoundationEssentials
import PropertyLists

/// Node state and app-wide values as text: compact (one line), deterministic (dictionary keys
/// sorted), and typed at a glance: strings quoted, arrays `[a, b]`, dictionaries `{"k": v}`,
/// dates in ISO 8601, data as `<N bytes>`.
enum StateValueText {
  /// The value as `dump`, `diff` and `why` print it.
  static func compact(_ value: Any) -> String { render(value, exact: false) }

  /// The value with nothing left out (data in hexadecimal, dates to the last digit): two values
  /// are the same for `diff` when these texts are equal.
  static func exact(_ value: Any) -> String { render(value, exact: true) }

  private static func render(_ value: Any, exact: Bool) -> String {
    switch value {
    case let string as String: return QuotedText.oneLine(string)
    case let bool as Bool: return bool ? "true" : "false"
    case let integer as any BinaryInteger: return "\(integer)"
    case let number as Double: return "\(number)"
    case let number as Float: return "\(number)"
    case let date as Date: return exact ? "date(\(date.timeIntervalSinceReferenceDate))" : iso8601(date)
    case let data as Data: return exact ? "<" + data.map { hexDigits($0) }.joined() + ">" : "<\(data.count) bytes>"
    case let dictionary as [String: Any]:
      return entries(dictionary.map { (QuotedText.oneLine($0.key), $0.value) }, exact: exact)
    case let dictionary as [AnyHashable: Any]:
      return entries(dictionary.map { (render($0.key.base, exact: exact), $0.value) }, exact: exact)
    case let array as [Any]: return "[" + array.map { render($0, exact: exact) }.joined(separator: ", ") + "]"
    default: return "<\(type(of: value))>"
    }
  }

  private static func entries(_ pairs: [(key: String, value: Any)], exact: Bool) -> String {
    "{" + pairs.sorted { $0.key < $1.key }.map { $0.key + ": " + render($0.value, exact: exact) }.joined(separator: ", ") + "}"
  }

  /// The date in UTC, `2026-01-02T03:04:05Z`, with milliseconds when it has a fraction of a second.
  static func iso8601(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    let fractional = interval.isFinite && interval != interval.rounded(.down)
    return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractional))
  }

  private static func hexDigits(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return byte < 16 ? "0" + digits : digits
  }
}
