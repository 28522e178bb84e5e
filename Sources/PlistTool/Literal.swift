import Foundation
import PropertyLists

/// `-convert swift` and `-convert objc`: the value as a source-code literal.
///
/// The layout follows Apple's plutil (four-space indents, a trailing comma after every element,
/// dictionary keys in plutil's order, reals as `%f`, a `/// Generated from` comment, a variable
/// named after the input file). Strings are escaped completely, so that the output always
/// compiles, where Apple's escapes only quotes and a few backslash pairs.
enum Literal {
  // MARK: Swift

  static func swift(_ value: PropertyListValue, sourcePath: String) throws(PlistToolError) -> String {
    guard isSwiftRepresentable(value) else {
      throw PlistToolError(.unrepresentable, "Input contains an object that cannot be represented in Swift literal syntax")
    }
    var text = "/// Generated from \(displayName(sourcePath))\n"
    text += "let \(variableName(sourcePath, swift: true))"
    switch value {
    case .dictionary(let dictionary) where dictionary.isEmpty || hasMixedTypes(dictionary.values):
      text += " : [String : Any]"
    case .array(let array) where array.isEmpty || hasMixedTypes(array):
      text += " : [Any]"
    default: break
    }
    text += " = "
    appendLiteral(value, objc: false, depth: 0, to: &text)
    text += "\n"
    return text
  }

  private static func isSwiftRepresentable(_ value: PropertyListValue) -> Bool {
    switch value {
    case .uid: false
    case .array(let array): array.allSatisfy(isSwiftRepresentable)
    case .dictionary(let dictionary): dictionary.values.allSatisfy(isSwiftRepresentable)
    default: true
    }
  }

  private static func hasMixedTypes(_ values: [PropertyListValue]) -> Bool {
    guard let first = values.first.map(ValueType.init(of:)) else { return false }
    return values.contains { ValueType(of: $0) != first }
  }

  // MARK: Objective-C

  static func objc(_ value: PropertyListValue, sourcePath: String, outputPath: String) throws(PlistToolError) -> String {
    var text = ""
    if outputPath != "-" { text += "#import \"\(Options.stem(of: outputPath)).h\"\n\n" }
    text += try objcDeclaration(value, sourcePath: sourcePath) + " = "
    appendLiteral(value, objc: true, depth: 0, to: &text)
    text += ";\n"
    return text
  }

  /// The `.h` that `-convert objc -header` writes next to the `.m`.
  static func objcHeader(for value: PropertyListValue, sourcePath: String, outputPath: String) throws(PlistToolError) -> String {
    "#import <Foundation/Foundation.h>\n\n" + (try objcDeclaration(value, sourcePath: sourcePath, external: true)) + ";\n"
  }

  private static func objcDeclaration(
    _ value: PropertyListValue, sourcePath: String, external: Bool = false
  ) throws(PlistToolError) -> String {
    guard isObjCRepresentable(value) else {
      throw PlistToolError(.unrepresentable, "Input contains an object that cannot be represented in Obj-C literal syntax")
    }
    let className: String
    switch value {
    case .bool, .integer, .real: className = "NSNumber"
    case .string: className = "NSString"
    case .array: className = "NSArray"
    default: className = "NSDictionary"
    }
    return "/// Generated from \(displayName(sourcePath))\n__attribute__((visibility(\"hidden\")))\n"
      + (external ? "extern " : "") + "\(className) * const \(variableName(sourcePath, swift: false))"
  }

  private static func isObjCRepresentable(_ value: PropertyListValue) -> Bool {
    switch value {
    case .string, .bool, .integer, .real: true
    case .array(let array): array.allSatisfy(isObjCRepresentable)
    case .dictionary(let dictionary): dictionary.values.allSatisfy(isObjCRepresentable)
    case .date, .data, .uid: false
    }
  }

  // MARK: Both syntaxes

