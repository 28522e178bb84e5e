import FoundationEssentials

/// Writes ``PropertyListValue`` as `bplist00`, the way CoreFoundation does
/// (`__CFBinaryPlistWrite`), so that re-encoding an Apple file can give back its bytes:
///
/// 1. The value is flattened depth-first in pre-order: a container takes its object number before
///    its children, and a dictionary visits all its keys, then all its values.
/// 2. Strings, integers, reals, dates and data are uniqued by value: equal ones anywhere in the
///    document share one object. Containers are never uniqued. Booleans are not uniqued either,
///    but every reference to `true` (or `false`) points at the first one, leaving later copies
///    unreferenced — CF's behaviour, reproduced for byte compatibility. UIDs are never shared.
/// 3. Object references use the fewest of 1, 2, 4 or 8 bytes that hold the object count; offsets
///    the fewest that hold the offset table's start. The top object is 0.
enum BinaryPlistWriter {
  static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
    try output(value).takeArray()
  }

  /// Writes `value` straight into `Data`, with no intermediate copy.
  static func writeData(_ value: PropertyListValue) throws(PropertyListError) -> Data {
    try output(value).takeData()
  }

  /// The document, flattened in the working memory of `pool`.
  static func output(_ value: PropertyListValue, pool: MemoryPool = .shared) throws(PropertyListError) -> ByteOutput {
    var (scratch, generation) = pool.borrow()
    var flattener = Flattener(reusing: &scratch)
    // Memory kept from earlier documents is used as it is (and grows if it must); new memory is
    // sized for the document first. (The count is a walk of the whole tree, 8 % of writing a
    // 1.3 MB document, not worth making again and again for the same sizes.)
    if flattener.isFresh { flattener.reserve(references: Flattener.referenceCount(value, depth: 0)) }
    defer {
      flattener.giveBack(to: &scratch)
      pool.giveBack(scratch, generation: generation)
    }
    try flattener.flatten(value, depth: 0)
    return flattener.emit()
  }


  struct Flattener {
    /// The objects, their references, the strings' bytes and the uniquing tables: memory that can
    /// be kept from one document to the next (``FlattenerScratch``); the rest is this document's.
    var memory = FlattenerScratch()
    /// Key numbers by keys array (see ``KeyArrayCache``).
    var keyRuns = KeyArrayCache<[Int]>()
    var firstTrue: Int?
    var firstFalse: Int?
    /// Bytes the scalars will take, estimated as they are added (sizes the output buffer).
    var payloadEstimate = 0
    /// The top dictionary's member whose strings differ from one another, if the caller knows one.
    var distinct: DistinctStrings?
    /// The object numbers of that member's strings, by position in it (-1: not written yet);
    /// empty until it is met.
    var distinctNumbers: [Int32] = []
    /// Whether large arrays are read ahead (``readAhead(_:from:)``); off only in tests, which
    /// compare the bytes written either way.
    var readsAhead = true
    /// The references the containers in `value` hold: one per array element, two per dictionary
    /// entry; containers below the writer's depth limit are not counted (`flatten` refuses them).
    /// (See ``reserve(references:)``.)
    static func referenceCount(_ value: PropertyListValue, depth: Int) -> Int {
      guard depth < 512 * 2 else { return 0 }
      switch value {
      case .array(let elements):
        var total = elements.count
        for index in elements.indices {
          switch elements[index] {
          case .array, .dictionary: total &+= referenceCount(elements[index], depth: depth + 1)
          default: break
          }
        }
        return total
      case .dictionary(let dictionary):
        let values = dictionary.values
        var total = 2 &* values.count
        for index in values.indices {
          switch values[index] {
          case .array, .dictionary: total &+= referenceCount(values[index], depth: depth + 1)
          default: break
          }
        }
        return total
      default: return 0
      }
    }

    /// Appends `value` (and its children) and returns the object number references should use.
    @discardableResult
    mutating func flatten(_ value: PropertyListValue, depth: Int) throws(PropertyListError) -> Int {
      switch value {
      case .array(let elements):
        guard depth < 512 * 2 else { throw tooDeep() }
        let number = memory.objects.count
        memory.objects.append(.array(first: 0, count: 0))
        let mark = memory.pending.count
        // By index: the subscript lends each element, where iterating would copy (retain) it.
        var prefetching = false
        for index in elements.indices {
          if index & 15 == 0 { prefetching = readsAhead && memory.uniques.outgrowsCaches }
          if prefetching { readAhead(elements, from: index) }
          memory.pending.append(try flatten(elements[index], depth: depth + 1))
        }
        closeContainer(number, mark: mark, object: .array(first: memory.references.count, count: elements.count))
        return number
      case .dictionary(let dictionary):
        guard depth < 512 * 2 else { throw tooDeep() }
        let number = memory.objects.count
        memory.objects.append(.dictionary(first: 0, count: 0))
        let mark = memory.pending.count
        let keys = dictionary.keys
        appendKeyNumbers(keys, from: mark)
        let values = dictionary.values
        for index in values.indices {
          memory.pending.append(try flatten(values[index], depth: depth + 1))
        }
        closeContainer(number, mark: mark, object: .dictionary(first: memory.references.count, count: dictionary.count))
        return number
      case .bool(let flag):
        return flattenBool(flag)
      case .uid(let uid):
        return appendUID(uid)
      default:
        return flattenScalar(value)
      }
    }

    /// Moves the members gathered on `pending` from `mark` to `references` and writes the
    /// container's object (`object`, whose first reference is where they go).
    @inline(__always)
    mutating func closeContainer(_ number: Int, mark: Int, object: Object) {
      memory.references.append(contentsOf: memory.pending[mark...])
      memory.pending.removeSubrange(mark...)
      memory.objects[number] = object
    }

    /// A Boolean: a new object each time, but the number of the first one of its value (CF's).
    @inline(__always)
    mutating func flattenBool(_ flag: Bool) -> Int {
      let number = memory.objects.count
      memory.objects.append(Object(word: flag ? 1 : 0, count: 0, kind: .bool))
      if flag {
        if let firstTrue { return firstTrue }
        firstTrue = number
      } else {
        if let firstFalse { return firstFalse }
        firstFalse = number
      }
      return number
    }

    /// Pushes the object numbers of a dictionary's keys onto `pending` (whose dictionary run
    /// starts at `mark`). A keys array met before has the same key numbers (a key's number never
    /// changes once given); they are recorded the second time it is met.
    @inline(__always)
    mutating func appendKeyNumbers(_ keys: [String], from mark: Int) {
      let run = keyRuns.slot(of: keys)
      if let run, let numbers = keyRuns.payload(in: run) {
        memory.pending.append(contentsOf: numbers)
      } else {
        for key in keys { memory.pending.append(flattenKey(key)) }
        if let run { keyRuns.setPayload(Array(memory.pending[mark...]), in: run) } else { keyRuns.insert(keys, payload: nil) }
      }
    }

    /// How many array elements ahead of the one being written ``readAhead(_:from:)`` prefetches
    /// an element's storage, its containers' storage, and the uniquing tables' slots of its scalars.
    static var storageAhead: Int { 24 }
    static var membersAhead: Int { 16 }
    static var readAhead: Int { 8 }

    /// The read-ahead over an array being written (a keyed archive's `$objects`, a document's
    /// list of items), once the uniquing tables outgrow the caches (about 100,000 scalars), so
    /// that the lookups' cache misses overlap with each other and with the work on the elements
    /// before them. In three stages, each waiting for what the one before asked for: the
    /// storage of element `index + 24` (its members: a dictionary's values), the storage of the
    /// containers among element `index + 16`'s members, then the table slots of element
    /// `index + 8`'s scalars, its members' and its containers' members' (an item's `dimensions`,
    /// `ratings`, `attributes`). The members are read in place (``ContainerStorage``), not
    /// copied: a copy retained the storage, an atomic write that waited on a line not yet cached.
    @inline(__always)
    func readAhead(_ elements: [PropertyListValue], from index: Int) {
      elements.withUnsafeBufferPointer { elements in
        guard let base = elements.baseAddress else { return }
        let count = elements.count
        guard let layout = ContainerStorage.layout else {
          // Values of another layout: the scalar elements only.
          if index &+ Self.readAhead < count { prefetchScalar(base + (index &+ Self.readAhead)) }
          return
        }
        if index &+ Self.storageAhead < count { layout.prefetch(base + (index &+ Self.storageAhead), lines: 8) }
        if index &+ Self.membersAhead < count, let members = layout.members(of: base + (index &+ Self.membersAhead)),
          let start = members.baseAddress
        {
          for member in members.indices { layout.prefetch(start + member, lines: 3) }
        }
        if index &+ Self.readAhead < count { prefetchScalars(of: base + (index &+ Self.readAhead), layout) }
      }
    }

    /// Prefetches the table slots of the scalar at `value`, of the scalars among its members if it
    /// is a container, and of those among its containers' members.
    @inline(__always)
    func prefetchScalars(of value: UnsafePointer<PropertyListValue>, _ layout: ContainerStorage) {
      guard let members = layout.members(of: value) else { return prefetchScalar(value) }
      guard let start = members.baseAddress else { return }
      for member in members.indices {
        if let nested = layout.members(of: start + member) {
          if let first = nested.baseAddress {
            for index in nested.indices { prefetchScalar(first + index) }
          }
        } else {
          prefetchScalar(start + member)
        }
      }
    }

    /// Prefetches the table slot where a lookup of the value at `value` starts, if it is a scalar
    /// that is looked up (not a Boolean or a UID).
    @inline(__always)
    func prefetchScalar(_ value: UnsafePointer<PropertyListValue>) {
      switch value.pointee {
      case .string, .integer, .real, .date, .data: memory.uniques.prefetch(value.pointee)
      default: break
      }
    }

    @inline(__always)
    mutating func flattenScalar(_ value: PropertyListValue) -> Int {
      switch value {
      case .string(let string):
        return withUTF8Bytes(of: string) { flattenText(UnsafeRawBufferPointer($0), isString: true, value) }
      case .data(let data):
        return data.withUnsafeBytes { flattenText($0, isString: false, value) }
      default:
        guard let key = NumberTable.key(value), let object = Object.scalar(value) else {
          appendScalar(value)
          return memory.objects.count &- 1
        }
        return flattenNumber(key, object)
      }
    }

    /// The number of an integer, real or date (`key`), appended as `object` when new.
    @inline(__always)
    mutating func flattenNumber(_ key: NumberTable.Key, _ object: Object) -> Int {
      let candidate = memory.objects.count
      let number = memory.uniques.insertNumber(key, number: candidate)
      if number == candidate {
        memory.objects.append(object)
        payloadEstimate &+= 17
      }
      return number
    }

    /// The number of a string or data whose bytes are `bytes`; `value` (the same string or data)
    /// is appended when it was not written before.
    @inline(__always)
    mutating func flattenText(
      _ bytes: UnsafeRawBufferPointer, isString: Bool, _ value: @autoclosure () -> PropertyListValue
    ) -> Int {
      let tag = Self.textTag(bytes, isString: isString)
      // Written before (the table), or a member of the distinct array written already.
      if isString, !distinctNumbers.isEmpty, let number = findText(bytes, tag: tag, isString: true) ?? distinctNumber(of: value()) {
        return number
      }
      return uniqueText(bytes, tag: tag, isString: isString)
    }

    /// The uniquing table's tag of a string (`isString`) or data whose bytes are `bytes`.
    @inline(__always)
    static func textTag(_ bytes: UnsafeRawBufferPointer, isString: Bool) -> UInt32 {
      UniquingTable.tag(UniquingTable.hashBytes(bytes, seed: isString ? 1 : 7))
    }

    /// Appends a new string (`isString`) or data whose bytes are `bytes`, laid out in ``text``.
    @inline(__always)
    mutating func appendText(_ bytes: UnsafeRawBufferPointer, isString: Bool) {
      let offset = memory.text.append(bytes, isString: isString)
      memory.objects.append(Object(word: UInt64(offset), count: TextStore.lengthField(memory.text.bytes.count &- offset), kind: .text))
      payloadEstimate &+= memory.text.bytes.count &- offset
    }

    /// The number of a string or data equal to `bytes` (whose ``textTag(_:isString:)`` is
    /// `tag`) written before, or of a new object for it, appended and recorded.
    @inline(__always)
    mutating func uniqueText(_ bytes: UnsafeRawBufferPointer, tag: UInt32, isString: Bool) -> Int {
      let candidate = memory.objects.count
      let base = UnsafePointer(memory.text.bytes.base)
      let number = memory.uniques.insertText(tag: tag, number: candidate) {
        Self.text(of: $0, equals: bytes, isString: isString, objects: memory.objects, in: base)
      }
      if number == candidate { appendText(bytes, isString: isString) }
      return number
    }

    /// The number of a string or data equal to `bytes` (tagged `tag`) written before, if any.
    @inline(__always)
    func findText(_ bytes: UnsafeRawBufferPointer, tag: UInt32, isString: Bool) -> Int? {
      let base = UnsafePointer(memory.text.bytes.base)
      return memory.uniques.findText(tag: tag) {
        Self.text(of: $0, equals: bytes, isString: isString, objects: memory.objects, in: base)
      }
    }

    /// Appends a scalar as a new object.
    @inline(__always)
    mutating func appendScalar(_ value: PropertyListValue) {
      if let object = Object.scalar(value) {
        memory.objects.append(object)
        payloadEstimate &+= 17
        return
      }
      switch value {
      case .string(let string): withUTF8Bytes(of: string) { appendText(UnsafeRawBufferPointer($0), isString: true) }
      case .data(let data): data.withUnsafeBytes { appendText($0, isString: false) }
      default: preconditionFailure("containers are not scalars")
      }
    }

    /// Appends a new UID object (UIDs are never shared) and returns its number.
    @inline(__always)
    mutating func appendUID(_ uid: UInt64) -> Int {
      memory.objects.append(Object(word: uid, count: 0, kind: .uid))
      return memory.objects.count - 1
    }

    /// Whether object `number` is a string (`isString`) or data whose bytes are `bytes`, for the
    /// uniquing table's comparisons: by exact bytes, as CF compares, against its bytes laid out
    /// in the text store (at `base`). (Static, given the array: a closure calling a method would
    /// reach all of `self` while the table is being changed.)
    @inline(__always)
    static func text(
      of number: Int, equals bytes: UnsafeRawBufferPointer, isString: Bool, objects: [Object], in base: UnsafePointer<UInt8>
    ) -> Bool {
      let object = objects[number]
      return object.kind == .text && TextStore.object(at: Int(object.word), in: base, equals: bytes, isString: isString)
    }

    /// The number of `string`, member `position` of ``distinct``'s array: an equal string
    /// written before it elsewhere, or a new object, recorded as that member's number only.
    @inline(__always)
    mutating func flattenDistinctString(_ string: String, at position: Int) -> Int {
      // The closure calls a mutating method, which works on the flattener in place: one that
      // called `findText` itself would be handed a copy of the whole flattener (each of its
      // arrays retained and released), since a closure's captured `self` may be aliased.
      let member = withUTF8Bytes(of: string) { distinctText(UnsafeRawBufferPointer($0)) }
      distinctNumbers[position] = Int32(truncatingIfNeeded: member)
      return member
    }

    /// The number of an equal string written before, or of a new object for the string whose
    /// UTF-8 is `bytes`, kept out of the uniquing table (see ``flattenDistinctString(_:at:)``).
    @inline(__always)
    mutating func distinctText(_ bytes: UnsafeRawBufferPointer) -> Int {
      if let earlier = findText(bytes, tag: Self.textTag(bytes, isString: true), isString: true) { return earlier }
      appendText(bytes, isString: true)
      return memory.objects.count &- 1
    }

    /// The number of a member of ``distinct``'s array equal to the string `value`, if that
    /// member is written already.
    mutating func distinctNumber(of value: PropertyListValue) -> Int? {
      guard let distinct, let position = distinct.position(value), distinctNumbers.indices.contains(position) else { return nil }
      let number = distinctNumbers[position]
      return number >= 0 ? Int(number) : nil
    }

    /// A dictionary key: a string, looked up first by its representation (``KeyNumbers``).
    @inline(__always)
    mutating func flattenKey(_ key: String) -> Int {
      if let number = memory.keyNumbers.number(for: key) { return number }
      let number = flattenScalar(.string(key))
      memory.keyNumbers.record(key, number: number)
      return number
    }

    @inline(never)
    func tooDeep() -> PropertyListError {
      PropertyListError(.tooDeep, format: .binary, detail: "value nests deeper than 1024 containers")
    }

    /// The document's bytes. Each object's offset takes the place of its `word` once it is
    /// written (the objects are not needed again: the working memory is emptied next), so the
    /// offset table needs no array of its own, and no append per object.
    mutating func emit() -> ByteOutput {
      let referenceSize = binaryPlistByteWidth(UInt64(memory.objects.count))
      var output = ByteOutput(
        capacity: 64 + payloadEstimate + memory.objects.count * 10 + memory.references.count * referenceSize)
      output.append("bplist00")
      // The strings and data are copied from the text store, where they are laid out already.
      let base = UnsafePointer(memory.text.bytes.base)
      let references = memory.references
      references.withUnsafeBufferPointer { references in
        memory.objects.withUnsafeMutableBufferPointer { objects in
          for index in objects.indices {
            let object = objects[index]
            objects[index].word = UInt64(output.count)
            switch object.kind {
            case .array, .dictionary:
              let isArray = object.kind == .array
              let count = Int(object.count)
              BinaryPlistWriter.appendMarker(isArray ? 0xA0 : 0xD0, count: count, to: &output)
              let start = references.baseAddress! + Int(object.word)
              BinaryPlistWriter.appendBigEndian(count: isArray ? count : 2 &* count, width: referenceSize, to: &output) { start[$0] }
            case .text:
              let offset = Int(object.word)
              output.append(UnsafeBufferPointer(start: base + offset, count: TextStore.length(of: object, at: offset, in: base)))
            default: BinaryPlistWriter.appendScalar(object, to: &output)
            }
          }
        }
      }
      let tableStart = output.count
      let offsetSize = binaryPlistByteWidth(UInt64(tableStart))
      memory.objects.withUnsafeBufferPointer { objects in
        BinaryPlistWriter.appendBigEndian(count: objects.count, width: offsetSize, to: &output) { Int(objects[$0].word) }
      }
      output.append([0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)] as [UInt8])
      BinaryPlistWriter.appendBigEndian(UInt64(memory.objects.count), width: 8, to: &output)
      BinaryPlistWriter.appendBigEndian(0, width: 8, to: &output)
      BinaryPlistWriter.appendBigEndian(UInt64(tableStart), width: 8, to: &output)
      return output
    }
  }

  /// `count` integers (`value(0)` to `value(count - 1)`, none negative), each big-endian in
  /// `width` bytes (1, 2, 4 or 8, wide enough for every one), with one reservation and the width
  /// chosen once for the run.
  @inline(__always)
  static func appendBigEndian(count: Int, width: Int, to output: inout ByteOutput, _ value: (Int) -> Int) {
    let target = UnsafeMutableRawPointer(output.extend(by: count &* width))
    switch width {
    case 1:
      for index in 0..<count { target.storeBytes(of: UInt8(truncatingIfNeeded: value(index)), toByteOffset: index, as: UInt8.self) }
    case 2:
      for index in 0..<count {
        target.storeBytes(of: UInt16(truncatingIfNeeded: value(index)).bigEndian, toByteOffset: index &* 2, as: UInt16.self)
      }
    case 4:
      for index in 0..<count {
        target.storeBytes(of: UInt32(truncatingIfNeeded: value(index)).bigEndian, toByteOffset: index &* 4, as: UInt32.self)
      }
    default:
      for index in 0..<count {
        target.storeBytes(of: UInt64(truncatingIfNeeded: value(index)).bigEndian, toByteOffset: index &* 8, as: UInt64.self)
      }
    }
  }

  @inline(__always)
  static func appendBigEndian(_ value: UInt64, width: Int, to output: inout ByteOutput) {
    switch width {
    case 1: output.append(UInt8(truncatingIfNeeded: value))
    case 2:
      output.append(UInt8(truncatingIfNeeded: value >> 8)); output.append(UInt8(truncatingIfNeeded: value))
    case 4:
      let target = output.extend(by: 4)
      UnsafeMutableRawPointer(target).storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
    default:
      let target = output.extend(by: 8)
      UnsafeMutableRawPointer(target).storeBytes(of: value.bigEndian, as: UInt64.self)
    }
  }

  /// A marker whose low nibble is a count, with the extended form (0xF + integer) from 15 up.
  @inline(__always)
  static func appendMarker(_ high: UInt8, count: Int, to output: inout ByteOutput) {
    if count < 15 {
      output.append(high | UInt8(count))
    } else {
      output.append(high | 0x0F)
      let width = binaryPlistByteWidth(UInt64(count))
      output.append(0x10 | UInt8(width.trailingZeroBitCount))
      appendBigEndian(UInt64(count), width: width, to: &output)
    }
  }

  /// A string as CF writes it: ASCII bytes (`0x5n`) when every character is ASCII, otherwise
  /// big-endian UTF-16 (`0x6n`), transcoded here straight from the string's UTF-8.
  static func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout ByteOutput) {
    // ASCII check eight bytes at a time: most strings are ASCII.
    let count = utf8.count
    var index = 0
    var high: UInt64 = 0
    if let start = utf8.baseAddress {
      let raw = UnsafeRawPointer(start)
      while index &+ 8 <= count {
        high |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index &+= 8
      }
      while index < count {
        high |= UInt64(start[index])
        index &+= 1
      }
    }
    if high & 0x8080_8080_8080_8080 == 0 {
      appendMarker(0x50, count: count, to: &output)
      output.append(utf8)
      return
    }
    let units = utf16Count(utf8)
    appendMarker(0x60, count: units, to: &output)
    transcodeToUTF16BigEndian(utf8, into: output.extend(by: units * 2))
  }

  /// The UTF-16 length of valid UTF-8: one unit per byte that is not a continuation byte
  /// (`10xxxxxx`), two for a four-byte sequence's lead (`11110xxx`), counted eight bytes at a time.
  @inline(__always)
  static func utf16Count(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
    guard let start = utf8.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(start)
    let count = utf8.count
    let highs: UInt64 = 0x8080_8080_8080_8080
    var continuations = 0
    var fourByteLeads = 0
    var index = 0
    while index &+ 8 <= count {
      // Bit 7 of each byte, combined with that byte's lower bits (shifts within a byte).
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      continuations &+= (word & ~(word << 1) & highs).nonzeroBitCount
      fourByteLeads &+= (word & (word << 1) & (word << 2) & (word << 3) & highs).nonzeroBitCount
      index &+= 8
    }
    while index < count {
      let byte = start[index]
      continuations &+= byte & 0xC0 == 0x80 ? 1 : 0
      fourByteLeads &+= byte >= 0xF0 ? 1 : 0
      index &+= 1
    }
    return count &- continuations &+ fourByteLeads
  }

  /// Writes valid UTF-8 as big-endian UTF-16 at `out` (room for ``utf16Count(_:)`` units), runs
  /// of eight ASCII bytes at a time.
  @inline(__always)
  static func transcodeToUTF16BigEndian(_ utf8: UnsafeBufferPointer<UInt8>, into target: UnsafeMutablePointer<UInt8>) {
    var out = target
    var index = 0
    let count = utf8.count
    @inline(__always) func put(_ unit: UInt32) {
      out[0] = UInt8(truncatingIfNeeded: unit >> 8)
      out[1] = UInt8(truncatingIfNeeded: unit)
      out += 2
    }
    guard let start = utf8.baseAddress else { return }
    let raw = UnsafeRawPointer(start)
    // Swift strings hold valid UTF-8, so sequences need no checking here.
    while index < count {
      if index &+ 8 <= count {
        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          // Eight ASCII bytes: each one a unit with a zero high byte, widened together and
          // written in one store (most characters of the benchmark's non-ASCII strings are
          // ASCII; sixteen byte stores per eight of them were a tenth of writing its small
          // document, and two word stores no quicker).
          #if _endian(little)
            let units = SIMD8<UInt16>(truncatingIfNeeded: unsafeBitCast(word, to: SIMD8<UInt8>.self)) &<< 8
            UnsafeMutableRawPointer(out).storeBytes(of: units, as: SIMD8<UInt16>.self)
            out += 16
          #else
            for shift in stride(from: 0, to: 64, by: 8) {
              out[0] = 0
              out[1] = UInt8(truncatingIfNeeded: word >> UInt64(shift))
              out += 2
            }
          #endif
          index &+= 8
          continue
        }
      }
      let lead = UInt32(utf8[index])
      if lead < 0x80 {
        put(lead)
        index &+= 1
      } else if lead < 0xE0 {
        put((lead & 0x1F) << 6 | UInt32(utf8[index &+ 1]) & 0x3F)
        index &+= 2
      } else if lead < 0xF0 {
        put((lead & 0x0F) << 12 | (UInt32(utf8[index &+ 1]) & 0x3F) << 6 | UInt32(utf8[index &+ 2]) & 0x3F)
        index &+= 3
      } else {
        let scalar = (lead & 0x07) << 18 | (UInt32(utf8[index &+ 1]) & 0x3F) << 12
          | (UInt32(utf8[index &+ 2]) & 0x3F) << 6 | UInt32(utf8[index &+ 3]) & 0x3F
        let offset = scalar &- 0x10000
        put(0xD800 | offset >> 10)
        put(0xDC00 | offset & 0x3FF)
        index &+= 4
      }
    }
  }

  @inline(__always)
  static func appendString(_ string: String, to output: inout ByteOutput) {
    withUTF8Bytes(of: string) { utf8 in appendString(utf8, to: &output) }
  }

  @inline(__always)
  static func appendData(_ data: Data, to output: inout ByteOutput) {
    appendMarker(0x40, count: data.count, to: &output)
    output.append(data)
  }

  static func appendScalar(_ value: PropertyListValue, to output: inout ByteOutput) {
    switch value {
    case .bool(let flag): output.append(flag ? 0x09 : 0x08)
    case .integer(let integer): appendInteger(bitPattern: integer.bitPattern, isNegative: integer.isNegative, to: &output)
    case .real(let number, let width): appendReal(bitPattern: number.bitPattern, single: width == .single, to: &output)
    case .date(let date):
      output.append(0x33)
      appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &output)
    case .data(let data): appendData(data, to: &output)
    case .string(let string): appendString(string, to: &output)
    case .uid(let uid): appendUID(uid, to: &output)
    case .array, .dictionary:
      preconditionFailure("containers are written by the flattener")
    }
  }
}

/// A member of a document's top dictionary that is an array whose strings are known to differ
/// from one another under the writer's exact equality — a keyed archive's `$objects`, whose
/// strings the archiver already stores once each — with the way to find a string's position in
/// it. The binary writer then keeps those strings out of its uniquing table; the bytes are the
/// same as without it.
package struct DistinctStrings {
  /// The member's key in the top dictionary.
  package let key: String
  /// The position in the array of a string exactly equal to the given one, if there is one.
  package let position: (PropertyListValue) -> Int?

  package init(key: String, position: @escaping (PropertyListValue) -> Int?) {
    self.key = key
    self.position = position
  }
}
