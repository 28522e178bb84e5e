internal import CPrefetch

extension BinaryPlistWriter {
  /// Reaches a container's members in place, without copying the ``PropertyListValue`` that holds
  /// them, for the binary writer's read-ahead (``Flattener/readAhead(_:from:)``).
  ///
  /// Copying a container value (`case .dictionary(let dictionary)`) retains its storage: an atomic
  /// write to the storage's first cache line. On the 14 MB benchmark document that line is not in
  /// the cache when the read-ahead first meets an item, so the read-ahead waited on a memory load
  /// for every item (`swift_retain` was 8 % of the samples). Here the storage's address is read
  /// from the value's bits, so that it can be prefetched well before the members are needed, and
  /// the members are then read through a buffer pointer, neither retained nor released.
  ///
  /// Where the address sits is not part of Swift's ABI on Linux, so it is not assumed: ``layout``
  /// finds it once, in values made for the purpose, and checks the array storage's header (its
  /// count, and where its elements start) against what the array itself reports. If the bits do
  /// not match that model (another compiler or platform), ``layout`` is nil and the read-ahead
  /// looks only at scalar elements. A prefetch never faults, so an address prefetched too early
  /// costs nothing but the prefetch; members are only read from storage the model was checked on.
  struct ContainerStorage {
    /// The byte offset, in a ``PropertyListValue``, of the word holding an array's storage, and of
    /// the word holding a dictionary's values' storage.
    let arrayWord: Int
    let dictionaryWord: Int

    /// Where a native array's storage keeps its count, and where its elements start, on 64-bit
    /// platforms (checked by ``find()``).
    static var countOffset: Int { 16 }
    static var elementsOffset: Int { 32 }

    /// The layout of this build's values, or nil where they do not match the model.
    static let layout: ContainerStorage? = find()

    /// The storage of the array at `value`, or of the dictionary's values, or nil for a scalar.
    @inline(__always)
    func storage(of value: UnsafePointer<PropertyListValue>) -> UnsafeRawPointer? {
      let word: Int
      switch value.pointee {
      case .array: word = arrayWord
      case .dictionary: word = dictionaryWord
      default: return nil
      }
      return UnsafeRawPointer(bitPattern: UnsafeRawPointer(value).load(fromByteOffset: word, as: UInt.self))
    }

    /// Prefetches the first `lines` cache lines of the storage of the container at `value`, if
    /// it is one: its header and first members.
    @inline(__always)
    func prefetch(_ value: UnsafePointer<PropertyListValue>, lines: Int) {
      guard let storage = storage(of: value) else { return }
      for line in 0..<lines { stasis_prefetch(storage + line &* 64) }
    }

    /// The members of the container at `value` (a dictionary's values), read in place; nil for a
    /// scalar.
    @inline(__always)
    func members(of value: UnsafePointer<PropertyListValue>) -> UnsafeBufferPointer<PropertyListValue>? {
      guard let storage = storage(of: value) else { return nil }
      return Self.members(in: storage)
    }

    @inline(__always)
    static func members(in storage: UnsafeRawPointer) -> UnsafeBufferPointer<PropertyListValue> {
      UnsafeBufferPointer(
        start: (storage + elementsOffset).assumingMemoryBound(to: PropertyListValue.self),
        count: storage.load(fromByteOffset: countOffset, as: Int.self))
    }

    /// Finds the words in an array value and a dictionary value made here, each checked against
    /// what its array reports (its elements' address and count).
    static func find() -> ContainerStorage? {
      guard MemoryLayout<UInt>.size == 8 else { return nil }
      let members: [PropertyListValue] = [.integer(7), .bool(true), .string("a string too long to be stored inline")]
      let array = PropertyListValue.array(members)
      let dictionary = PropertyListValue.dictionary(PropertyListDictionary(keys: ["a", "b", "c"], values: members))
      let empty: [PropertyListValue] = []
      guard case .dictionary(let built) = dictionary, let arrayWord = word(in: array, holding: members),
        let dictionaryWord = word(in: dictionary, holding: built.values), word(in: .array(empty), holding: empty) == arrayWord
      else { return nil }
      return ContainerStorage(arrayWord: arrayWord, dictionaryWord: dictionaryWord)
    }

    /// The offset of the word of `value` that is the storage of `members` (its elements start
    /// ``elementsOffset`` bytes in, after a count of `members.count`), if there is one.
    private static func word(in value: PropertyListValue, holding members: [PropertyListValue]) -> Int? {
      members.withUnsafeBufferPointer { elements -> Int? in
        guard let start = elements.baseAddress else { return nil }
        return withUnsafeBytes(of: value) { bits -> Int? in
          for offset in stride(from: 0, through: bits.count - 8, by: 8) {
            let word = bits.loadUnaligned(fromByteOffset: offset, as: UInt.self)
            guard word != 0, word &+ UInt(elementsOffset) == UInt(bitPattern: start),
              let storage = UnsafeRawPointer(bitPattern: word),
              storage.load(fromByteOffset: countOffset, as: Int.self) == elements.count
            else { continue }
            return offset
          }
          return nil
        }
      }
    }
  }
}