  /// `value` as a literal of either syntax: Objective-C's `@"…"`, `@[…]` and `@{…}`, or Swift's
  /// `"…"`, `[…]` and `[k : v]` (`[:]` when empty), with Swift's `Data([…])` and `Date(…)`.
  private static func appendLiteral(_ value: PropertyListValue, objc: Bool, depth: Int, to text: inout String) {
    let at = objc ? "@" : ""
    switch value {
    case .bool, .integer, .real: text += number(value, objcStyle: objc)
    case .string(let string): text += at + "\"" + escaped(string, swift: !objc) + "\""
    case .array(let array):
      text += at + "[\n"
      for element in array {
        text += indentation(depth + 1)
        appendLiteral(element, objc: objc, depth: depth + 1, to: &text)
        text += ",\n"
      }
      text += indentation(depth) + "]"
    case .dictionary(let dictionary):
      guard objc || !dictionary.isEmpty else {
        text += "[:]"
        return
      }
      text += objc ? "@{\n" : "[\n"
      for key in dictionary.keys.sorted(by: KeyOrder.areInIncreasingOrder) {
        text += indentation(depth + 1) + at + "\"" + escaped(key, swift: !objc) + "\" : "
        appendLiteral(dictionary[key]!, objc: objc, depth: depth + 1, to: &text)
        text += ",\n"
      }
      text += indentation(depth) + (objc ? "}" : "]")
    case .data(let data):
      text += "Data(["
      text += data.map { String(format: "0x%02X", $0) }.joined(separator: ", ")
      text += "])"
    case .date(let date):
      text += "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
    case .uid:
      break  // excluded by isSwiftRepresentable and isObjCRepresentable
    }
  }

  // MARK: Shared

  private static func number(_ value: PropertyListValue, objcStyle: Bool) -> String {
    let text: String
    switch value {
    case .bool(let bool): text = objcStyle ? (bool ? "YES" : "NO") : (bool ? "true" : "false")
    case .integer(let integer): text = integer.description
    case .real(let real, _): text = String(format: "%f", real)
    default: text = ""
    }
    return objcStyle ? "@" + text : text
  }

  private static func indentation(_ depth: Int) -> String { String(repeating: " ", count: 4 * depth) }

  /// The name after `/// Generated from`: the input's file name (`-` for standard input).
  private static func displayName(_ sourcePath: String) -> String {
    let name = Options.lastComponent(of: sourcePath)
    return name.isEmpty ? "a file" : name
  }

  /// The constant's name: the input's file name without extension, with `-` and spaces made `_`
  /// and symbols and control characters dropped (as Apple's plutil does), then made a valid
  /// identifier whatever the file is called: any other character that cannot stand in an
  /// identifier (`.`, `(`, `'`) becomes `_`, a leading digit gets a `_` before it, an empty name
  /// becomes `plist`, and a keyword is escaped (`` `class` `` in Swift, `int_` in Objective-C).
  static func variableName(_ sourcePath: String, swift: Bool = true) -> String {
    var name = String.UnicodeScalarView()
    for scalar in Options.stem(of: sourcePath).unicodeScalars {
      switch scalar {
      case "-", " ": name.append("_")
      default:
        switch scalar.properties.generalCategory {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .control, .format: continue
        default: name.append(isIdentifierCharacter(scalar) ? scalar : "_")
        }
      }
    }
    if name.isEmpty { return "plist" }
    if let first = name.first, first.properties.numericType != nil || [.nonspacingMark, .spacingMark, .enclosingMark].contains(first.properties.generalCategory) {
      name.insert("_", at: name.startIndex)
    }
    let identifier = String(name)
    if swift { return swiftKeywords.contains(identifier) ? "`\(identifier)`" : identifier }
    return objectiveCKeywords.contains(identifier) ? identifier + "_" : identifier
  }

  /// Letters, digits, marks and `_`: what both Swift and C11 (with UTF-8 identifiers) accept.
  static func isIdentifierCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "_" { return true }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber,
      .decimalNumber, .nonspacingMark, .spacingMark, .connectorPunctuation:
      return scalar.value != 0x2040  // ⁀ is connector punctuation but no identifier character
    default: return false
    }
  }

  /// Words Swift reserves in a declaration's name (a backquoted name is always valid).
  static let swiftKeywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
    "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
    "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
    "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
    "super", "throws", "true", "try",
  ]

  /// C11 and Objective-C keywords that cannot name a constant.
  static let objectiveCKeywords: Set<String> = [
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Alignas",
    "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn", "_Static_assert",
    "_Thread_local", "id", "self", "super", "nil", "YES", "NO", "BOOL", "SEL", "Class", "IMP",
  ]

  private static func escaped(_ string: String, swift: Bool) -> String {
    var result = String.UnicodeScalarView()
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
      case "\"": result.append(contentsOf: "\\\"".unicodeScalars)
      case "\n": result.append(contentsOf: "\\n".unicodeScalars)
      case "\r": result.append(contentsOf: "\\r".unicodeScalars)
      case "\t": result.append(contentsOf: "\\t".unicodeScalars)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          let escape = swift
            ? "\\u{" + String(scalar.value, radix: 16) + "}"
            : "\\" + String(repeating: "0", count: 3 - String(scalar.value, radix: 8).count) + String(scalar.value, radix: 8)
          result.append(contentsOf: escape.unicodeScalars)
        } else {
          result.append(scalar)
        }
      }
    }
    return String(result)
  }
}
