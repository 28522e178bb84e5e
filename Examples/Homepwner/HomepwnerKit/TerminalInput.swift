/// What the user did at the terminal: a key, or a mouse event xterm's SGR mouse reporting sent.
public enum TerminalInput: Equatable, Sendable {
  case up, down, left, right, enter, tab, backspace, escape
  /// Ctrl-P.
  case attachPhoto
  /// A printable character (a whole UTF-8 sequence).
  case character(Character)
  /// A press of the left button on the cell at `column`, `row` (both from 0, from the top left).
  case click(column: Int, row: Int)
  /// The wheel turned away from the user / towards the user.
  case scrollUp, scrollDown
}

/// Turns the bytes a terminal sends into ``TerminalInput``s: keys, arrow keys (`ESC [ A`, and
/// `ESC O A` in application mode), and xterm's SGR mouse reports (`ESC [ < button ; column ; row M`).
///
/// A sequence or UTF-8 character that a read cut short is kept until the next read completes it.
/// A lone escape at the end of a read is the Escape key: the terminal host passes an escape on by
/// itself only when nothing followed it for a moment (`TerminalHost.escapeDelay`), so a sequence
/// is never cut right after its escape. Releases (a final `m`), motion, the middle and right
/// buttons, and sequences that are not understood are dropped; so is an unfinished sequence longer
/// than ``longestSequence`` bytes.
public struct TerminalInputParser: Sendable {
  /// The start of a sequence or character the last read left unfinished.
  private var unfinished: [UInt8] = []

  /// The longest unfinished escape sequence kept waiting for its end, in bytes.
  public static let longestSequence = 32

  public init() {}

  /// The inputs in `bytes`, after what the previous read left unfinished.
  public mutating func parse(_ bytes: [UInt8]) -> [TerminalInput] {
    let text = unfinished + bytes
    unfinished = []
    var inputs: [TerminalInput] = []
    var index = 0
    while index < text.count {
      let byte = text[index]
      switch byte {
      case 0x1B:
        guard index + 1 < text.count else {
          inputs.append(.escape)
          index += 1
          continue
        }
        switch text[index + 1] {
        case UInt8(ascii: "["):
          // A control sequence: parameter and intermediate bytes, then a final byte.
          var end = index + 2
          while end < text.count, (0x20...0x3F).contains(text[end]) { end += 1 }
          if end == text.count {
            if end - index <= Self.longestSequence { unfinished = Array(text[index...]) }
            return inputs
          }
          if (0x40...0x7E).contains(text[end]) {
            if let input = Self.controlSequence(parameters: text[(index + 2)..<end], final: text[end]) { inputs.append(input) }
            index = end + 1
          } else {
            index = end  // broken off by a control byte: dropped, the byte read as itself
          }
        case UInt8(ascii: "O"):
          guard index + 2 < text.count else {
            unfinished = Array(text[index...])
            return inputs
          }
          if let arrow = Self.arrow(text[index + 2]) { inputs.append(arrow) }
          index += 3
        default:
          // Escape, then the next byte as itself (Alt and a key).
          inputs.append(.escape)
          index += 1
        }
        continue
      case 0x0D, 0x0A: inputs.append(.enter)
      case 0x09: inputs.append(.tab)
      case 0x7F, 0x08: inputs.append(.backspace)
      case 0x10: inputs.append(.attachPhoto)
      case 0x20...0x7E: inputs.append(.character(Character(Unicode.Scalar(byte))))
      case 0xC0...0xF7:
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard index + length <= text.count else {
          // Unfinished unless a byte that cannot continue it came already.
          if text[(index + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 }) {
            unfinished = Array(text[index...])
            return inputs
          }
          index += 1
          continue
        }
        if let string = String(validating: text[index..<(index + length)], as: UTF8.self), let character = string.first {
          inputs.append(.character(character))
          index += length
          continue
        }
      default: break
      }
      index += 1
    }
    return inputs
  }

  /// `A`–`D`: the arrow keys.
  static func arrow(_ final: UInt8) -> TerminalInput? {
    switch final {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    default: nil
    }
  }

  /// A control sequence's meaning: an arrow key (with or without modifiers), a left click or
  /// the wheel; `nil` for anything else.
  static func controlSequence(parameters: ArraySlice<UInt8>, final: UInt8) -> TerminalInput? {
    guard parameters.first == UInt8(ascii: "<") else {
      return parameters.allSatisfy({ (0x30...0x3B).contains($0) }) ? arrow(final) : nil
    }
    // SGR mouse: button ; column ; row, then M (press) or m (release).
    guard final == UInt8(ascii: "M") else { return nil }
    let numbers = parameters.dropFirst().split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
      field.count <= 6 && !field.isEmpty && field.allSatisfy { (0x30...0x39).contains($0) } ? Int(String(decoding: field, as: UTF8.self)) : nil
    }
    guard numbers.count == 3, let button = numbers[0], let column = numbers[1], let row = numbers[2], column >= 1, row >= 1 else {
      return nil
    }
    // Bits 0–1 and 6–7 name the button (0 left, 64 and 65 the wheel), 2–4 are Shift, Meta and
    // Control (ignored), 5 is motion.
    switch button & ~0b11100 {
    case 0: return .click(column: column - 1, row: row - 1)
    case 64: return .scrollUp
    case 65: return .scrollDown
    default: return nil
    }
  }
}
