/// What the writers work out once per keys array and reuse: the XML writer's key order, the binary
/// writer's key object numbers. Dictionaries of one shape (an item store's items, as the binary
/// reader and the Codable encoder build them) share one keys array, so its answer is the same
/// every time.
///
/// An array is recognised by its storage. The cache keeps the arrays it holds alive, so no other
/// array can take that storage while they are here: the same storage and count are the same keys.
///
/// A new array waits in slot 0 until it is met again, then moves into the slot used least
/// recently: the one-off keys of many small dictionaries (a `[String: V]` per item) only ever
/// replace each other there, and never push out the shapes that repeat. An array pushed out of
/// slot 0 before it was met again leaves its identity behind (``recentlyPushedOut``): met again
/// later, it goes straight into a slot of its own. Without that, two new shapes met in turn (an
/// item's keys, then its `dimensions`' keys, item after item) pushed each other out of slot 0
/// forever, and every item's keys were sorted again.
struct KeyArrayCache<Payload> {
  private static var size: Int { 8 }
  private var keys = [[String]](repeating: [], count: KeyArrayCache.size)
  private var payloads = [Payload?](repeating: nil, count: KeyArrayCache.size)
  private var lastUse = [Int](repeating: 0, count: KeyArrayCache.size)
  private var clock = 0
  /// The storage and count of the last arrays pushed out of slot 0, not kept alive: a match is
  /// only a reason to keep an array (which the slots then do hold), never taken for its keys.
  private var recentlyPushedOut = [(UnsafePointer<String>?, Int)](repeating: (nil, 0), count: KeyArrayCache.size)
  private var nextPushedOut = 0

  @inline(__always)
  private static func identity(_ array: [String]) -> UnsafePointer<String>? {
    array.withUnsafeBufferPointer { $0.baseAddress }
  }

  /// The slot holding `dictionaryKeys`' storage, if any.
  @inline(__always)
  mutating func slot(of dictionaryKeys: [String]) -> Int? {
    guard !dictionaryKeys.isEmpty else { return nil }
    let identity = Self.identity(dictionaryKeys)
    for slot in 0..<Self.size where keys[slot].count == dictionaryKeys.count && Self.identity(keys[slot]) == identity {
      clock &+= 1
      lastUse[slot] = clock
      return slot == 0 ? promote() : slot
    }
    return nil
  }

  /// The slot (1 or above) used least recently.
  private func leastRecentlyUsed() -> Int {
    var victim = 1
    for slot in 2..<Self.size where lastUse[slot] < lastUse[victim] { victim = slot }
    return victim
  }

  /// Moves the array waiting in slot 0 into the slot used least recently; returns that slot.
  private mutating func promote() -> Int {
    let victim = leastRecentlyUsed()
    keys.swapAt(0, victim)
    payloads.swapAt(0, victim)
    lastUse.swapAt(0, victim)
    return victim
  }

  /// What was recorded for the array in `slot`, if anything yet.
  @inline(__always)
  func payload(in slot: Int) -> Payload? { payloads[slot] }

  mutating func setPayload(_ payload: Payload, in slot: Int) { payloads[slot] = payload }

  /// Puts a small dictionary's keys array (large ones are rarely repeated) in slot 0, with
  /// `payload` if it is known.
  mutating func insert(_ dictionaryKeys: [String], payload: Payload?) {
    guard !dictionaryKeys.isEmpty, dictionaryKeys.count <= 64 else { return }
    clock &+= 1
    let identity = Self.identity(dictionaryKeys)
    for slot in 0..<Self.size where recentlyPushedOut[slot] == (identity, dictionaryKeys.count) {
      // Met before, while it waited in slot 0: a shape that repeats.
      recentlyPushedOut[slot] = (nil, 0)
      let victim = leastRecentlyUsed()
      keys[victim] = dictionaryKeys
      payloads[victim] = payload
      lastUse[victim] = clock
      return
    }
    if !keys[0].isEmpty {
      recentlyPushedOut[nextPushedOut] = (Self.identity(keys[0]), keys[0].count)
      nextPushedOut = (nextPushedOut &+ 1) % Self.size
    }
    keys[0] = dictionaryKeys
    payloads[0] = payload
    lastUse[0] = clock
  }
}
