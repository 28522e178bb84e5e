extension NIBArchive {
  /// What ``canonicalDifference(from:options:)`` treats as free to differ.
  public struct CanonicalOptions: Sendable, Hashable {
    /// Keys whose value is an inlined collection compared as a multiset: Apple's UIKit nib
    /// encoder writes the root's `UINibObjectsKey`, `UINibKeyValuePairsKey`, … and a view's
    /// `UIViewAutolayoutConstraints` in an order that differs between two compilations of one
    /// document.
    public var unorderedKeys: Set<String>
    /// Classes of values Apple stores once per equal value and shares (strings, numbers,
    /// colours, fonts, collections): which of several equal values is shared is not compared.
    /// Objects of every other class are identities: they must be as many, and shared alike.
    public var valueClasses: Set<String>
    /// Classes of inlined collections compared as multisets wherever they occur: sets have no
    /// order (`NSSet`), and Apple's encoder writes their members in hash order, which differs
    /// between two compilations of one document (a trait storage's `UIRemovedObjects`,
    /// `UIDescendants`).
    public var unorderedClasses: Set<String>
    /// How deep nibs inside nibs (`UINib`'s archive data of prototype cells) are compared as
    /// graphs; deeper ones byte for byte, so that a hostile nesting cannot exhaust memory.
    public var maximumNesting: Int

    public init(
      unorderedKeys: Set<String>, valueClasses: Set<String>, unorderedClasses: Set<String> = ["NSSet", "NSMutableSet"],
      maximumNesting: Int = 4
    ) {
      self.unorderedKeys = unorderedKeys
      self.valueClasses = valueClasses
      self.unorderedClasses = unorderedClasses
      self.maximumNesting = maximumNesting
    }

    /// Apple's UIKit encoding (`UINibTopLevelObjectsKey` at the root).
    public static let uiKit = CanonicalOptions(
      unorderedKeys: [
        "UINibObjectsKey", "UINibConnectionsKey", "UINibKeyValuePairsKey", "UINibVisibleWindowsKey",
        "UINibAccessibilityConfigurationsKey", "UINibTraitStorageListsKey", "UIViewAutolayoutConstraints",
        "UINibTopLevelObjectsKey",
      ],
      valueClasses: [
        "NSString", "NSMutableString", "NSLocalizableString", "NSNumber", "NSArray", "NSMutableArray", "NSSet",
        "NSMutableSet", "NSDictionary", "NSMutableDictionary", "NSOrderedSet", "NSData", "NSMutableData", "NSNull",
        "UIColor", "UIFont", "UIImageNibPlaceholder", "NSValue", "NSDate", "NSLocale", "UIImageSymbolConfiguration",
        "NSAttributedString", "NSMutableAttributedString", "NSParagraphStyle", "NSMutableParagraphStyle",
        "NSColor", "NSFont", "NSURL", "UIFontDescriptor", "NSTimeZone", "NSCalendar",
      ])
  }

  /// Whether this is a UIKit nib: its root holds `UINibTopLevelObjectsKey`.
  public var isUIKitNib: Bool {
    !objects.isEmpty && values(of: 0).contains { $0.key == "UINibTopLevelObjectsKey" }
  }

  /// The first difference between this nib's graph and `other`'s, compared canonically, or `nil`
  /// when they are the same graph up to what Apple does not keep stable (what
  /// `ibtool --compare` reports for UIKit nibs).
  ///
  /// Objects are paired from the root by their content: every object is labelled by colour
  /// refinement (its class, fallbacks, keys in order and scalar payloads, then the labels of the
  /// objects it refers to, until the labels stop splitting), members of ``CanonicalOptions/unorderedKeys``
  /// collections as a multiset. Object table order and sharing of equal values do not matter;
  /// objects of identity classes (views, connections, …) must be as many on both sides with the
  /// same labels. Nibs inside nibs are compared the same way. Refinement cannot tell apart two
  /// graphs that differ only in which of two indistinguishable objects (same content, same
  /// references) a third refers to; such graphs count as equal.
  public func canonicalDifference(from other: NIBArchive, options: CanonicalOptions = .uiKit) -> String? {
    var union = CanonicalUnion(options: options)
    let leftRoot = union.add(self, nesting: 0)
    let rightRoot = union.add(other, nesting: 0)
    union.refine()
    if union.labels[leftRoot] == union.labels[rightRoot] {
      return union.identityDifference(leftRoot, rightRoot)
    }
    var visited = Set<[Int]>()
    return union.explain(leftRoot, rightRoot, path: "root", visited: &visited)
      ?? "the graphs differ (no single differing value found)"
  }
}

