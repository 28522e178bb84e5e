/// The order in which `plutil -convert json -r` (Foundation's `JSONSerialization` with
/// `.sortedKeys`) lists dictionary keys.
///
/// Foundation sorts keys with `compare(_:options:range:locale:)` using numeric, case-insensitive
/// and forced-ordering comparison in the system locale, which is ICU's root collation with
/// numeric ordering. Observed on this machine's `plutil` (swift-corelibs-foundation):
///
/// ```text
/// "\t" "\n" U+2028 " " "_" "-" "," ";" ":" "!" "?" "." "'" "\"" "(" ")" "[" "]" "{" "}" "@" "*"
/// "/" "\\" "&" "#" "%" "`" "^" "+" "<" "=" ">" "|" "~" (other symbols, emoji) "$" "0" "1" "01"
/// "001" "2" … "9" "９" "10" "a" "ａ" "A" "a b" "a_b" "a1" "a01" "A1" "a2" "a10" "ab" "aB" "Ab"
/// "AB" … "e" "E" "é" … "s" "S" "ſ" "ss" "ß" … "z" "Z" "ω" "Ω" "中"
/// ```
///
/// This is a compact approximation of that collation, not a full implementation of the Unicode
/// Collation Algorithm. It is exact for ASCII keys and follows the same rules for Latin-1 and
/// Latin Extended-A letters (an accent is a secondary difference, case and width tertiary),
/// fullwidth ASCII, and decimal digits of any script (runs compare by numeric value; leading zeros
/// only break ties). Control and format characters are ignored. Other punctuation and symbols
/// sort after ASCII `~` and before `$`, other currency signs after `$`, and letters of other
/// scripts after Latin `z`, each group by code point — ICU interleaves some of these differently.
/// Keys that compare equal are ordered shorter first, then by UTF-16 code units.
enum JSONKeyOrder {
  /// The indices of `keys` in sorted order.
  static func sortedIndices(_ keys: [String]) -> [Int] {
    let sortKeys = keys.map { SortKey($0) }
    return keys.indices.sorted { precedes(sortKeys[$0], sortKeys[$1]) }
  }

  /// Whether `a` sorts before `b`.
  static func precedes(_ a: String, _ b: String) -> Bool {
    precedes(SortKey(a), SortKey(b))
  }

  struct Element {
    var primary: UInt32
    var secondary: UInt16
    var tertiary: UInt8
  }

  /// A key's weights, one entry per collation element at each level.
  struct SortKey {
    var primary: [UInt32] = []
    var secondary: [UInt16] = []
    var tertiary: [UInt8] = []
    let string: String

    init(_ string: String) {
      self.string = string
      if string.utf8.allSatisfy({ $0 < 0x80 }) {
        appendASCII(string.utf8)
        return
      }
      var elements: [Element] = []
      let scalars = Array(string.unicodeScalars)
      var i = 0
      while i < scalars.count {
        i = JSONKeyOrder.appendElements(for: scalars, at: i, to: &elements)
      }
      primary = elements.map(\.primary)
      secondary = elements.map(\.secondary)
      tertiary = elements.map(\.tertiary)
    }

