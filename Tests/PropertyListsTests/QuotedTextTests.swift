import PropertyLists
import TestSupport
import Testing

/// `QuotedText`: what the tools write as quoted tokens reads back through the `.strings` reader,
/// and a one-line quote never breaks a line.
@Suite struct QuotedTextTests {
  /// Random text over the characters that need care: quotes, backslashes, line breaks, controls,
  /// non-ASCII letters, an emoji.
  static func randomText(_ generator: inout SplitMix64) -> String {
    let alphabet: [Unicode.Scalar] = [
      "a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1B}", "\u{7F}", "é", "日", "\u{2028}", "\u{1F600}", "=",
      ";", "/", "*",
    ]
    var text = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...24, using: &generator) {
      text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
    }
    return String(text)
  }

  @Test func stringsTokensReadBackThroughTheStringsReader() throws {
    var generator = SplitMix64(seed: 0x5157_5A7E)
    for round in 0..<500 {
      let key = Self.randomText(&generator)
      let value = Self.randomText(&generator)
      let document = QuotedText.stringsToken(key) + " = " + QuotedText.stringsToken(value) + ";\n"
      let read = try PropertyListValue(decoding: Array(document.utf8), format: .strings)
      #expect(read == .dictionary([key: .string(value)]), "seed 0x51575A7E, round \(round): \(document)")
    }
  }

  @Test func oneLineQuotesHaveNoLineBreakOrControl() {
    var generator = SplitMix64(seed: 0x0_11E)
    for _ in 0..<500 {
      let quoted = QuotedText.oneLine(Self.randomText(&generator))
      #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{2028}" || $0 == "\u{2029}" })
    }
    #expect(QuotedText.oneLine("a\u{1}b\tc\"d\\") == #""a\u{1}b\tc\"d\\""#)
    #expect(QuotedText.stringsToken("a\u{1}b\tc") == "\"a\u{1}b\\tc\"")
  }
}
