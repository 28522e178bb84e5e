import FoundationEssentials

/// Reads `bplist00` documents into ``PropertyListValue``.
///
/// The trailer and the whole offset table are validated first (``BinaryPlistTrailer``); after that
/// every object read checks that its payload ends before the offset table, every reference is
/// below the object count, nesting stays within the depth limit and no container contains itself.
/// A container reachable through several references is built once per reference, but the
/// number of values built is capped at four times the document's object count (and at
/// ``PropertyListReadingOptions/maximumObjectCount``), so a document of shared references cannot
/// blow up exponentially.
enum BinaryPlistReader {
  static func read(_ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) -> PropertyListValue {
    let trailer = try BinaryPlistTrailer(validating: buffer, options: options)
    var parser = Parser(buffer: buffer, trailer: trailer, options: options)
    return try parser.value(at: trailer.topObject, depth: 0)
  }

  /// Reads an unsigned big-endian integer of `width` bytes; the caller has checked the bounds.
  /// Widths above 8 keep the low 64 bits (the last 8 bytes), as CoreFoundation does.
  @inline(__always)
  static func bigEndian(_ buffer: UnsafeRawBufferPointer, at offset: Int, width: Int) -> UInt64 {
    switch width {
    case 1: return UInt64(buffer[offset])
    case 2: return UInt64(UInt16(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    case 4: return UInt64(UInt32(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    case 8: return UInt64(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    default:
      var value: UInt64 = 0
      for i in Swift.max(offset, offset + width - 8)..<(offset + width) { value = value << 8 | UInt64(buffer[i]) }
      return value
    }
  }

  @inline(never)
  static func failure(_ code: PropertyListError.Code, at offset: Int, _ detail: String) -> PropertyListError {
    PropertyListError(code, format: .binary, position: .byteOffset(offset), detail: detail)
  }

  struct Parser {
    let buffer: UnsafeRawBufferPointer
    let trailer: BinaryPlistTrailer
    let options: PropertyListReadingOptions
    /// One past the last byte an object may use (the offset table's start).
    let objectAreaEnd: Int
    /// A bit per object: set while the object is a container on the current path (cycle check).
    var onPath: [UInt64]
    var budget: Int
    /// Fingerprints of the keys of the dictionary being read (reused scratch space).
    var fingerprints: [UInt64] = []
    /// Key object numbers of the dictionary being read (reused scratch space).
    var keyReferences: [Int] = []
    /// Recently built key arrays by their key object numbers.
    var shapeCache = [(references: [Int], keys: [String], unique: Bool)?](repeating: nil, count: Parser.shapeCacheSize)
    static let shapeCacheSize = 64
    var keyCacheObjects = [Int](repeating: -1, count: Parser.keyCacheSize)
    var keyCache = [(String, UInt64)](repeating: ("", 0), count: Parser.keyCacheSize)
    /// The strings of string objects that several references reach, made once.
    let sharedStrings: BinaryPlistSharedStrings

    init(buffer: UnsafeRawBufferPointer, trailer: BinaryPlistTrailer, options: PropertyListReadingOptions) {
      self.buffer = buffer
      self.trailer = trailer
      self.options = options
      objectAreaEnd = trailer.offsetTableStart
      onPath = [UInt64](repeating: 0, count: (trailer.objectCount + 63) / 64)
      sharedStrings = BinaryPlistSharedStrings(objectCount: trailer.objectCount)
      let (scaled, overflow) = trailer.objectCount.multipliedReportingOverflow(by: 4)
      // At least one value per byte: unshared containers (all our writer makes) never exceed it.
      budget = Swift.min(Swift.max(overflow ? Int.max : scaled, buffer.count), options.maximumObjectCount)
    }

    @inline(__always)
    func offset(of object: Int) -> Int {
      Int(truncatingIfNeeded: BinaryPlistReader.bigEndian(
        buffer, at: trailer.offsetTableStart &+ object &* trailer.offsetSize, width: trailer.offsetSize))
    }

    @inline(__always)
    func reference(at position: Int) -> UInt64 {
      BinaryPlistReader.bigEndian(buffer, at: position, width: trailer.referenceSize)
    }

    /// Reads the count of a data, string or container object whose marker is at `start`:
    /// the low nibble, or for 0xF a following integer object. Returns the count and where the
    /// payload starts.
    @inline(__always)
    func count(marker: UInt8, at start: Int) throws(PropertyListError) -> (count: Int, payload: Int) {
      let nibble = Int(marker & 0x0F)
      if nibble != 0x0F { return (nibble, start + 1) }
      let intMarkerAt = start + 1
      guard intMarkerAt < objectAreaEnd else {
        throw failure(.truncated, at: start, "object at \(start) has an extended count that runs into the offset table")
      }
      let intMarker = buffer[intMarkerAt]
      guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
        throw failure(.unexpectedInput, at: intMarkerAt, "extended count marker is 0x\(String(intMarker, radix: 16)); expected an integer marker 0x10...0x13")
      }
      let width = 1 << Int(intMarker & 0x0F)
      guard width <= objectAreaEnd - intMarkerAt - 1 else {
        throw failure(.truncated, at: intMarkerAt, "extended count of \(width) bytes runs into the offset table")
      }
      let raw = BinaryPlistReader.bigEndian(buffer, at: intMarkerAt + 1, width: width)
      guard raw <= UInt64(Int.max >> 4) else {
        throw failure(.limitExceeded, at: intMarkerAt, "count \(raw) is impossibly large")
      }
      return (Int(raw), intMarkerAt + 1 + width)
    }

    /// Checks that `count` elements of `size` bytes starting at `payload` end before the offset table.
    @inline(__always)
    func checkFits(_ count: Int, size: Int, payload: Int, start: Int, what: String) throws(PropertyListError) {
      let available = objectAreaEnd - payload
      let (needed, overflow) = count.multipliedReportingOverflow(by: size)
      guard !overflow, available >= 0, needed <= available else {
        throw failure(.truncated, at: start, "\(what) at \(start) claims \(count) elements of \(size) bytes but only \(Swift.max(available, 0)) bytes remain before the offset table")
      }
    }

    /// Counts one value against the budget of values a document may build.
    @inline(__always)
    mutating func spendBudget(for object: Int) throws(PropertyListError) {
      budget &-= 1
      guard budget >= 0 else {
        throw failure(.limitExceeded, at: offset(of: object), "document builds more values than the object limit allows (shared references expanded too often)")
      }
    }

    mutating func value(at object: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
      try spendBudget(for: object)
      let start = offset(of: object)
      let marker = buffer[start]
      switch marker >> 4 {
      case 0xA, 0xC:
        let (count, payload) = try openContainer(object, marker: marker, start: start, depth: depth)
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        var position = payload
        for _ in 0..<count {
          let child = try checkedReference(at: position, container: start)
          elements.append(try value(at: child, depth: depth + 1))
          position &+= trailer.referenceSize
        }
        leave(object)
        return .array(elements)
      case 0xD:
        let (count, payload) = try openContainer(object, marker: marker, start: start, depth: depth)
        // Dictionaries of one shape (an item store's items) list the same key objects: reuse the
        // keys array built for the last dictionary with these key references.
        keyReferences.removeAll(keepingCapacity: true)
        var position = payload
        var shape = count
        for _ in 0..<count {
          let keyObject = try checkedReference(at: position, container: start)
          keyReferences.append(keyObject)
          shape = shape &* 31 &+ keyObject
          position &+= trailer.referenceSize
        }
        let slot = Int(UInt(bitPattern: shape) % UInt(Self.shapeCacheSize))
        let keys: [String]
        // Small dictionaries are checked here (fingerprints); large ones while their index is built.
        let keysAreUnique: Bool
        if let cached = shapeCache[slot], cached.references == keyReferences {
          keys = cached.keys
          keysAreUnique = cached.unique
        } else {
          var built: [String] = []
          built.reserveCapacity(count)
          fingerprints.removeAll(keepingCapacity: true)
          for keyObject in keyReferences {
            let (key, fingerprint) = try self.key(at: keyObject, container: start)
            built.append(key)
            fingerprints.append(fingerprint)
          }
          keys = built
          keysAreUnique = count <= PropertyListDictionary.indexThreshold && !hasRepeatedKey(built)
          if count <= PropertyListDictionary.indexThreshold {
            shapeCache[slot] = (keyReferences, built, keysAreUnique)
          }
        }
        var values: [PropertyListValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
          let child = try checkedReference(at: position, container: start)
          values.append(try value(at: child, depth: depth + 1))
          position &+= trailer.referenceSize
        }
        leave(object)
        // A repeated key keeps its first value, as CF's binary reader does (checked against the
        // toolchain's CF).
        return .dictionary(
          keysAreUnique ? PropertyListDictionary(uniqueKeys: keys, values: values) : PropertyListDictionary(keepingFirstOf: keys, values: values))
      case 0x5, 0x6:
        if let shared = sharedStrings.string(of: object) { return .string(shared) }
        let text = try string(marker: marker, start: start)
        sharedStrings.made(text, for: object)
        return .string(text)
      default:
        return try scalarValue(marker: marker, object: object, start: start)
      }
    }

    /// The string object whose marker (`0x5n` ASCII, `0x6n` UTF-16) is at `start`. Not inlined
    /// into ``value(at:depth:)`` for the reason given at ``scalarValue(marker:object:start:)``.
    @inline(never)
    func string(marker: UInt8, start: Int) throws(PropertyListError) -> String {
      let (count, payload) = try count(marker: marker, at: start)
      if marker >> 4 == 0x5 {
        try checkFits(count, size: 1, payload: payload, start: start, what: "ASCII string")
        return try asciiString(payload: payload, count: count, start: start)
      }
      try checkFits(count, size: 2, payload: payload, start: start, what: "UTF-16 string")
      return utf16String(payload: payload, count: count)
    }

    /// A value that is not a container. Kept out of ``value(at:depth:)``, which recurses: the
    /// error texts built here would otherwise take room in every level's stack frame (a
    /// 600-deep array needs 600 of them; in a debug build they ran past an 8 MB stack).
    @inline(never)
    func scalarValue(marker: UInt8, object: Int, start: Int) throws(PropertyListError) -> PropertyListValue {
      switch marker >> 4 {
      case 0x0:
        switch marker {
        case 0x08: return .bool(false)
        case 0x09: return .bool(true)
        default:
          throw failure(.unexpectedInput, at: start, "object \(object) has marker 0x\(String(marker, radix: 16)), which is not a value in bplist00 (null and fill are not readable)")
        }
      case 0x1: return .integer(try integer(marker: marker, at: start))
      case 0x2:
        switch marker & 0x0F {
        case 2:
          guard objectAreaEnd - start >= 5 else { throw failure(.truncated, at: start, "4-byte real runs into the offset table") }
          let bits = UInt32(BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 4))
          return .real(Double(Float(bitPattern: bits)), width: .single)
        case 3:
          guard objectAreaEnd - start >= 9 else { throw failure(.truncated, at: start, "8-byte real runs into the offset table") }
          return .real(Double(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)), width: .double)
        default:
          throw failure(.unexpectedInput, at: start, "real of \(1 << Int(marker & 0x0F)) bytes; only 4 and 8 are allowed")
        }
      case 0x3:
        guard marker == 0x33 else {
          throw failure(.unexpectedInput, at: start, "marker 0x\(String(marker, radix: 16)); the only date marker is 0x33")
        }
        guard objectAreaEnd - start >= 9 else { throw failure(.truncated, at: start, "date runs into the offset table") }
        let seconds = Double(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8))
        return .date(Date(timeIntervalSinceReferenceDate: seconds))
      case 0x4:
        let (count, payload) = try count(marker: marker, at: start)
        try checkFits(count, size: 1, payload: payload, start: start, what: "data")
        return .data(Data(bytes: buffer.baseAddress! + payload, count: count))
      case 0x5, 0x6: return .string(try string(marker: marker, start: start))
      case 0x8:
        let width = Int(marker & 0x0F) + 1
        guard objectAreaEnd - start > width else { throw failure(.truncated, at: start, "UID runs into the offset table") }
        let uid = BinaryPlistReader.bigEndian(buffer, at: start + 1, width: width)
        guard width <= 8 else {
          throw failure(.invalidValue, at: start, "UID of \(width) bytes; at most 8 are allowed")
        }
        return .uid(uid)
      default:
        throw failure(.unexpectedInput, at: start, "object \(object) has marker 0x\(String(marker, radix: 16)), which is not defined in bplist00")
      }
    }

    /// Reads the member count of the array, set or dictionary `object` (marker `marker` at
    /// `start`), checks that its references end before the offset table, and enters it (depth
    /// and cycle checks). Returns the count and where its references start.
    @inline(__always)
    mutating func openContainer(_ object: Int, marker: UInt8, start: Int, depth: Int) throws(PropertyListError) -> (count: Int, payload: Int) {
      let (count, payload) = try count(marker: marker, at: start)
      let isDictionary = marker >> 4 == 0xD
      try checkFits(
        count, size: isDictionary ? 2 * trailer.referenceSize : trailer.referenceSize, payload: payload, start: start,
        what: isDictionary ? "dictionary" : marker >> 4 == 0xA ? "array" : "set")
      try enter(object, depth: depth, start: start)
      return (count, payload)
    }

    @inline(__always)
    func checkedReference(at position: Int, container: Int) throws(PropertyListError) -> Int {
      let reference = self.reference(at: position)
      guard reference < UInt64(trailer.objectCount) else {
        throw failure(.badReference, at: position, "container at \(container) refers to object \(reference); the document has \(trailer.objectCount)")
      }
      return Int(reference)
    }

    @inline(__always)
    mutating func enter(_ object: Int, depth: Int, start: Int) throws(PropertyListError) {
      guard depth < options.maximumDepth else {
        throw failure(.tooDeep, at: start, "containers nest deeper than \(options.maximumDepth) levels")
      }
      let word = object >> 6
      let bit: UInt64 = 1 << UInt64(object & 63)
      guard onPath[word] & bit == 0 else {
        throw failure(.cycle, at: start, "object \(object) contains itself")
      }
      onPath[word] |= bit
    }

    @inline(__always)
    mutating func leave(_ object: Int) {
      onPath[object >> 6] &= ~(1 << UInt64(object & 63))
    }

    /// A dictionary key (a string object, or an integer read as its decimal text) and a
    /// fingerprint of its text. Keys repeat across a document's dictionaries, so recently
    /// built keys are kept in a small direct-mapped cache by object number.
    @inline(__always)
    mutating func key(at object: Int, container: Int) throws(PropertyListError) -> (String, UInt64) {
      let slot = object & (Self.keyCacheSize - 1)
      if keyCacheObjects[slot] == object { return keyCache[slot] }
      let key = try keyText(at: object, container: container)
      var copy = key
      let fingerprint = copy.withUTF8 { UniquingTable.hashBytes(UnsafeRawBufferPointer($0), seed: 11) }
      keyCacheObjects[slot] = object
      keyCache[slot] = (key, fingerprint)
      return (key, fingerprint)
    }

    /// The text of dictionary key `object` of the dictionary at `container`: a string, or an
    /// integer read as its decimal text.
    func keyText(at object: Int, container: Int) throws(PropertyListError) -> String {
      let start = offset(of: object)
      let marker = buffer[start]
      switch marker >> 4 {
      case 0x5, 0x6: return try string(marker: marker, start: start)
      case 0x1:
        // CoreFoundation tolerates scalar keys; integer keys occur in real files (Mail's
        // `VersionMapping`). They are read as their decimal text. Other non-string keys are refused.
        return try integer(marker: marker, at: start).description
      default:
        throw failure(.unexpectedInput, at: start, "dictionary at \(container) has a key of marker 0x\(String(marker, radix: 16)); keys must be strings (or integers)")
      }
    }

    static let keyCacheSize = 1024

    /// Whether a small dictionary's keys (the last `keys.count` fingerprints) repeat a key.
    @inline(__always)
    func hasRepeatedKey(_ keys: [String]) -> Bool {
      let count = keys.count
      guard count > 1 else { return false }
      return fingerprints.withUnsafeBufferPointer { prints in
        for i in 1..<count {
          for j in 0..<i where prints[i] == prints[j] && keys[i] == keys[j] { return true }
        }
        return false
      }
    }

    func integer(marker: UInt8, at start: Int) throws(PropertyListError) -> PropertyListInteger {
      let exponent = Int(marker & 0x0F)
      guard exponent <= 4 else {
        throw failure(.unexpectedInput, at: start, "integer of 2^\(exponent) bytes; at most 16 bytes are allowed")
      }
      let width = 1 << exponent
      guard objectAreaEnd - start > width else {
        throw failure(.truncated, at: start, "\(width)-byte integer runs into the offset table")
      }
      switch width {
      case 1, 2, 4: return PropertyListInteger(BinaryPlistReader.bigEndian(buffer, at: start + 1, width: width))
      case 8: return PropertyListInteger(Int64(bitPattern: BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)))
      default:
        let high = BinaryPlistReader.bigEndian(buffer, at: start + 1, width: 8)
        let low = BinaryPlistReader.bigEndian(buffer, at: start + 9, width: 8)
        if high == 0 { return PropertyListInteger(low) }
        if high == UInt64.max, Int64(bitPattern: low) < 0 { return PropertyListInteger(Int64(bitPattern: low)) }
        throw failure(.invalidValue, at: start, "128-bit integer does not fit in the range Int64.min...UInt64.max")
      }
    }

    func asciiString(payload: Int, count: Int, start: Int) throws(PropertyListError) -> String {
      try checkASCII(payload: payload, count: count, start: start)
      return checkedASCIIString(payload: payload, count: count)
    }

    /// The string of `count` bytes at `payload`, already checked to be ASCII and in bounds.
    /// (Measured against the standard library's ASCII initializers, Swift 6.3, strings of 6 to 54
    /// bytes: `String(validating:as: Unicode.ASCII.self)` took 70–110 ns a string, through its
    /// unspecialized generic path; `String(decoding:as: Unicode.ASCII.self)` 18–48 ns; this,
    /// the same or less, 16–46 ns.)
    @inline(__always)
    func checkedASCIIString(payload: Int, count: Int) -> String {
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[payload..<(payload + count)])
      return String(unsafeUninitializedCapacity: count) { target in
        if count > 0 { target.baseAddress!.initialize(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count) }
        return count
      }
    }

