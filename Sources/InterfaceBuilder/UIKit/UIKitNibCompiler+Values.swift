import Interface

/// Values as UIKit's nib encoder writes them: colours, fonts, images, geometry, numbers.
extension UIKitNibCompiler {
  /// `CGRect`/`CGPoint`/`UIEdgeInsets` data: a type byte 7, then little-endian doubles.
  static func geometry(_ numbers: [Double]) -> NIBArchive.Payload {
    var bytes: [UInt8] = [7]
    for number in numbers { withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    return .data(bytes)
  }

  /// An `NSNumber` (equal ones are merged when the graph is finished: ``sharingEqualNumbers()``).
  mutating func number(_ value: Double, integer: Bool) -> Int {
    if integer, let whole = Int(exactly: value) { return graph.add("NSNumber", [.init("NS.intval", NibGraph.integer(whole))]) }
    return graph.add("NSNumber", [.init("NS.dblval", .float64(value))])
  }

  /// Apple's encoder stores equal numbers and equal colours once, as the first one it encodes:
  /// a runtime attribute's real 0 becomes the integer 0 of a button state encoded before it, a
  /// view's white the table background colour (named `tableBackgroundColor`) of a subview
  /// encoded before it. The graph is walked in encoding order (depth first from the root, keys
  /// in order) and every number or colour is replaced by the first equal one met.
  mutating func sharingEqualValues() {
    func value(_ object: Int) -> [Double]? {
      let entries = graph[object].entries
      if graph[object].className == "UIColor" {
        // A colour's value as UIColor's equality sees it: its colour space (grey or RGB) and
        // components, not its name (a grey white and an RGB white stay apart: YPImagePicker).
        let components = entries.compactMap { entry -> Double? in
          guard entry.key != "UIColorComponentCount", case .float32(let v) = entry.value else { return nil }
          return Double(v)
        }
        return [Double(components.count)] + components
      }
      guard graph[object].className == "NSNumber", let entry = entries.first, entries.count == 1 else { return nil }
      switch entry.value {
      case .int8(let v): return [Double(v)]
      case .int16(let v): return [Double(v)]
      case .int32(let v): return [Double(v)]
      case .int64(let v): return [Double(v)]
      case .float64(let v): return [v]
      case .float32(let v): return [Double(v)]
      default: return nil
      }
    }
    var first: [[Double]: Int] = [:]
    var replacement: [Int: Int] = [:]
    var seen = Set<Int>([graph.root])
    var stack: [(object: Int, entry: Int)] = [(graph.root, 0)]
    while let top = stack.popLast() {
      let entries = graph[top.object].entries
      var position = top.entry
      while position < entries.count {
        defer { position += 1 }
        guard case .object(let target) = entries[position].value, seen.insert(target).inserted else { continue }
        if var key = value(target) {
          key.insert(graph[target].className == "NSNumber" ? 0 : 1, at: 0)
          if let known = first[key] {
            replacement[target] = known
            continue
          }
          first[key] = target
        }
        stack.append((top.object, position + 1))
        stack.append((target, 0))
        break
      }
    }
    guard !replacement.isEmpty else { return }
    for index in graph.objects.indices {
      for (position, entry) in graph.objects[index].entries.enumerated() {
        if case .object(let target) = entry.value, let shared = replacement[target] { graph.objects[index].entries[position].value = .object(shared) }
      }
    }
  }

  /// A colour component as NSColor's description text writes it (`%.3g`: `0.502`, `1`,
  /// `0.00499`), in the `NSRGB`/`NSWhite` data (no terminating zero in UIKit nibs).
  static func componentText(_ value: Double) -> String {
    if value == 0 { return "0" }
    let exponent = abs(value).log10Floor()
    let decimals = max(0, 2 - exponent)
    var text = value.formatted(decimals: decimals)
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }

  /// Named system colours as UIKit defines them (white, alpha): the ones xibs of the corpus use
  /// by name; the RGB ones by their components.
  static let systemColors: [String: [Double]] = [
    "clearColor": [0, 0], "whiteColor": [1, 1], "blackColor": [0, 1], "darkTextColor": [0, 1], "lightTextColor": [1, 0.6],
    "lightGrayColor": [2.0 / 3.0, 1], "grayColor": [0.5, 1], "darkGrayColor": [1.0 / 3.0, 1],
    "groupTableViewBackgroundColor": [0.937_254_9, 0.937_254_9, 0.956_862_75, 1], "tableBackgroundColor": [1, 1, 1, 1], "redColor": [1, 0, 0, 1],
    "greenColor": [0, 1, 0, 1], "blueColor": [0, 0, 1, 1], "yellowColor": [1, 1, 0, 1], "orangeColor": [1, 0.5, 0, 1],
    "cyanColor": [0, 1, 1, 1], "magentaColor": [1, 0, 1, 1], "purpleColor": [0.5, 0, 0.5, 1], "brownColor": [0.6, 0.4, 0.2, 1],
  ]

  /// `<color …>`: `UIColor` with `UIColorComponentCount`, the float components, their
  /// `NSRGB`/`NSWhite` text and `NSColorSpace` (2 RGB, 4 grey); a system colour adds
  /// `UISystemColorName` first. Grey colours in a calibrated white space are written as RGB
  /// (Apple converts them); only the generic gamma 2.2 grey space stays grey.
  mutating func color(_ element: InterfaceDocument.Element) -> Int? {
    var name: String?
    var components: [Double]
    if let system = element["cocoaTouchSystemColor"] ?? element["systemColor"], let known = Self.systemColors[system] {
      name = system
      components = known
    } else if element["catalog"] == "System", element["name"] == "controlBackgroundColor" {
      // An AppKit catalog colour in an iOS document: written as its RGB value (one pair).
      components = [1, 1, 1, 1]
    } else if let white = element.double("white") {
      let alpha = element.double("alpha") ?? 1
      // From Xcode 8, in a document saved in the Xcode 8 format or later (tools version 11000),
      // a grey equal to one of UIKit's named greys is that colour (grey, named); other
      // calibrated greys become RGB, generic gamma 2.2 greys stay grey. Xcode 7, and Xcode 8 to 10
      // with older documents (the calabash and KVNProgress pairs), made every calibrated grey RGB.
      let named = ["whiteColor": [1.0, 1], "blackColor": [0.0, 1], "clearColor": [0.0, 0]].first { $0.value == [white, alpha] }?.key
      if options.xcode >= 800, (Double(document.toolsVersion) ?? 0) >= 11000, let named {
        name = named
        components = [white, alpha]
      } else {
        let grey = element["customColorSpace"] == "genericGamma22GrayColorSpace" || element["colorSpace"] == "deviceWhite"
        components = grey ? [white, alpha] : [white, white, white, alpha]
      }
    } else if element["red"] != nil || element["green"] != nil || element["blue"] != nil {
      components = [element.double("red") ?? 0, element.double("green") ?? 0, element.double("blue") ?? 0, element.double("alpha") ?? 1]
    } else {
      return nil
    }
    var entries: [NibGraph.Entry] = []
    if let name { entries.append(.init("UISystemColorName", .object(graph.string(name)))) }
    entries.append(.init("UIColorComponentCount", NibGraph.integer(components.count)))
    let keys = components.count == 2 ? ["UIWhite", "UIAlpha"] : ["UIRed", "UIGreen", "UIBlue", "UIAlpha"]
    for (key, value) in zip(keys, components) {
      entries.append(.init(key, .float32(Float(value))))
      // Xcode 11 added the exact grey beside its float (only when the float is not exact).
      if key == "UIWhite", options.xcode >= 1100, Double(Float(value)) != value { entries.append(.init("UIWhite-Double", .float64(value))) }
    }
    var text = components.dropLast().map(Self.componentText)
    if components.last != 1 { text.append(Self.componentText(components.last ?? 1)) }
    entries.append(.init(components.count == 2 ? "NSWhite" : "NSRGB", .data(Array(text.joined(separator: " ").utf8))))
    entries.append(.init("NSColorSpace", NibGraph.integer(components.count == 2 ? 4 : 2)))
    return graph.add("UIColor", fallbacks: ["NSColor"], entries)
  }

  /// The colour child with `key`, compiled.
  mutating func color(_ element: InterfaceDocument.Element, key: String) -> Int? {
    guard let child = element.children.first(where: { $0.name == "color" && $0["key"] == key }) else { return nil }
    return color(child)
  }

  /// `<image name=…>` and `image="…"`: a `UIImageNibPlaceholder` (the size is 1 × 1 in every
  /// pair of the corpus: the image is looked up at load time).
  mutating func image(_ name: String) -> Int {
    graph.add(
      "UIImageNibPlaceholder",
      [.init("UIImageWidth", .float32(1)), .init("UIImageHeight", .float32(1)), .init("UIResourceName", .object(graph.string(name)))])
  }

  /// Text styles: the size and weight of each at the default content size.
  static let textStyles: [String: (size: Double, weight: String)] = [
    "UICTFontTextStyleHeadline": (17, "semibold"), "UICTFontTextStyleBody": (17, ""), "UICTFontTextStyleSubhead": (15, ""),
    "UICTFontTextStyleFootnote": (13, ""), "UICTFontTextStyleCaption1": (12, ""), "UICTFontTextStyleCaption2": (11, ""),
    "UICTFontTextStyleCallout": (16, ""), "UICTFontTextStyleTitle1": (28, "light"), "UICTFontTextStyleTitle2": (22, ""),
    "UICTFontTextStyleTitle3": (20, ""), "UICTFontTextStyleLargeTitle": (34, ""),
  ]

  static let usages: [String: String] = [
    "": "CTFontRegularUsage", "semibold": "CTFontDemiUsage", "bold": "CTFontEmphasizedUsage", "medium": "CTFontMediumUsage",
    "light": "CTFontLightUsage", "thin": "CTFontThinUsage", "ultraLight": "CTFontUltraLightUsage", "heavy": "CTFontHeavyUsage",
    "black": "CTFontBlackUsage",
  ]

  /// `<fontDescription>`: a `UIFont`. System fonts are San Francisco (`.SFUIText` below 20
  /// points, `.SFUIDisplay` from 20, a weight suffix such as `-Semibold`), with a
  /// `UIFontDescriptor` of their usage and size; text styles name the style (`UIIBTextStyle`)
  /// and a point size of 0; named fonts their PostScript name.
  mutating func font(_ element: InterfaceDocument.Element) -> Int {
    var entries: [NibGraph.Entry] = []
    var size = element.double("pointSize") ?? 17
    var weight = element["weight"] ?? (element["type"] == "boldSystem" ? "bold" : "")
    if weight == "regular" { weight = "" }
    let style = element["style"]
    if let style { (size, weight) = Self.textStyles[style].map { ($0.size, $0.weight) } ?? (17, "") }
    let isSystem = element["name"] == nil
    let name: String
    if let named = element["name"] {
      name = named
    } else {
      let family = size >= 20 ? ".SFUIDisplay" : ".SFUIText"
      // Xcode 7 named the regular weight too (`.SFUIText-Regular`).
      var suffix = weight.isEmpty ? (options.xcode < 800 ? "Regular" : "") : weight.prefix(1).uppercased() + weight.dropFirst()
      if options.xcode >= 1100 {
        // The iOS 13 SDK's one San Francisco family, every weight named (`.SFUI-Regular`); no
        // pair of the corpus shows an Xcode 11 font: UIKit's names, unverified here.
        if suffix.isEmpty { suffix = "Regular" }
        name = ".SFUI-" + suffix
      } else {
        name = suffix.isEmpty ? family : family + "-" + suffix
      }
    }
    entries.append(.init("UIFontName", .object(graph.string(name))))
    if let style { entries.append(.init("UIIBTextStyle", .object(graph.string(style)))) }
    if !isSystem {
      let attributes = graph.collection(
        "NSMutableDictionary", [graph.string("NSFontSizeAttribute"), number(size, integer: true), graph.string("NSFontNameAttribute"), graph.string(name)])
      entries.append(.init("UIFontDescriptor", .object(graph.add("UIFontDescriptor", [.init("UIFontDescriptorAttributes", .object(attributes))]))))
    } else if style == nil {
      var usage = Self.usages[weight] ?? "CTFontRegularUsage"
      // Xcode 9.0 and 9.1 named the semibold usage "emphasized" (three pairs), the others "demi".
      if weight == "semibold", (900..<920).contains(options.xcode) { usage = "CTFontEmphasizedUsage" }
      let attributes = graph.collection(
        "NSMutableDictionary",
        [graph.string("NSCTFontUIUsageAttribute"), graph.string(usage), graph.string("NSFontSizeAttribute"), number(size, integer: true)])
      entries.append(.init("UIFontDescriptor", .object(graph.add("UIFontDescriptor", [.init("UIFontDescriptorAttributes", .object(attributes))]))))
    }
    entries.append(.init("UIFontPointSize", .float64(style == nil ? size : 0)))
    if options.xcode >= 900 {
      entries += [
        .init("UIFontTextStyleForScaling", .null), .init("UIFontPointSizeForScaling", .float64(0)),
        .init("UIFontMaximumPointSizeAfterScaling", .float64(0)),
      ]
    }
    let bold = ["semibold", "bold", "heavy", "black"].contains(weight) || name.hasSuffix("-Bold") || name.hasSuffix("-DemiBold")
    let italic = name.hasSuffix("-Italic") || name.contains("Oblique")
    entries.append(.init("UIFontTraits", NibGraph.integer((bold ? 2 : 0) | (italic ? 1 : 0))))
    entries.append(.init("UISystemFont", .bool(isSystem)))
    entries += [.init("NSName", .object(graph.string(name))), .init("NSSize", .float64(size))]
    return graph.add("UIFont", fallbacks: ["NSFont"], entries)
  }
}

extension Double {
  /// The value rounded to `decimals` places, as text (no exponent).
  func formatted(decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(self) * scale).rounded()
    let whole = Int(scaled / scale)
    var fraction = String(Int(scaled) - whole * Int(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return (self < 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
  }
}
