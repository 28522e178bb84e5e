extension NIBArchive {
  /// The first semantic difference between this nib and `other`, or `nil` when they hold the
  /// same object graph (what `ibtool --compare` reports).
  ///
  /// Both graphs are walked from object 0 in step: each pair of objects must have the same class
  /// name (and the same fallback class names), the same keys in the same order, and equal
  /// payloads — integers of the same width, floats by bit pattern, data byte for byte — with
  /// object references pairing up one to one, so that sharing and cycles must match too. Table
  /// order, key and class-name table order, and the position of objects in the objects table do
  /// not matter. The difference is described by the path of keys from the root, e.g.
  /// `UINibTopLevelObjectsKey → UINibEncoderEmptyKey[2] → UIBounds: data 17 bytes vs 17 bytes`.
  public func firstDifference(from other: NIBArchive) -> String? {
    guard !objects.isEmpty, !other.objects.isEmpty else {
      return objects.isEmpty == other.objects.isEmpty ? nil : "one nib has no objects"
    }
    var pairs: [Int: Int] = [0: 0]
    var reverse: [Int: Int] = [0: 0]
    var pending: [(Int, Int, String)] = [(0, 0, "root")]
    while let (left, right, path) = pending.popLast() {
      let leftClass = classNames[objects[left].classIndex], rightClass = other.classNames[other.objects[right].classIndex]
      guard leftClass.name == rightClass.name else { return "\(path): class \(leftClass.name) vs \(rightClass.name)" }
      let leftFallbacks = leftClass.fallbacks.map { classNames[Int($0)].name }
      let rightFallbacks = rightClass.fallbacks.map { other.classNames[Int($0)].name }
      guard leftFallbacks == rightFallbacks else { return "\(path): fallbacks \(leftFallbacks) vs \(rightFallbacks)" }
      let leftValues = values(of: left), rightValues = other.values(of: right)
      guard leftValues.count == rightValues.count else {
        let leftKeys = leftValues.map(\.key), rightKeys = rightValues.map(\.key)
        let onlyLeft = leftKeys.filter { !rightKeys.contains($0) }, onlyRight = rightKeys.filter { !leftKeys.contains($0) }
        var detail = "\(path) (\(leftClass.name)): \(leftValues.count) vs \(rightValues.count) values"
        if !onlyLeft.isEmpty { detail += "; only in the first: " + onlyLeft.joined(separator: ", ") }
        if !onlyRight.isEmpty { detail += "; only in the second: " + onlyRight.joined(separator: ", ") }
        return detail
      }
      var repeats: [String: Int] = [:]
      for (a, b) in zip(leftValues, rightValues) {
        let occurrence = repeats[a.key, default: 0]
        repeats[a.key] = occurrence + 1
        let here = path + " → " + a.key + (a.key == "UINibEncoderEmptyKey" ? "[\(occurrence)]" : "")
        guard a.key == b.key else { return "\(here): key \(a.key) vs \(b.key)" }
        switch (a.payload, b.payload) {
        case (.object(let x), .object(let y)):
          if let paired = pairs[x] {
            guard paired == y else { return "\(here): a shared object is not shared alike" }
          } else {
            guard reverse[y] == nil else { return "\(here): a shared object is not shared alike" }
            pairs[x] = y
            reverse[y] = x
            pending.append((x, y, here))
          }
        default:
          guard a.payload == b.payload else { return "\(here): \(Self.describe(a.payload)) vs \(Self.describe(b.payload))" }
        }
      }
    }
    let unreachedLeft = objects.count - pairs.count, unreachedRight = other.objects.count - reverse.count
    guard unreachedLeft == unreachedRight else {
      return "\(unreachedLeft) vs \(unreachedRight) objects not reachable from the root"
    }
    return nil
  }

  static func describe(_ payload: Payload) -> String {
    switch payload {
    case .int8(let v): "int8 \(v)"
    case .int16(let v): "int16 \(v)"
    case .int32(let v): "int32 \(v)"
    case .int64(let v): "int64 \(v)"
    case .bool(let v): "bool \(v)"
    case .float32(let v): "float32 \(v)"
    case .float64(let v): "float64 \(v)"
    case .data(let bytes): "data \(bytes.count) bytes"
    case .null: "nil"
    case .object(let index): "object \(index)"
    }
  }
}