    /// The common case, without Unicode property lookups.
    private mutating func appendASCII(_ utf8: String.UTF8View) {
      let table = JSONKeyOrder.asciiPrimaries
      primary.reserveCapacity(utf8.count)
      tertiary.reserveCapacity(utf8.count)
      var digits: [UInt8] = []
      var inNumber = false
      for byte in utf8 {
        if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
          if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte &- UInt8(ascii: "0")) }
          inNumber = true
          continue
        }
        if inNumber { appendNumber(&digits); inNumber = false }
        let weight = table[Int(byte)]
        guard weight != 0 else { continue }  // control characters are ignorable
        primary.append(weight)
        tertiary.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? JSONKeyOrder.upper : JSONKeyOrder.lower)
      }
      if inNumber { appendNumber(&digits) }
      secondary = [UInt16](repeating: 0, count: primary.count)
    }

    private mutating func appendNumber(_ digits: inout [UInt8]) {
      primary.append(JSONKeyOrder.numberCountBase + UInt32(Swift.min(digits.count, 0xFFFF)))
      tertiary.append(JSONKeyOrder.lower)
      for digit in digits {
        primary.append(JSONKeyOrder.numberDigitBase + UInt32(digit))
        tertiary.append(JSONKeyOrder.lower)
      }
      digits.removeAll(keepingCapacity: true)
    }
  }

  static func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
    if let result = compare(a.primary, b.primary) { return result }
    if let result = compare(a.secondary, b.secondary) { return result }
    if let result = compare(a.tertiary, b.tertiary) { return result }
    let left = a.string.utf16
    let right = b.string.utf16
    if left.count != right.count { return left.count < right.count }
    return left.lexicographicallyPrecedes(right)
  }

  @inline(__always)
  private static func compare<T: Comparable>(_ a: [T], _ b: [T]) -> Bool? {
    let count = Swift.min(a.count, b.count)
    for i in 0..<count where a[i] != b[i] { return a[i] < b[i] }
    if a.count != b.count { return a.count < b.count }
    return nil
  }

  /// Primary weights of the ASCII characters other than digits; 0 for ignorable ones.
  static let asciiPrimaries: [UInt32] = (0..<128).map { code in
    var elements: [Element] = []
    _ = appendElements(for: [Unicode.Scalar(UInt8(code))], at: 0, to: &elements)
    return elements.first?.primary ?? 0
  }

  // MARK: - Weights

  private static let whitespaceBase: UInt32 = 0x100
  private static let punctuationBase: UInt32 = 0x200
  private static let otherSymbolBase: UInt32 = 0x1000
  private static let currencyBase: UInt32 = 0x12_0000
  static let numberCountBase: UInt32 = 0x24_0000
  static let numberDigitBase: UInt32 = 0x25_0000
  private static let latinBase: UInt32 = 0x30_0000
  private static let otherLetterBase: UInt32 = 0x40_0000

  static let lower: UInt8 = 0
  private static let wide: UInt8 = 1
  static let upper: UInt8 = 2
  private static let expansion: UInt8 = 4
  private static let compatibility: UInt8 = 5

  /// ASCII punctuation and symbols in root-collation order (all before `$` and the digits).
  private static let asciiPunctuation: [UInt8] = Array("_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~".utf8)

  /// Secondary weights for accents, in the order of the Unicode Collation Algorithm's table.
  private static func accentWeight(_ code: UInt8) -> UInt16 {
    switch code {
    case UInt8(ascii: "'"): 1  // acute
    case UInt8(ascii: "`"): 2  // grave
    case UInt8(ascii: "b"): 3  // breve
    case UInt8(ascii: "^"): 4  // circumflex
    case UInt8(ascii: "v"): 5  // caron
    case UInt8(ascii: "o"): 6  // ring
    case UInt8(ascii: ":"): 7  // diaeresis
    case UInt8(ascii: "\""): 8  // double acute
    case UInt8(ascii: "~"): 9  // tilde
    case UInt8(ascii: "."): 10  // dot above
    case UInt8(ascii: ","): 12  // cedilla
    case UInt8(ascii: "k"): 13  // ogonek
    case UInt8(ascii: "-"): 14  // macron
    case UInt8(ascii: "m"): 15  // middle dot
    default: 0
    }
  }

  /// Secondary weight of a combining mark (U+0300–U+036F and others).
  private static func combiningWeight(_ value: UInt32) -> UInt16 {
    switch value {
    case 0x0301: 1
    case 0x0300: 2
    case 0x0306: 3
    case 0x0302: 4
    case 0x030C: 5
    case 0x030A: 6
    case 0x0308: 7
    case 0x030B: 8
    case 0x0303: 9
    case 0x0307: 10
    case 0x0327: 12
    case 0x0328: 13
    case 0x0304: 14
    default: UInt16(truncatingIfNeeded: 16 + (value & 0x3FF))
    }
  }

  /// Two characters per scalar from U+00C0 to U+017F: the base letter and an accent code (see
  /// `accentWeight`), or a digit for a letter that sorts on its own just after its base letter
  /// (`ð` → `d1`), `**` for a symbol, or an uppercase pair for an expansion (`Æ` → `AE`,
  /// `ß` → `SS`). `s!` marks the long s.
  private static let latinTable: [UInt8] = Array(
    ("a`a'a^a~a:aoAEc,e`e'e^e:i`i'i^i:d1n~o`o'o^o~o:**o1u`u'u^u:y'z1SS"
      + "a`a'a^a~a:aoAEc,e`e'e^e:i`i'i^i:d1n~o`o'o^o~o:**o1u`u'u^u:y'z1y:"
      + "a-a-ababakakc'c'c^c^c.c.cvcvdvdvd2d2e-e-ebebe.e.ekekevevg^g^gbgb"
      + "g.g.g,g,h^h^h1h1i~i~i-i-ibibikiki.i1IJIJj^j^k,k,k1l'l'l,l,lvlvlm"
      + "lml1l1n'n'n,n,nvnv'Nn1n1o-o-obobo\"o\"OEOEr'r'r,r,rvrvs's's^s^s,s,"
      + "svsvt,t,tvtvt1t1u~u~u-u-ububuouou\"u\"ukukw^w^y^y^y:z'z'z.z.zvzvs!").utf8)

  private static func latinLetter(_ letter: UInt8, sub: UInt32 = 0) -> UInt32 {
    latinBase + UInt32(letter &- UInt8(ascii: "a")) * 8 + sub
  }

  /// Appends the collation elements of the character at `scalars[index]` (a whole run of digits
  /// for a number) and returns the index after it.
  static func appendElements(for scalars: [Unicode.Scalar], at index: Int, to elements: inout [Element]) -> Int {
    var value = scalars[index].value
    var widthTertiary = lower
    if value >= 0xFF01 && value <= 0xFF5E {
      value -= 0xFEE0
      widthTertiary = wide
    }

    // Numbers: a run of decimal digits compares by value.
    if decimalDigit(scalars[index]) != nil {
      var significant: [UInt8] = []
      var tertiary = lower
      var i = index
      while i < scalars.count, let digit = decimalDigit(scalars[i]) {
        if scalars[i].value > 0x7F { tertiary = wide }
        if !(significant.isEmpty && digit == 0) { significant.append(digit) }
        i += 1
      }
      elements.append(Element(primary: numberCountBase + UInt32(Swift.min(significant.count, 0xFFFF)), secondary: 0, tertiary: tertiary))
      for digit in significant {
        elements.append(Element(primary: numberDigitBase + UInt32(digit), secondary: 0, tertiary: tertiary))
      }
      return i
    }

    if value < 0x80 {
      let byte = UInt8(value)
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"):
        elements.append(Element(primary: latinLetter(byte), secondary: 0, tertiary: widthTertiary))
      case UInt8(ascii: "A")...UInt8(ascii: "Z"):
        elements.append(Element(primary: latinLetter(byte | 0x20), secondary: 0, tertiary: upper + widthTertiary))
      case 0x09...0x0D:
        elements.append(Element(primary: whitespaceBase + UInt32(byte - 0x09), secondary: 0, tertiary: widthTertiary))
      case 0x20:
        elements.append(Element(primary: whitespaceBase + 8, secondary: 0, tertiary: widthTertiary))
      case UInt8(ascii: "$"):
        elements.append(Element(primary: currencyBase, secondary: 0, tertiary: widthTertiary))
      case 0x00...0x1F, 0x7F:
        break  // ignorable
      default:
        let rank = asciiPunctuation.firstIndex(of: byte) ?? asciiPunctuation.count
        elements.append(Element(primary: punctuationBase + UInt32(rank), secondary: 0, tertiary: widthTertiary))
      }
      return index + 1
    }

    let scalar = scalars[index]
    let properties = scalar.properties
    if value >= 0xC0 && value <= 0x17F {
      let offset = Int(value - 0xC0) * 2
      let first = latinTable[offset]
      let second = latinTable[offset + 1]
      let caseTertiary = properties.isUppercase ? upper : lower
      switch (first, second) {
      case (UInt8(ascii: "*"), _):
        elements.append(Element(primary: otherSymbolBase + value, secondary: 0, tertiary: lower))
      case (UInt8(ascii: "A")...UInt8(ascii: "Z"), _):
        // An expansion such as Æ → a e or ß → s s, a tertiary variant of the plain letters.
        elements.append(Element(primary: latinLetter(first | 0x20), secondary: 0, tertiary: expansion + caseTertiary))
        elements.append(Element(primary: latinLetter(second | 0x20), secondary: 0, tertiary: expansion + caseTertiary))
      case (UInt8(ascii: "'"), _):
        // ŉ: an apostrophe and n.
        elements.append(Element(primary: punctuationBase + 12, secondary: 0, tertiary: expansion))
        elements.append(Element(primary: latinLetter(UInt8(ascii: "n")), secondary: 0, tertiary: expansion))
      case (_, UInt8(ascii: "1")...UInt8(ascii: "9")):
        elements.append(Element(primary: latinLetter(first, sub: UInt32(second - UInt8(ascii: "0"))), secondary: 0, tertiary: caseTertiary))
      case (_, UInt8(ascii: "!")):
        elements.append(Element(primary: latinLetter(first), secondary: 0, tertiary: compatibility))
      default:
        elements.append(Element(primary: latinLetter(first), secondary: accentWeight(second), tertiary: caseTertiary))
      }
      return index + 1
    }

    switch properties.generalCategory {
    case .control, .format:
      if value == 0x85 {
        elements.append(Element(primary: whitespaceBase + 5, secondary: 0, tertiary: lower))
      }
    case .nonspacingMark, .enclosingMark, .spacingMark:
      if !elements.isEmpty {
        let last = elements.count - 1
        if elements[last].secondary == 0 { elements[last].secondary = combiningWeight(value) }
      }
    case .lineSeparator:
      elements.append(Element(primary: whitespaceBase + 6, secondary: 0, tertiary: lower))
    case .paragraphSeparator:
      elements.append(Element(primary: whitespaceBase + 7, secondary: 0, tertiary: lower))
    case .spaceSeparator:
      elements.append(Element(primary: whitespaceBase + 9, secondary: 0, tertiary: lower))
    case .currencySymbol:
      elements.append(Element(primary: currencyBase + value, secondary: 0, tertiary: lower))
    default:
      if properties.isAlphabetic {
        let folded = properties.lowercaseMapping.unicodeScalars.first?.value ?? value
        elements.append(Element(
          primary: otherLetterBase + folded, secondary: 0, tertiary: properties.isUppercase ? upper : lower))
      } else {
        elements.append(Element(primary: otherSymbolBase + value, secondary: 0, tertiary: lower))
      }
    }
    return index + 1
  }

  /// The value of a decimal digit of any script (`0`–`9`, `９`, `٣`…).
  private static func decimalDigit(_ scalar: Unicode.Scalar) -> UInt8? {
    let value = scalar.value
    if value >= 0x30 && value <= 0x39 { return UInt8(value - 0x30) }
    if value < 0x80 { return nil }
    let properties = scalar.properties
    guard properties.numericType == .decimal, let number = properties.numericValue else { return nil }
    return UInt8(exactly: number)
  }
}
