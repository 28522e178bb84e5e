/// Checks that bundle identifiers and app names are safe to use as folder names.
enum BundleIdentifier {
  /// The longest identifier accepted (a folder name must fit in 255 bytes).
  static let maximumLength = 255

  /// A bundle identifier (`CFBundleIdentifier`) is reverse-DNS: parts of letters, digits, `-`
  /// and `_`, joined by single dots. Apple documents letters, digits, `-` and `.`; `_` is
  /// accepted too because real preference domains use it. Nothing else — in particular no `/`,
  /// no `..`, no leading dot (which would hide the folder or collide with `.GlobalPreferences`)
  /// and no NUL — can reach the file system.
  static func validate(_ identifier: String) throws(SandboxError) {
    guard !identifier.isEmpty else { throw refusal(identifier, "the bundle identifier is empty") }
    guard identifier.utf8.count <= maximumLength else {
      throw refusal(identifier, "the bundle identifier is longer than \(maximumLength) bytes")
    }
    var previousWasDot = true  // so a leading dot is refused
    for byte in identifier.utf8 {
      switch byte {
      case UInt8(ascii: "."):
        guard !previousWasDot else { throw refusal(identifier, "the bundle identifier has an empty part (a leading, trailing or doubled dot)") }
        previousWasDot = true
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "_"):
        previousWasDot = false
      default:
        throw refusal(identifier, "the bundle identifier contains \(describe(byte)); only letters, digits, '-', '_' and '.' are allowed")
      }
    }
    guard !previousWasDot else { throw refusal(identifier, "the bundle identifier has an empty part (a leading, trailing or doubled dot)") }
  }

  /// The app name becomes the folder `<name>.app`: any characters but `/` and NUL, not empty,
  /// not `.` or `..`, and short enough for a folder name.
  static func validateAppName(_ name: String) throws(SandboxError) {
    guard !name.isEmpty, name != ".", name != ".." else { throw refusal(name, "the app name cannot name a folder") }
    guard !name.utf8.contains(0), !name.utf8.contains(UInt8(ascii: "/")) else {
      throw refusal(name, "the app name contains '/' or a NUL byte")
    }
    guard name.utf8.count + 4 <= maximumLength else { throw refusal(name, "the app name is too long") }
  }

  private static func refusal(_ identifier: String, _ detail: String) -> SandboxError {
    SandboxError(.invalidIdentifier, path: identifier.replacingNUL(), detail: detail)
  }

  private static func describe(_ byte: UInt8) -> String {
    switch byte {
    case 0: "a NUL byte"
    case UInt8(ascii: "/"): "'/'"
    case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
    default: "the byte 0x\(String(byte, radix: 16))"
    }
  }
}

extension String {
  /// The string with NUL bytes shown as `\0`, so messages can be printed.
  func replacingNUL() -> String {
    utf8.contains(0) ? String(decoding: utf8.flatMap { $0 == 0 ? Array("\\0".utf8) : [$0] }, as: UTF8.self) : self
  }
}
