extension NibGraph {
  /// The graph held in a NIBArchive's bytes: the same graph as `NibGraph(try NIBArchive(bytes:
  /// bytes, limits: limits))`, with the same errors, but read straight into the graph's objects
  /// without building the archive's tables first (the nib loader reads every nib it is given as
  /// bytes this way; the tables cost as much again as the reading, then as much to free).
  ///
  /// The bytes are read once to check them and to find where each value starts, then each
  /// object's values are read into its entries. Anything the reader would refuse — a bad magic,
  /// count, offset, index, varint or value type, or a limit passed — makes this fall back on
  /// ``NIBArchive/init(bytes:limits:)``, which throws the error it always has.
  ///
  /// - Throws: ``InterfaceError``, as ``NIBArchive/init(bytes:limits:)``.
  package init(nibArchiveBytes bytes: [UInt8], limits: NIBArchive.Limits = .default) throws(InterfaceError) {
    if let graph = bytes.withUnsafeBufferPointer({ DirectNibReader.graph(in: $0, limits: limits) }) {
      self = graph
      return
    }
    self.init(try NIBArchive(bytes: bytes, limits: limits))
  }
}

/// The one-pass reader behind ``NibGraph/init(nibArchiveBytes:limits:)``: it accepts exactly the
/// files ``NIBArchive/init(bytes:limits:)`` accepts and answers `nil` for any other, leaving the
/// error to that reader. It reads through an unsafe buffer pointer (profiled: bounds-checked
/// array reads were a large part of reading); every read is checked against the buffer's end by
/// hand.
private enum DirectNibReader {
  /// A position in the bytes; every read answers `nil` past the end.
  struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    @inline(__always)
    mutating func u8() -> UInt8? {
      guard position < bytes.count else { return nil }
      defer { position += 1 }
      return bytes[position]
    }

    @inline(__always)
    mutating func little(_ count: Int) -> UInt64? {
      guard count <= bytes.count - position else { return nil }
      var value: UInt64 = 0
      for index in 0..<count { value |= UInt64(bytes[position + index]) << (8 * index) }
      position += count
      return value
    }

    /// NIBArchive's varint: 7 bits a byte, low group first, the byte with the high bit set last
    /// (at most 5 bytes).
    @inline(__always)
    mutating func varint() -> Int? {
      var value = 0
      for shift in stride(from: 0, to: 35, by: 7) {
        guard let byte = u8() else { return nil }
        value |= Int(byte & 0x7F) << shift
        if byte & 0x80 != 0 { return value }
      }
      return nil
    }

