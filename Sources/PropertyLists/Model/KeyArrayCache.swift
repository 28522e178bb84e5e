/// What the writers work out once per keys array and reuse: the XML writer's key order, the binary
/// writer's key object numbers. Dictionaries of one shape (an item store's items, as the binary
/// reader and the Codable encoder build them) share one keys array, so its answer is the same
/// every time.
///
/// An array is recognised by its storage. The cache keeps the arrays it holds alive, so no other
/// array can take that storage while they are here: the same storage and count are the same keys.
/// A new array replaces the slot hit least, so that the one-off keys of many small dictionaries
/// (a `[String: V]` per item) do not push out the shapes that repeat.
struct KeyArrayCache<Payload> {
  private static var size: Int { 8 }
  private var keys = [[String]](repeating: [], count: KeyArrayCache.size)
  private var payloads = [Payload?](repeating: nil, count: KeyArrayCache.size)
  private var hits = [Int](repeating: 0, count: KeyArrayCache.size)

  @inline(__always)
  private static func identity(_ array: [String]) -> UnsafePointer<String>? {
    array.withUnsafeBufferPointer { $0.baseAddress }
  }

  /// The slot holding `dictionaryKeys`' storage, if any (counted as a hit).
  @inline(__always)
  mutating func slot(of dictionaryKeys: [String]) -> Int? {
    guard !dictionaryKeys.isEmpty else { return nil }
    let identity = Self.identity(dictionaryKeys)
    for slot in 0..<Self.size where keys[slot].count == dictionaryKeys.count && Self.identity(keys[slot]) == identity {
      hits[slot] &+= 1
      return slot
    }
    return nil
  }

  /// What was recorded for the array in `slot`, if anything yet.
  @inline(__always)
  func payload(in slot: Int) -> Payload? { payloads[slot] }

  mutating func setPayload(_ payload: Payload, in slot: Int) { payloads[slot] = payload }

  /// Holds a small dictionary's keys array (large ones are rarely repeated) in the slot hit least,
  /// with `payload` if it is known; returns the slot.
  @discardableResult
  mutating func insert(_ dictionaryKeys: [String], payload: Payload?) -> Int? {
    guard !dictionaryKeys.isEmpty, dictionaryKeys.count <= 64 else { return nil }
    var victim = 0
    for slot in 1..<Self.size where hits[slot] < hits[victim] { victim = slot }
    // Halve every count, so that shapes that stopped repeating give way in time.
    for slot in 0..<Self.size { hits[slot] >>= 1 }
    keys[victim] = dictionaryKeys
    payloads[victim] = payload
    hits[victim] = 0
    return victim
  }
}