    /// Checks that an ASCII string object's `count` bytes at `payload` are all below 0x80.
    @inline(__always)
    func checkASCII(payload: Int, count: Int, start: Int) throws(PropertyListError) {
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[payload..<(payload + count)])
      // Fast check, eight bytes at a time, that every byte is ASCII.
      var index = 0
      var accumulated: UInt64 = 0
      while index + 8 <= count {
        accumulated |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
      }
      while index < count {
        accumulated |= UInt64(bytes[index])
        index += 1
      }
      guard accumulated & 0x8080_8080_8080_8080 == 0 else {
        throw notASCII(at: start)
      }
    }

    @inline(never)
    func notASCII(at start: Int) -> PropertyListError {
      failure(.badEncoding, at: start, "ASCII string object holds a byte above 0x7F")
    }

    /// Whether four big-endian UTF-16 units are all ASCII (each unit's high byte zero and low byte
    /// below 0x80). `word` holds their eight bytes with the first in its lowest byte
    /// (`UInt64(littleEndian:)` of the bytes loaded in memory order).
    @inline(__always)
    static func fourASCIIUnits(_ word: UInt64) -> Bool {
      word & 0x80FF_80FF_80FF_80FF == 0
    }

    /// Decodes big-endian UTF-16; an unpaired surrogate becomes U+FFFD. One pass transcodes into
    /// scratch space of the largest size the text can take (3 bytes a unit: on the stack for
    /// short strings), then the string is made at its exact size (a 3-bytes-per-unit guess for the
    /// string itself wasted 8 MB on the 14 MB item store, and short strings must stay inline).
    func utf16String(payload: Int, count: Int) -> String {
      guard count > 0 else { return "" }
      let source = buffer.baseAddress! + payload
      // Scratch space kept across strings (instead of this temporary allocation, which the
      // standard library takes from the heap above a kilobyte) made fewer allocations but, in
      // the benchmark harness, let glibc return the freed tree's memory to the system after every
      // read (2.8 times the page faults, 10 % slower on the 14 MB document): not kept.
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count &* 3) { scratch in
        let length = Self.transcodeUTF16(source, count: count, into: scratch.baseAddress!)
        return String(unsafeUninitializedCapacity: length) { target in
          target.baseAddress!.initialize(from: scratch.baseAddress!, count: length)
          return length
        }
      }
    }

    /// Writes the UTF-8 of `count` big-endian UTF-16 units at `source` to `target` (room for 3
    /// bytes a unit); returns the number of bytes written.
    static func transcodeUTF16(_ source: UnsafeRawPointer, count: Int, into target: UnsafeMutablePointer<UInt8>) -> Int {
      var out = target
      var index = 0
      while index < count {
        if index &+ 4 <= count {
          let word = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt64.self))
          if Self.fourASCIIUnits(word) {
            // The units' low bytes (big-endian units: every second byte, from the second).
            let bytes = UInt32(truncatingIfNeeded: (word >> 8) & 0xFF | (word >> 16) & 0xFF00 | (word >> 24) & 0xFF_0000 | (word >> 32) & 0xFF00_0000)
            UnsafeMutableRawPointer(out).storeBytes(of: bytes.littleEndian, as: UInt32.self)
            out += 4
            index &+= 4
            continue
          }
        }
        var scalar = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self)))
        index &+= 1
        if scalar < 0x80 {
          out.pointee = UInt8(truncatingIfNeeded: scalar)
          out += 1
          continue
        }
        if scalar < 0x800 {
          out[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
          out[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
          out += 2
          continue
        }
        if scalar & 0xF800 == 0xD800 {
          var paired = false
          if scalar < 0xDC00, index < count {
            let low = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: UInt16.self)))
            if low & 0xFC00 == 0xDC00 {
              scalar = 0x10000 &+ ((scalar &- 0xD800) << 10) &+ (low &- 0xDC00)
              index &+= 1
              paired = true
            }
          }
          if paired {
            out[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            out[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 12) & 0x3F)
            out[2] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 6) & 0x3F)
            out[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            out += 4
            continue
          }
          scalar = 0xFFFD
        }
        out[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
        out[1] = UInt8(truncatingIfNeeded: 0x80 | (scalar >> 6) & 0x3F)
        out[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        out += 3
      }
      return out - target
    }
  }
}