/// Both graphs of a canonical comparison as one graph (nested nibs flattened into it), with
/// the labels of colour refinement.
struct CanonicalUnion {
  enum Edge: Hashable {
    case scalar(NIBArchive.Payload)
    case reference(Int)
  }
  struct Node {
    var className: String
    var entries: [(key: String, edge: Edge)]
    var unordered = false
  }

  let options: NIBArchive.CanonicalOptions
  var nodes: [Node] = []
  var labels: [Int] = []

  init(options: NIBArchive.CanonicalOptions) { self.options = options }

  /// Adds `archive`'s objects; answers the index of its root.
  mutating func add(_ archive: NIBArchive, nesting: Int) -> Int {
    let base = nodes.count
    guard !archive.objects.isEmpty else {
      nodes.append(Node(className: "(empty nib)", entries: []))
      return base
    }
    for index in archive.objects.indices {
      let className = archive.classNames[archive.objects[index].classIndex]
      let fallbacks = className.fallbacks.compactMap { archive.classNames.indices.contains(Int($0)) ? archive.classNames[Int($0)].name : nil }
      nodes.append(Node(className: ([className.name] + fallbacks).joined(separator: "/"), entries: []))
    }
    var unorderedTargets: [Int] = []
    for index in archive.objects.indices {
      var entries: [(key: String, edge: Edge)] = []
      for (key, payload) in archive.values(of: index) {
        switch payload {
        case .object(let target) where archive.objects.indices.contains(target):
          entries.append((key, .reference(base + target)))
          if options.unorderedKeys.contains(key) { unorderedTargets.append(base + target) }
        case .data(let bytes) where nesting < options.maximumNesting && NIBArchive.isNIBArchive(bytes):
          if let nested = try? NIBArchive(bytes: bytes) {
            entries.append((key, .reference(add(nested, nesting: nesting + 1))))
          } else {
            entries.append((key, .scalar(payload)))
          }
        default:
          let isNumber = nodes[base + index].className == "NSNumber" && (key == "NS.intval" || key == "NS.dblval")
          entries.append((isNumber ? "NS.value" : key, .scalar(Self.numericValue(payload, of: nodes[base + index].className))))
        }
      }
      nodes[base + index].entries = entries
    }
    for index in archive.objects.indices where options.unorderedClasses.contains(archive.classNames[archive.objects[index].classIndex].name) {
      unorderedTargets.append(base + index)
    }
    for target in unorderedTargets where nodes[target].entries.first?.key == "NSInlinedValue" { nodes[target].unordered = true }
    return base
  }

  /// An `NSNumber`'s value as a number, whatever its stored type: Apple's encoder stores equal
  /// numbers once, typed by the first one it encodes, and the order it encodes runtime
  /// attributes in is not stable (an integer 10 and a real 10 of one document come out as
  /// either).
  static func numericValue(_ payload: NIBArchive.Payload, of className: String) -> NIBArchive.Payload {
    guard className == "NSNumber" else { return payload }
    switch payload {
    case .int8(let v): return .float64(Double(v))
    case .int16(let v): return .float64(Double(v))
    case .int32(let v): return .float64(Double(v))
    case .int64(let v): return .float64(Double(v))
    case .float32(let v): return .float64(Double(v))
    default: return payload
    }
  }

