internal import Synchronization

/// A cache whose entries go when memory runs low (`NSCache`'s role): a total-cost limit (the
/// least recently used entries go first when it is exceeded) and ``purge()`` on a memory
/// warning. Register it with ``ApplicationLifecycle/registerPurgeable(_:)``.
///
/// Safe to use from any thread (as `NSCache`): its state is behind one lock, and its values are
/// `Sendable`.
public final class Cache<Key: Hashable & Sendable, Value: Sendable>: Purgeable, Sendable {
  private struct Entry {
    var value: Value
    var cost: Int
    var lastUse: UInt64
  }
  private struct State {
    var entries: [Key: Entry] = [:]
    var clock: UInt64 = 0
    var totalCostLimit: Int
    var totalCost = 0
    var purgeCount = 0
  }
  private let state: Mutex<State>

  public init(totalCostLimit: Int = 0) {
    state = Mutex(State(totalCostLimit: totalCostLimit))
  }

  /// The total cost the cache holds at most (0: no limit).
  public var totalCostLimit: Int {
    get { state.withLock { $0.totalCostLimit } }
    set { state.withLock { $0.totalCostLimit = newValue } }
  }
  /// The cost of what the cache holds now.
  public var totalCost: Int { state.withLock { $0.totalCost } }
  /// How many times the cache was purged.
  @_spi(Testing) public var purgeCount: Int { state.withLock { $0.purgeCount } }

  /// The value for `key`, if the cache still holds it.
  public func value(forKey key: Key) -> Value? {
    state.withLock { state in
      state.clock += 1
      state.entries[key]?.lastUse = state.clock
      return state.entries[key]?.value
    }
  }

  /// Keeps `value` for `key` at `cost` (`setObject:forKey:cost:`), evicting the least recently
  /// used entries while the total cost is over the limit.
  public func setValue(_ value: Value, forKey key: Key, cost: Int = 0) {
    state.withLock { state in
      state.clock += 1
      if let old = state.entries[key] { state.totalCost -= old.cost }
      state.entries[key] = Entry(value: value, cost: cost, lastUse: state.clock)
      state.totalCost += cost
      while state.totalCostLimit > 0, state.totalCost > state.totalCostLimit, state.entries.count > 1,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        state.totalCost -= state.entries.removeValue(forKey: oldest)?.cost ?? 0
      }
    }
  }

  /// Drops `key`.
  public func removeValue(forKey key: Key) {
    state.withLock { state in state.totalCost -= state.entries.removeValue(forKey: key)?.cost ?? 0 }
  }

  /// How many entries the cache holds.
  public var count: Int { state.withLock { $0.entries.count } }

  /// Drops everything (the memory warning).
  public func purge() {
    state.withLock { state in
      state.entries.removeAll()
      state.totalCost = 0
      state.purgeCount += 1
    }
  }
}
