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
    /// The reads of single objects.
    let area: ObjectArea
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
    /// Recently built keys and their fingerprints by key object number (``key(at:container:)``).
    var keyCacheObjects: [Int]
    var keyCache: [(String, UInt64)]
    /// The strings of string objects that several references reach, made once.
    let sharedStrings: BinaryPlistSharedStrings

    init(buffer: UnsafeRawBufferPointer, trailer: BinaryPlistTrailer, options: PropertyListReadingOptions) {
      self.buffer = buffer
      self.trailer = trailer
      self.options = options
      objectAreaEnd = trailer.offsetTableStart
      area = ObjectArea(buffer: buffer, end: trailer.offsetTableStart)
      onPath = [UInt64](repeating: 0, count: (trailer.objectCount + 63) / 64)
      sharedStrings = BinaryPlistSharedStrings(objectCount: trailer.objectCount)
      // Set up (and torn down) at every read: sized to the document, 64 to 1024 slots, so that a
      // small document does not pay for a large one's cache.
      var slots = 64
      while slots < Self.keyCacheLimit && slots < trailer.objectCount / 8 { slots <<= 1 }
      keyCacheObjects = [Int](repeating: -1, count: slots)
      keyCache = [(String, UInt64)](repeating: ("", 0), count: slots)
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

    // The reads of single objects, for the parser's callers and extensions (``ObjectArea``).
    @inline(__always)
    func count(marker: UInt8, at start: Int) throws(PropertyListError) -> (count: Int, payload: Int) {
      try area.count(marker: marker, at: start)
    }

    @inline(__always)
    func checkFits(_ count: Int, size: Int, payload: Int, start: Int, what: String) throws(PropertyListError) {
      try area.checkFits(count, size: size, payload: payload, start: start, what: what)
    }

    @inline(__always)
    func string(marker: UInt8, start: Int) throws(PropertyListError) -> String {
      try area.string(marker: marker, start: start)
    }

    @inline(__always)
    func scalarValue(marker: UInt8, object: Int, start: Int) throws(PropertyListError) -> PropertyListValue {
      try area.scalarValue(marker: marker, object: object, start: start)
    }

    @inline(__always)
    func integer(marker: UInt8, at start: Int) throws(PropertyListError) -> PropertyListInteger {
      try area.integer(marker: marker, at: start)
    }

    @inline(__always)
    func checkedASCIIString(payload: Int, count: Int) -> String {
      area.checkedASCIIString(payload: payload, count: count)
    }

    @inline(__always)
    func checkASCII(payload: Int, count: Int, start: Int) throws(PropertyListError) {
      try area.checkASCII(payload: payload, count: count, start: start)
    }

    @inline(__always)
    func utf16String(payload: Int, count: Int) -> String {
      area.utf16String(payload: payload, count: count)
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
      let slot = object & (keyCache.count &- 1)
      if keyCacheObjects[slot] == object { return keyCache[slot] }
      let key = try keyText(at: object, container: container)
      var copy = key
      let fingerprint = copy.withUTF8 { UniquingTable.hashBytes(UnsafeRawBufferPointer($0), seed: 11) }
      keyCacheObjects[slot] = object
      keyCache[slot] = (key, fingerprint)
      return (key, fingerprint)
    }

    /// The text of dictionary key `object` of the dictionary at `container`: a string, or an
    /// integer read as its decimal text (``ObjectArea/keyText(start:container:)``).
    @inline(__always)
    func keyText(at object: Int, container: Int) throws(PropertyListError) -> String {
      try area.keyText(start: offset(of: object), container: container)
    }

    static let keyCacheLimit = 1024

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

  }
}