  /// Colour refinement until the number of distinct labels stops growing.
  mutating func refine() {
    var scalars: [NIBArchive.Payload: Int] = [:]
    var keys: [String: Int] = [:]
    var classes: [String: Int] = [:]
    // Each node's fixed part: class, then per entry the key and the scalar (or -1 for a reference).
    var fixed: [[Int]] = []
    fixed.reserveCapacity(nodes.count)
    for node in nodes {
      var signature = [classes[node.className, default: classes.count], node.unordered ? 1 : 0]
      classes[node.className] = signature[0]
      for (key, edge) in node.entries {
        let keyID = keys[key, default: keys.count]
        keys[key] = keyID
        switch edge {
        case .scalar(let payload):
          let id = scalars[payload, default: scalars.count]
          scalars[payload] = id
          signature += [keyID, id]
        case .reference: signature += [keyID, -1]
        }
      }
      fixed.append(signature)
    }
    labels = Self.intern(fixed)
    var distinct = Set(labels).count
    for _ in 0..<max(nodes.count, 1) {
      var signatures: [[Int]] = []
      signatures.reserveCapacity(nodes.count)
      for (index, node) in nodes.enumerated() {
        var signature = [labels[index]]
        var members: [Int] = []
        for (key, edge) in node.entries {
          guard case .reference(let target) = edge else { continue }
          if node.unordered && key == "UINibEncoderEmptyKey" { members.append(labels[target]) } else { signature.append(labels[target]) }
        }
        signature.append(-2)
        signature += members.sorted()
        signatures.append(signature)
      }
      labels = Self.intern(signatures)
      let count = Set(labels).count
      if count == distinct { break }
      distinct = count
    }
  }

  static func intern(_ signatures: [[Int]]) -> [Int] {
    var table: [[Int]: Int] = [:]
    return signatures.map { signature in
      if let known = table[signature] { return known }
      table[signature] = table.count
      return table.count - 1
    }
  }

  /// Every node reachable from `root`.
  func reachable(from root: Int) -> [Int] {
    var seen: Set<Int> = [root]
    var stack = [root]
    while let top = stack.popLast() {
      for (_, edge) in nodes[top].entries {
        if case .reference(let target) = edge, seen.insert(target).inserted { stack.append(target) }
      }
    }
    return Array(seen)
  }

  /// With equal root labels: the identity objects (not of a value class) as multisets of labels.
  func identityDifference(_ left: Int, _ right: Int) -> String? {
    func identities(_ root: Int) -> [Int: (count: Int, className: String)] {
      var result: [Int: (count: Int, className: String)] = [:]
      for node in reachable(from: root) where !isValue(node) {
        result[labels[node], default: (0, nodes[node].className)].count += 1
      }
      return result
    }
    let a = identities(left), b = identities(right)
    for (label, entry) in a.sorted(by: { $0.key < $1.key }) where b[label]?.count != entry.count {
      return "\(entry.className): \(entry.count) vs \(b[label]?.count ?? 0) objects alike (shared differently)"
    }
    for (label, entry) in b.sorted(by: { $0.key < $1.key }) where a[label] == nil {
      return "\(entry.className): 0 vs \(entry.count) objects alike (shared differently)"
    }
    return nil
  }

