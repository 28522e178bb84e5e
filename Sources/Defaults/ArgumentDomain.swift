import Foundation
package import PropertyLists

/// Builds the argument domain (`NSArgumentDomain`) from process arguments.
package enum ArgumentDomain {
  /// Every adjacent pair `-Key value` where `value` does not start with `-`. A value beginning
  /// with `{`, `(`, `[`, `<` or `"` is read as a property list (OpenStep, XML or JSON text) and
  /// kept as a string when it does not parse; anything else is a string. The first argument (the
  /// program) is skipped. A later pair for the same key wins.
  package static func parse(_ arguments: [String]) -> [String: PropertyListValue] {
    var domain: [String: PropertyListValue] = [:]
    var index = 1
    while index < arguments.count {
      let argument = arguments[index]
      guard argument.utf8.count > 1, argument.utf8.first == UInt8(ascii: "-"), index + 1 < arguments.count,
        arguments[index + 1].utf8.first != UInt8(ascii: "-")
      else {
        index += 1
        continue
      }
      let key = String(argument.dropFirst())
      domain[key] = value(of: arguments[index + 1])
      index += 2
    }
    return domain
  }

  /// One argument's value.
  package static func value(of text: String) -> PropertyListValue {
    guard let first = text.utf8.first, "{([<\"".utf8.contains(first) else { return .string(text) }
    var options = PropertyListReadingOptions()
    options.maximumByteCount = 1 << 20
    if let parsed = try? PropertyListValue(decoding: Array(text.utf8), options: options) { return parsed }
    return .string(text)
  }
}