    /// Skips `count` bytes, answering where they start.
    @inline(__always)
    mutating func skip(_ count: Int) -> Int? {
      guard count >= 0, count <= bytes.count - position else { return nil }
      defer { position += count }
      return position
    }
  }

  static func graph(in bytes: UnsafeBufferPointer<UInt8>, limits: NIBArchive.Limits) -> NibGraph? {
    guard bytes.count <= limits.maximumByteCount, NIBArchive.isNIBArchive(bytes) else { return nil }
    var cursor = Cursor(bytes: bytes, position: 10)
    guard let formatVersion = cursor.little(4), formatVersion == 1, cursor.little(4) != nil else { return nil }
    var counts: [Int] = []
    var offsets: [Int] = []
    for _ in 0..<4 {
      guard let count = cursor.little(4), let offset = cursor.little(4) else { return nil }
      counts.append(Int(count))
      offsets.append(Int(offset))
    }
    // The reader's own limits: no table larger than the limit or than the file could hold.
    for (index, minimum) in [3, 1, 2, 3].enumerated() {
      guard counts[index] <= limits.maximumEntryCount, counts[index] <= bytes.count / minimum else { return nil }
    }
    let (objectCount, keyCount, valueCount, classCount) = (counts[0], counts[1], counts[2], counts[3])

    // Objects: class index, first value, value count.
    cursor.position = offsets[0]
    var objectFields: [Int] = []
    objectFields.reserveCapacity(3 * objectCount)
    for _ in 0..<objectCount {
      guard let classIndex = cursor.varint(), let firstValue = cursor.varint(), let count = cursor.varint() else { return nil }
      objectFields.append(classIndex)
      objectFields.append(firstValue)
      objectFields.append(count)
    }

    cursor.position = offsets[1]
    var keys: [String] = []
    keys.reserveCapacity(keyCount)
    for _ in 0..<keyCount {
      guard let length = cursor.varint(), let start = cursor.skip(length) else { return nil }
      keys.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self))
    }

    // Values, checked and located: where each starts (its key's varint).
    cursor.position = offsets[2]
    var valueStarts: [UInt32] = []
    valueStarts.reserveCapacity(valueCount)
    for _ in 0..<valueCount {
      guard cursor.position <= Int(UInt32.max) else { return nil }
      valueStarts.append(UInt32(cursor.position))
      guard let keyIndex = cursor.varint(), keyIndex < keyCount, let type = cursor.u8() else { return nil }
      switch type {
      case 0: guard cursor.skip(1) != nil else { return nil }
      case 1: guard cursor.skip(2) != nil else { return nil }
      case 2, 6: guard cursor.skip(4) != nil else { return nil }
      case 3, 7: guard cursor.skip(8) != nil else { return nil }
      case 4, 5, 9: break
      case 8: guard let length = cursor.varint(), cursor.skip(length) != nil else { return nil }
      case 10: guard let index = cursor.little(4), Int(index) < objectCount else { return nil }
      default: return nil
      }
    }

    cursor.position = offsets[3]
    var classNames: [String] = []
    var classFallbacks: [[Int]] = []
    classNames.reserveCapacity(classCount)
    classFallbacks.reserveCapacity(classCount)
    for _ in 0..<classCount {
      guard let length = cursor.varint(), let fallbackCount = cursor.varint() else { return nil }
      var fallbacks: [Int] = []
      for _ in 0..<fallbackCount {
        guard let raw = cursor.little(4) else { return nil }
        let fallback = Int32(bitPattern: UInt32(truncatingIfNeeded: raw))
        guard fallback >= 0, Int(fallback) < classCount else { return nil }
        fallbacks.append(Int(fallback))
      }
      guard length >= 1, let start = cursor.skip(length), bytes[start + length - 1] == 0 else { return nil }
      classNames.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length - 1)]), as: UTF8.self))
      classFallbacks.append(fallbacks)
    }

    // Every object's class and values inside the tables.
    for object in 0..<objectCount {
      let classIndex = objectFields[3 * object], first = objectFields[3 * object + 1], count = objectFields[3 * object + 2]
      guard classIndex < classCount, first <= valueCount, count <= valueCount - first else { return nil }
    }

    // Everything is checked: read each object's values into its entries.
    let fallbackNames = classFallbacks.map { $0.map { classNames[$0] } }
    var objects: [NibGraph.Object] = []
    objects.reserveCapacity(objectCount)
    for object in 0..<objectCount {
      let classIndex = objectFields[3 * object], first = objectFields[3 * object + 1], count = objectFields[3 * object + 2]
      var entries: [NibGraph.Entry] = []
      entries.reserveCapacity(count)
      for value in first..<(first + count) {
        cursor.position = Int(valueStarts[value])
        // Checked above: these reads cannot fail.
        guard let keyIndex = cursor.varint(), let type = cursor.u8() else { return nil }
        let payload: NIBArchive.Payload
        switch type {
        case 0: payload = .int8(Int8(bitPattern: bytes[cursor.position]))
        case 1: payload = .int16(Int16(bitPattern: UInt16(truncatingIfNeeded: cursor.little(2) ?? 0)))
        case 2: payload = .int32(Int32(bitPattern: UInt32(truncatingIfNeeded: cursor.little(4) ?? 0)))
        case 3: payload = .int64(Int64(bitPattern: cursor.little(8) ?? 0))
        case 4: payload = .bool(false)
        case 5: payload = .bool(true)
        case 6: payload = .float32(Float(bitPattern: UInt32(truncatingIfNeeded: cursor.little(4) ?? 0)))
        case 7: payload = .float64(Double(bitPattern: cursor.little(8) ?? 0))
        case 8:
          let length = cursor.varint() ?? 0
          payload = .data(Array(UnsafeBufferPointer(rebasing: bytes[cursor.position..<(cursor.position + length)])))
        case 9: payload = .null
        default: payload = .object(Int(cursor.little(4) ?? 0))
        }
        entries.append(NibGraph.Entry(keys[keyIndex], payload))
      }
      objects.append(NibGraph.Object(className: classNames[classIndex], fallbacks: fallbackNames[classIndex], entries: entries))
    }
    return NibGraph(objects: objects, root: 0)
  }
}