  /// A readable scalar, for a difference's description.
  func describe(_ edge: Edge) -> String {
    switch edge {
    case .reference(let target):
      let node = nodes[target]
      if node.className.hasPrefix("NSString") || node.className.hasPrefix("NSMutableString"),
        case .scalar(.data(let bytes))? = node.entries.first?.edge
      {
        return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
      }
      if node.className == "NSNumber", case .scalar(let payload)? = node.entries.first?.edge { return NIBArchive.describe(payload) }
      return node.className
    case .scalar(.data(let bytes)) where bytes.count <= 40:
      if let text = String(validating: bytes, as: UTF8.self), text.allSatisfy({ $0.isASCII && !$0.isNewline }), bytes.first != 7 {
        return "\"\(text)\""
      }
      if bytes.first == 7, bytes.count % 8 == 1 {
        let numbers = stride(from: 1, to: bytes.count, by: 8).map { start in
          Double(bitPattern: bytes[start..<start + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        return "doubles \(numbers)"
      }
      return "data " + bytes.map { String($0, radix: 16) }.joined(separator: " ")
    case .scalar(let payload): return NIBArchive.describe(payload)
    }
  }

  /// How many entries of two nodes are equal (key and label or scalar), to pick the likeliest
  /// partner of an unmatched member.
  func likeness(_ x: Int, _ y: Int) -> Int {
    guard nodes[x].className == nodes[y].className else { return -1 }
    var score = 0
    for (p, q) in zip(nodes[x].entries, nodes[y].entries) where p.key == q.key {
      switch (p.edge, q.edge) {
      case (.scalar(let s), .scalar(let t)) where s == t: score += 2
      case (.reference(let s), .reference(let t)) where labels[s] == labels[t]: score += 2
      default: score += 1
      }
    }
    return score
  }

  /// Walks two differently labelled nodes down to a value that differs.
  func explain(_ x: Int, _ y: Int, path: String, visited: inout Set<[Int]>) -> String? {
    guard labels[x] != labels[y], visited.insert([x, y]).inserted, visited.count < 100_000 else { return nil }
    let a = nodes[x], b = nodes[y]
    guard a.className == b.className else { return "\(path): class \(a.className) vs \(b.className)" }
    let here = path == "root" ? "" : path + " → "
    let keysA = a.entries.map(\.key), keysB = b.entries.map(\.key)
    if a.unordered, b.unordered {
      let membersA = a.entries.compactMap { if case .reference(let t) = $0.edge { t } else { nil } }
      var membersB = b.entries.compactMap { if case .reference(let t) = $0.edge { t } else { nil } }
      var unmatched: [Int] = []
      for member in membersA {
        if let position = membersB.firstIndex(where: { labels[$0] == labels[member] }) { membersB.remove(at: position) } else { unmatched.append(member) }
      }
      for member in unmatched {
        let best = membersB.max { likeness(member, $0) < likeness(member, $1) }
        guard let best, likeness(member, best) >= 0 else {
          return "\(path) (unordered, \(membersA.count) vs \(membersB.count + membersA.count - unmatched.count) members): no member of the second like \(a.className == "" ? "" : nodes[member].className)"
        }
        if let found = explain(member, best, path: here + "{\(nodes[member].className)}", visited: &visited) { return found }
      }
      if !membersB.isEmpty, unmatched.isEmpty {
        return "\(path): \(membersA.count) vs \(membersA.count + membersB.count) members; only in the second: \(nodes[membersB[0]].className)"
      }
      return nil
    }
    guard keysA == keysB else {
      let onlyA = keysA.filter { !keysB.contains($0) }, onlyB = keysB.filter { !keysA.contains($0) }
      var detail = "\(path) (\(a.className)): keys differ"
      if !onlyA.isEmpty { detail += "; only in the first: " + onlyA.joined(separator: ", ") }
      if !onlyB.isEmpty { detail += "; only in the second: " + onlyB.joined(separator: ", ") }
      if onlyA.isEmpty, onlyB.isEmpty { detail += " in order or count: \(keysA) vs \(keysB)" }
      return detail
    }
    var member = 0
    for (p, q) in zip(a.entries, b.entries) {
      let label = p.key == "UINibEncoderEmptyKey" ? "[\(member)]" : p.key
      if p.key == "UINibEncoderEmptyKey" { member += 1 }
      switch (p.edge, q.edge) {
      case (.reference(let s), .reference(let t)):
        guard labels[s] != labels[t] else { continue }
        if nodes[s].className != nodes[t].className || nodes[s].entries.count <= 1 {
          return "\(here)\(label): \(describe(p.edge)) vs \(describe(q.edge))"
        }
        if let found = explain(s, t, path: here + label + (isValue(s) ? "" : " (\(nodes[s].className))"), visited: &visited) { return found }
      default:
        if p.edge != q.edge { return "\(here)\(label): \(describe(p.edge)) vs \(describe(q.edge))" }
      }
    }
    return nil
  }

  /// Whether a node is of a value class (its own class, before the fallbacks).
  func isValue(_ node: Int) -> Bool {
    let name = nodes[node].className
    return options.valueClasses.contains(name.firstIndex(of: "/").map { String(name[..<$0]) } ?? name)
  }
}
