import HomepwnerKit
import Testing

/// The bytes a terminal sends, as Homepwner reads them: keys, arrow keys, xterm's SGR mouse
/// reports, cut anywhere between reads.
@MainActor
@Suite("Terminal input: keys and SGR mouse reports, whole or cut between reads")
struct TerminalInputTests {
  static func parse(_ reads: String...) -> [TerminalInput] {
    var parser = TerminalInputParser()
    return reads.flatMap { parser.parse(Array($0.utf8)) }
  }

  @Test("Keys: arrows (normal and application mode, with modifiers), Enter, Tab, Backspace, Ctrl-P, characters and UTF-8")
  func keys() {
    #expect(Self.parse("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(Self.parse("\u{1B}OA\u{1B}OD") == [.up, .left])
    #expect(Self.parse("\u{1B}[1;5A") == [.up])
    #expect(Self.parse("\r\n\t\u{7F}\u{08}\u{10}") == [.enter, .enter, .tab, .backspace, .backspace, .attachPhoto])
    #expect(Self.parse("aZ 9é日👍") == [.character("a"), .character("Z"), .character(" "), .character("9"), .character("é"), .character("日"), .character("👍")])
  }

  @Test("A lone escape is the Escape key; an escape before a key that starts no sequence is Escape, then the key")
  func escape() {
    #expect(Self.parse("\u{1B}") == [.escape])
    #expect(Self.parse("x\u{1B}") == [.character("x"), .escape])
    #expect(Self.parse("\u{1B}x") == [.escape, .character("x")])
    #expect(Self.parse("\u{1B}\u{1B}[A") == [.escape, .up])
  }

  @Test("Mouse: a left press is a click at the cell from 0; releases, motion, other buttons are dropped; the wheel scrolls")
  func mouse() {
    #expect(Self.parse("\u{1B}[<0;12;5M") == [.click(column: 11, row: 4)])
    #expect(Self.parse("\u{1B}[<0;1;1M\u{1B}[<0;1;1m") == [.click(column: 0, row: 0)])
    #expect(Self.parse("\u{1B}[<4;3;3M\u{1B}[<16;3;3M") == [.click(column: 2, row: 2), .click(column: 2, row: 2)], "Shift or Control still clicks")
    #expect(Self.parse("\u{1B}[<1;3;3M\u{1B}[<2;3;3M\u{1B}[<3;3;3M\u{1B}[<32;3;3M\u{1B}[<35;3;3M\u{1B}[<128;3;3M").isEmpty)
    #expect(Self.parse("\u{1B}[<64;3;3M\u{1B}[<65;3;3M\u{1B}[<66;3;3M") == [.scrollUp, .scrollDown])
    #expect(Self.parse("\u{1B}[<0;300;200M") == [.click(column: 299, row: 199)])
  }

  @Test("Every cut of a mouse report, an arrow key and a UTF-8 character between two reads gives the same input")
  func cutAnywhere() {
    for whole in ["\u{1B}[<0;12;5M", "\u{1B}[<65;3;3M", "\u{1B}[A", "\u{1B}OB", "日", "👍"] {
      let expected = Self.parse(whole)
      let bytes = Array(whole.utf8)
      // A cut right after an escape never happens (the terminal host holds a trailing escape).
      for cut in (bytes.first == 0x1B ? 2 : 1)..<bytes.count {
        var parser = TerminalInputParser()
        let inputs = parser.parse(Array(bytes[..<cut])) + parser.parse(Array(bytes[cut...]))
        #expect(inputs == expected, "\(whole.debugDescription) cut after \(cut) bytes")
      }
    }
    #expect(Self.parse("a\u{1B}[<0;1", "2;5Mb", "\u{1B}[<0;2;2", "m", "c") == [.character("a"), .click(column: 11, row: 4), .character("b"), .character("c")])
    #expect(Self.parse("\u{1B}[<0;1", "2;", "5", "M") == [.click(column: 11, row: 4)])
  }

  @Test("Malformed and unknown sequences are dropped and what follows is read; an endless one is given up")
  func malformed() {
    #expect(Self.parse("\u{1B}[<0;;5Mx") == [.character("x")])
    #expect(Self.parse("\u{1B}[<0;0;5Mx") == [.character("x")])
    #expect(Self.parse("\u{1B}[<0;1;2;3Mx") == [.character("x")])
    #expect(Self.parse("\u{1B}[<0;99999999;1Mx") == [.character("x")])
    #expect(Self.parse("\u{1B}[<0;1;1Xx") == [.character("x")])
    #expect(Self.parse("\u{1B}[3~\u{1B}[Ix\u{1B}[15;2~") == [.character("x")])
    #expect(Self.parse("\u{1B}[<0;1\ry") == [.enter, .character("y")], "a control byte breaks a sequence off")
    let endless = "\u{1B}[" + String(repeating: "1;", count: TerminalInputParser.longestSequence)
    #expect(Self.parse(endless, "x") == [.character("x")])
    var parser = TerminalInputParser()
    #expect(parser.parse([0xE6, 0x41, 0x80, 0xFF]) == [.character("A")], "a broken UTF-8 sequence and stray bytes are dropped")
  }
}
