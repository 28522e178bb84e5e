import PropertyLists
public import StasisSystem

/// A localized format whose `%#@variables@` are chosen by rules from a `.stringsdict` entry —
/// what Foundation's `localizedStringForKey:` returns for such keys and
/// `+[NSString localizedStringWithFormat:]` resolves.
///
/// Variables of type `NSStringPluralRuleType` pick a variant by the CLDR plural category of
/// their argument in the table's language (an integer 0 takes a `zero` variant when there is
/// one, in any language); `NSStringDeviceSpecificRuleType` picks the variant for the device
/// (`iphone`, `ipad`, `mac`, … else `other`); `NSStringVariableWidthRuleType` takes its widest
/// variant.
public struct LocalizedFormat: Sendable, Hashable {
  /// A variable's rule.
  public struct Variable: Sendable, Hashable {
    /// `NSStringFormatSpecTypeKey`, e.g. `NSStringPluralRuleType`.
    public var ruleType: String
    /// `NSStringFormatValueTypeKey` (`d`, `ld`, `f`…), informational.
    public var valueType: String?
    /// Category or device name → variant text.
    public var variants: [String: String]

    public init(ruleType: String, valueType: String?, variants: [String: String]) {
      self.ruleType = ruleType
      self.valueType = valueType
      self.variants = variants
    }
  }

  /// `NSStringLocalizedFormatKey`, the format with its `%#@variables@`.
  public var format: String
  /// The variables by name.
  public var variables: [String: Variable]
  /// The language whose plural rules apply (the localization the table came from).
  public var language: String
  /// The device name for `NSStringDeviceSpecificRuleType` (`iphone`, `ipad`, `linux`…).
  public var device: String

  public init(format: String, variables: [String: Variable], language: String, device: String = "linux") {
    self.format = format
    self.variables = variables
    self.language = language
    self.device = device
  }

  /// Chooses each variable's variant for `arguments` and formats the result
  /// (`String.localizedStringWithFormat`).
  ///
  /// Variants refer to the same arguments as the format (a variant "%d files" for variable
  /// number *k* prints argument *k*): sequential specifiers inside a variant are bound to the
  /// variable's own argument, the rest of the format's sequential specifiers keep their order.
  ///
  /// - Throws: `BundleError.Code.formatMismatch` when a variable's argument is missing or not a
  ///   number, or when a specifier does not fit its argument; `BundleError.Code.invalidFormat`
  ///   for an unknown variable or malformed specifiers.
  public func formatted(_ arguments: [FormatValue]) throws(BundleError) -> String {
    if variables.isEmpty { return try StringFormat.format(format, arguments) }
    let expanded = try expand(format, arguments: arguments, boundTo: nil, depth: 0)
    return try StringFormat.format(expanded, arguments)
  }

  /// ``formatted(_:)-([FormatValue])`` with Swift values.
  public func formatted(_ arguments: any FormatArgument...) throws(BundleError) -> String {
    try formatted(arguments.map(\.formatValue))
  }

  /// Rewrites `text` into a fully positional format with variables replaced by their variants.
  /// `boundTo` is the argument a variant's sequential specifiers refer to.
  func expand(_ text: String, arguments: [FormatValue], boundTo: Int?, depth: Int) throws(BundleError) -> String {
    guard depth < 8 else { throw BundleError(.invalidFormat, detail: "variables nested more than 8 deep in \(format)") }
    let tokens = try FormatTokenizer.tokenize(text)
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 8)
    var sequential = 0
    func positioned(_ spec: FormatSpec, _ explicit: Int?) -> Int {
      if let explicit { return explicit }
      if let boundTo { return boundTo }
      sequential += 1
      return sequential
    }
    for token in tokens {
      switch token {
      case .literal(let start, let end): output.append(contentsOf: bytes[start..<end])
      case .percent: output.append(contentsOf: [UInt8(ascii: "%"), UInt8(ascii: "%")])
      case .specifier(let spec):
        if (spec.widthFromArgument && spec.widthPosition == nil) || (spec.precisionFromArgument && spec.precisionPosition == nil) {
          throw BundleError(.invalidFormat, detail: "\(spec.text) in a .stringsdict format needs a positional width or precision (*N$)")
        }
        let index = positioned(spec, spec.position)
        output.append(contentsOf: "%\(index)$".utf8)
        output.append(contentsOf: bytes[spec.bodyStart..<spec.end])
      case .variable(let spec, let name):
        let index = positioned(spec, spec.position)
        guard let variable = variables[name] else {
          throw BundleError(.invalidFormat, detail: "\(spec.text) names no variable of \(format)")
        }
        let variant = try choose(variable, name: name, spec: spec, argumentIndex: index, arguments: arguments)
        output.append(contentsOf: try expand(variant, arguments: arguments, boundTo: index, depth: depth + 1).utf8)
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  func choose(_ variable: Variable, name: String, spec: FormatSpec, argumentIndex: Int, arguments: [FormatValue])
    throws(BundleError) -> String
  {
    switch variable.ruleType {
    case "NSStringDeviceSpecificRuleType":
      if let text = variable.variants[device] ?? variable.variants["other"] { return text }
      throw BundleError(.invalidFormat, detail: "variable \(name) has no variant for \(device) and no other")
    case "NSStringVariableWidthRuleType":
      let widest = variable.variants.keys.compactMap { Int($0) }.max()
      if let widest, let text = variable.variants[String(widest)] { return text }
      throw BundleError(.invalidFormat, detail: "variable \(name) has no numeric width variants")
    default:
      guard argumentIndex >= 1, argumentIndex <= arguments.count else {
        throw BundleError(
          .formatMismatch, detail: "variable \(spec.text) uses argument \(argumentIndex), but \(arguments.count) were given")
      }
      guard let operands = arguments[argumentIndex - 1].pluralOperands else {
        throw BundleError(
          .formatMismatch, detail: "variable \(spec.text) needs a number, got \(arguments[argumentIndex - 1].kindName)")
      }
      if operands.isInteger, operands.i == 0, let zero = variable.variants["zero"] { return zero }
      let category = PluralRules.category(for: operands, language: language)
      if let text = variable.variants[category.rawValue] ?? variable.variants["other"] { return text }
      throw BundleError(.invalidFormat, detail: "variable \(name) has no \(category.rawValue) and no other variant")
    }
  }

  /// Reads one `.stringsdict` entry (a dictionary with `NSStringLocalizedFormatKey`).
  static func parse(_ entry: PropertyListDictionary, language: String, device: String) -> LocalizedFormat? {
    guard let format = entry["NSStringLocalizedFormatKey"]?.stringValue else { return nil }
    var variables: [String: Variable] = [:]
    for (name, value) in entry where name != "NSStringLocalizedFormatKey" {
      guard let rule = value.dictionaryValue else { continue }
      var variants: [String: String] = [:]
      for (key, text) in rule where key != "NSStringFormatSpecTypeKey" && key != "NSStringFormatValueTypeKey" {
        if let string = text.stringValue { variants[key] = string }
      }
      variables[name] = Variable(
        ruleType: rule["NSStringFormatSpecTypeKey"]?.stringValue ?? "NSStringPluralRuleType",
        valueType: rule["NSStringFormatValueTypeKey"]?.stringValue, variants: variants)
    }
    return LocalizedFormat(format: format, variables: variables, language: language, device: device)
  }
}
