import InterfaceRendering
import Testing

@MainActor
@Suite("Terminal cells: column widths and clipping")
struct TerminalScreenTests {
  @Test("Widths: ASCII 1, CJK and fullwidth 2, emoji 2, combining marks and format characters 0")
  func widths() {
    #expect(TerminalScreen.columns(of: "Homepwner") == 9)
    #expect(TerminalScreen.columns(of: "日本語") == 6)
    #expect(TerminalScreen.columns(of: "ＡＢ") == 4)
    #expect(TerminalScreen.columns(of: "e\u{301}") == 1)
    #expect(TerminalScreen.columns(of: "👍") == 2)
    #expect(TerminalScreen.columns(of: "a\u{200B}b") == 2)
    #expect(TerminalScreen.columns(of: "한국") == 4)
    #expect(TerminalScreen.columns(of: "€ £ ¥") == 5)
  }

  @Test("Clipping never cuts a wide character; drawing at the right edge leaves it out; overwriting half of one blanks the other half")
  func clipping() {
    #expect(TerminalScreen.clipped("日本語", to: 5) == "日本")
    #expect(TerminalScreen.clipped("ab日本", to: 3) == "ab")
    var screen = TerminalScreen(width: 5, height: 1)
    screen.draw("ab日本", x: 0, y: 0)
    #expect(screen.text(ofRow: 0) == "ab日 ")
    screen.draw("Xe\u{301}", x: 3, y: 0)
    #expect(screen.text(ofRow: 0) == "ab Xe\u{301}")
    #expect(screen.cells[0][2].text == " " && screen.cells[0][3].text == "X")
    screen.draw("日", x: 1, y: 0)
    #expect(screen.text(ofRow: 0) == "a日Xe\u{301}")
  }
}
