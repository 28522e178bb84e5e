import PropertyLists
import TestSupport
import Testing

// The one key-path grammar and its two dialects (plutil's, and the backslash dialect of
// PropertyListValue's dotted-path methods and of the writers' messages).

@Suite("Key paths: one grammar, two dialects")
struct KeyPathSyntaxTests {
  @Test func plutilEscapesOnlyDots() {
    let plutil = PropertyListKeyPathSyntax.plutil
    let cases: [(String, [String])] = [
      ("a.b.0", ["a", "b", "0"]), (#"a\.b.c"#, ["a.b", "c"]), (#"a\b"#, [#"a\b"#]), ("", [""]),
      ("a.", ["a", ""]), (".", ["", ""]), (#"\."#, ["."]), (#"a\\.b"#, [#"a\.b"#]), (#"a\"#, [#"a\"#]),
      ("é.😀", ["é", "😀"]),
    ]
    for (path, components) in cases { #expect(plutil.components(of: path) == components, "\(path)") }
    #expect(plutil.joined(["a.b", #"c\d"#, "0"]) == #"a\.b.c\d.0"#)
    #expect(PropertyListValue.joinedKeyPath(["a.b", #"c\d"#]) == plutil.joined(["a.b", #"c\d"#]))
  }

  @Test func backslashEscapesAnything() {
    let backslash = PropertyListKeyPathSyntax.backslash
    let cases: [(String, [String])] = [
      ("a.b.0", ["a", "b", "0"]), (#"a\.b.c"#, ["a.b", "c"]), (#"a\b"#, ["ab"]), ("", [""]),
      (#"a\\.b"#, [#"a\"#, "b"]), (#"a\"#, [#"a\"#]), (#"\\\."#, [#"\."#]),
    ]
    for (path, components) in cases {
      #expect(backslash.components(of: path) == components, "\(path)")
      #expect(PropertyListValue.keyPathComponents(path) == components, "\(path)")
    }
    #expect(backslash.joined(["a.b", #"c\d"#]) == #"a\.b.c\\d"#)
  }

  @Test(arguments: [7, 8, 9] as [UInt64])
  func joiningThenSplittingGivesTheComponentsBack(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let alphabet: [String] = ["a", "b", ".", "\\", "0", "é", "😀", " "]
    for _ in 0..<200 {
      let components = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
      }
      let backslash = PropertyListKeyPathSyntax.backslash
      #expect(backslash.components(of: backslash.joined(components)) == components)
      // plutil's dialect cannot write a backslash that ends a component before a dot.
      guard !components.dropLast().contains(where: { $0.hasSuffix("\\") }) else { continue }
      let plutil = PropertyListKeyPathSyntax.plutil
      #expect(plutil.components(of: plutil.joined(components)) == components, "\(components)")
    }
  }
}
