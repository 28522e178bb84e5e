extension NibGraph {
  /// The graph held in a NIBArchive's bytes: the same graph as `NibGraph(try NIBArchive(bytes:
  /// bytes, limits: limits))`, with the same errors, but read straight into the graph's objects
  /// without building the archive's tables first (the nib loader reads every nib it is given as
  /// bytes this way; the tables cost as much again as the reading, then as much to free).
  ///
  /// Each value is read once, straight into its object's entries, when the objects' values
  /// follow one another as Apple writes them; otherwise the values are checked and located
  /// first. Anything the reader would refuse — a bad magic,
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

    /// One value of the values table, checked as ``NIBArchive/init(bytes:limits:)`` checks it:
    /// its key index and payload, or `nil` for anything that reader refuses.
    @inline(__always)
    mutating func value(keyCount: Int, objectCount: Int) -> (keyIndex: Int, payload: NIBArchive.Payload)? {
      guard let keyIndex = varint(), keyIndex < keyCount, let type = u8() else { return nil }
      let payload: NIBArchive.Payload
      switch type {
      case 0:
        guard let byte = u8() else { return nil }
        payload = .int8(Int8(bitPattern: byte))
      case 1:
        guard let bits = little(2) else { return nil }
        payload = .int16(Int16(bitPattern: UInt16(truncatingIfNeeded: bits)))
      case 2:
        guard let bits = little(4) else { return nil }
        payload = .int32(Int32(bitPattern: UInt32(truncatingIfNeeded: bits)))
      case 3:
        guard let bits = little(8) else { return nil }
        payload = .int64(Int64(bitPattern: bits))
      case 4: payload = .bool(false)
      case 5: payload = .bool(true)
      case 6:
        guard let bits = little(4) else { return nil }
        payload = .float32(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
      case 7:
        guard let bits = little(8) else { return nil }
        payload = .float64(Double(bitPattern: bits))
      case 8:
        guard let length = varint(), let start = skip(length) else { return nil }
        payload = .data(Array(UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])))
      case 9: payload = .null
      case 10:
        guard let index = little(4), Int(index) < objectCount else { return nil }
        payload = .object(Int(index))
      default: return nil
      }
      return (keyIndex, payload)
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
      keys.append(NibVocabulary.interned(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length)]), as: UTF8.self)))
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
      classNames.append(
        NibVocabulary.interned(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + length - 1)]), as: UTF8.self)))
      classFallbacks.append(fallbacks)
    }

    // Every object's class and values inside the tables.
    for object in 0..<objectCount {
      let classIndex = objectFields[3 * object], first = objectFields[3 * object + 1], count = objectFields[3 * object + 2]
      guard classIndex < classCount, first <= valueCount, count <= valueCount - first else { return nil }
    }

    let fallbackNames = classFallbacks.map { $0.map { classNames[$0] } }

    // As Apple writes them, the objects' values follow one another in the values table: then
    // each value is read once, straight into its object's entries, and the values after the
    // last object's are only checked.
    var contiguous = true
    var covered = 0
    for object in 0..<objectCount {
      guard objectFields[3 * object + 1] == covered else {
        contiguous = false
        break
      }
      covered += objectFields[3 * object + 2]
    }
    if contiguous {
      cursor.position = offsets[2]
      var objects: [NibGraph.Object] = []
      objects.reserveCapacity(objectCount)
      for object in 0..<objectCount {
        let classIndex = objectFields[3 * object], count = objectFields[3 * object + 2]
        var entries: [NibGraph.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
          guard let (keyIndex, payload) = cursor.value(keyCount: keyCount, objectCount: objectCount) else { return nil }
          entries.append(NibGraph.Entry(keys[keyIndex], payload))
        }
        objects.append(NibGraph.Object(className: classNames[classIndex], fallbacks: fallbackNames[classIndex], entries: entries))
      }
      for _ in covered..<valueCount where cursor.value(keyCount: keyCount, objectCount: objectCount) == nil { return nil }
      return NibGraph(objects: objects, root: 0)
    }

    // Otherwise the values are checked and located first (where each starts), then each
    // object's are read from there.
    cursor.position = offsets[2]
    var valueStarts: [Int] = []
    valueStarts.reserveCapacity(valueCount)
    for _ in 0..<valueCount {
      valueStarts.append(cursor.position)
      guard cursor.value(keyCount: keyCount, objectCount: objectCount) != nil else { return nil }
    }
    var objects: [NibGraph.Object] = []
    objects.reserveCapacity(objectCount)
    for object in 0..<objectCount {
      let classIndex = objectFields[3 * object], first = objectFields[3 * object + 1], count = objectFields[3 * object + 2]
      var entries: [NibGraph.Entry] = []
      entries.reserveCapacity(count)
      for value in first..<(first + count) {
        cursor.position = valueStarts[value]
        guard let (keyIndex, payload) = cursor.value(keyCount: keyCount, objectCount: objectCount) else { return nil }
        entries.append(NibGraph.Entry(keys[keyIndex], payload))
      }
      objects.append(NibGraph.Object(className: classNames[classIndex], fallbacks: fallbackNames[classIndex], entries: entries))
    }
    return NibGraph(objects: objects, root: 0)
  }
}
