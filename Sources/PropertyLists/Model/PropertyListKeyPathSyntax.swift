/// The one grammar of dotted key paths (`a.b.0.c`): components separated by `.`, a backslash
/// escape for a dot inside a key, in two dialects that differ only in what a backslash escapes.
///
/// | dialect | `\.` | `\\` | `\x` (any other) | trailing `\` | written back |
/// |---|---|---|---|---|---|
/// | ``plutil`` | `.` | `\\` (both kept) | `\x` (kept) | `\` | dots as `\.` |
/// | ``backslash`` | `.` | `\` | `x` | `\` | dots as `\.`, backslashes as `\\` |
///
/// ```swift
/// PropertyListKeyPathSyntax.plutil.components(of: #"a\.b.c"#)   // ["a.b", "c"]
/// PropertyListKeyPathSyntax.backslash.joined(["a.b", #"c\d"#])  // #"a\.b.c\\d"#
/// ```
///
/// A numeric component indexes an array when it is applied to one; the grammar itself knows
/// nothing of values. An empty path is one empty component (`""` → `[""]`).
public struct PropertyListKeyPathSyntax: Sendable, Hashable {
  /// Whether a backslash escapes any character, or only a dot.
  public enum Escapes: Sendable, Hashable {
    /// Only `\.` is an escape; any other backslash is itself (Apple's plutil).
    case dotOnly
    /// A backslash makes the next character literal, whatever it is.
    case anyCharacter
  }

  public var escapes: Escapes

  public init(escapes: Escapes) { self.escapes = escapes }

  /// plutil's key paths (`-extract`, `-insert`, `-replace`, `-remove`, and the messages of
  /// ``PropertyListValue``'s editing methods): only `\.` is an escape.
  public static let plutil = PropertyListKeyPathSyntax(escapes: .dotOnly)

  /// ``PropertyListValue/value(atKeyPath:)`` and the dotted-path editing methods, and the key
  /// paths the writers and the JSON reader name in their errors: `\` escapes any character.
  public static let backslash = PropertyListKeyPathSyntax(escapes: .anyCharacter)

  /// Splits `keyPath` into its components.
  /// - Complexity: O(*n*) in the length of the path.
  public func components(of keyPath: String) -> [String] {
    var components: [String] = []
    var current = String.UnicodeScalarView()
    var scalars = keyPath.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      if scalar == "\\", let next = pending, next == "." || escapes == .anyCharacter {
        current.append(next)
        pending = scalars.next()
      } else if scalar == "." {
        components.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    components.append(String(current))
    return components
  }

  /// Joins components into a key path that ``components(of:)`` splits back into them (for the
  /// ``plutil`` dialect, unless a component ends in a backslash, which plutil cannot express).
  public func joined<Components: Sequence<String>>(_ components: Components) -> String {
    var result = ""
    var first = true
    for component in components {
      if !first { result += "." }
      first = false
      let needsEscaping = component.utf8.contains {
        $0 == UInt8(ascii: ".") || (escapes == .anyCharacter && $0 == UInt8(ascii: "\\"))
      }
      guard needsEscaping else {
        result += component
        continue
      }
      for scalar in component.unicodeScalars {
        if scalar == "." || (escapes == .anyCharacter && scalar == "\\") { result += "\\" }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
