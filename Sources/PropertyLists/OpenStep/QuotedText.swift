/// Text in double quotes with backslash escapes — the one quoting rule every Stasis tool writes.
///
/// Two flavours share the same core (`"` and `\` escaped with a backslash, a newline as `\n`, a
/// carriage return as `\r`, a tab as `\t`):
/// - ``stringsToken(_:)`` writes every other character as itself, as a `.strings` file holds it
///   (the tokens of `ibtool --export-strings-file` and of `plutil`'s in-place `.strings` edits);
/// - ``oneLine(_:)`` also writes the other control characters, DEL and the Unicode line and
///   paragraph separators as `\u{…}`, so that a listing line stays one line whatever a title or a
///   saved state value holds (`ibtool --objects`, `restoration dump`).
public enum QuotedText {
  /// `text` as a quoted `.strings` token that the `.strings` reader reads back as `text`.
  public static func stringsToken(_ text: String) -> String {
    quoted(text, escapingControls: false)
  }

  /// `text` quoted on one line, control characters spelled `\u{…}` (hexadecimal, lower case).
  public static func oneLine(_ text: String) -> String {
    quoted(text, escapingControls: true)
  }

  private static func quoted(_ text: String, escapingControls: Bool) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where escapingControls && isLineBreakingOrControl(scalar):
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private static func isLineBreakingOrControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}" || scalar == "\u{2029}"
  }
}
