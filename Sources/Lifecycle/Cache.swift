internal import Synchronization

/// A cache whose entries go when memory runs low (`NSCache`'s role): a total-cost limit (the
/// least recently used entries go first when it is exceeded) and ``purge()`` on a memory
/// warning. Register it with ``ApplicationLifecycle/registerPurgeable(_:)``.
public final class Cache<Key: Hashable & Sendable, Value>: Purgeable, @unchecked Sendable {
  private struct Entry {
    var value: Value
    var cost: Int
    var lastUse: UInt64
  }
  private let lock = Mutex<Void>(())
  private var entries: [Key: Entry] = [:]
  private var clock: UInt64 = 0
  /// The total cost the cache holds at most (0: no limit).
  public var totalCostLimit: Int
  /// The cost of what the cache holds now.
  public private(set) var totalCost = 0
  /// How many times the cache was purged.
  @_spi(Testing) public private(set) var purgeCount = 0

  public init(totalCostLimit: Int = 0) {
    self.totalCostLimit = totalCostLimit
  }

  /// The value for `key`, if the cache still holds it.
  public func value(forKey key: Key) -> Value? {
    lock.withLock { _ in
      clock += 1
      entries[key]?.lastUse = clock
      return entries[key]?.value
    }
  }

  /// Keeps `value` for `key` at `cost` (`setObject:forKey:cost:`), evicting the least recently
  /// used entries while the total cost is over the limit.
  public func setValue(_ value: Value, forKey key: Key, cost: Int = 0) {
    lock.withLock { _ in
      clock += 1
      if let old = entries[key] { totalCost -= old.cost }
      entries[key] = Entry(value: value, cost: cost, lastUse: clock)
      totalCost += cost
      while totalCostLimit > 0, totalCost > totalCostLimit, entries.count > 1,
        let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        totalCost -= entries.removeValue(forKey: oldest)?.cost ?? 0
      }
    }
  }

  /// Drops `key`.
  public func removeValue(forKey key: Key) {
    lock.withLock { _ in totalCost -= entries.removeValue(forKey: key)?.cost ?? 0 }
  }

  /// How many entries the cache holds.
  public var count: Int { lock.withLock { _ in entries.count } }

  /// Drops everything (the memory warning).
  public func purge() {
    lock.withLock { _ in
      entries.removeAll()
      totalCost = 0
      purgeCount += 1
    }
  }
}
