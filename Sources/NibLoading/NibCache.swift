public import Interface
public import StasisSystem
internal import Synchronization

/// Nibs already read, by path, so that instantiating a nib again does not read and parse its
/// file again (`UINib`'s cache of nib data). A low-memory warning empties it (``purge()``: the
/// shared cache registers itself in the process's `PurgeableRegistry`, which the app's lifecycle
/// purges on every memory warning), and it never holds more than ``maximumCount`` nibs (the
/// oldest go first).
public final class NibCache: Purgeable, Sendable {
  /// The cache `Nib(named:bundle:)` uses unless given another; purged on every memory warning.
  public static let shared: NibCache = {
    let cache = NibCache()
    PurgeableRegistry.shared.register(cache)
    return cache
  }()

  /// How many nibs are kept at most.
  public let maximumCount: Int
  private struct State {
    var graphs: [String: NibGraph] = [:]
    var order: [String] = []
    var hits = 0
    var misses = 0
  }
  private let state = Mutex(State())

  public init(maximumCount: Int = 64) {
    self.maximumCount = max(1, maximumCount)
  }

  /// The nibs held now.
  public var count: Int { state.withLock { $0.graphs.count } }
  /// Lookups answered from the cache, and lookups that had to read the file.
  @_spi(Testing) public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

  /// The graph kept for `path`, if any (counted as a hit or a miss).
  public func graph(forPath path: String) -> NibGraph? {
    state.withLock { state in
      if let graph = state.graphs[path] {
        state.hits += 1
        return graph
      }
      state.misses += 1
      return nil
    }
  }

  /// Keeps `graph` for `path`, dropping the oldest nibs over ``maximumCount``.
  public func store(_ graph: NibGraph, forPath path: String) {
    state.withLock { state in
      if state.graphs.updateValue(graph, forKey: path) == nil { state.order.append(path) }
      while state.order.count > maximumCount {
        state.graphs[state.order.removeFirst()] = nil
      }
    }
  }

  /// Drops every nib (the memory warning, as `UINib` drops its data).
  public func purge() { removeAll() }

  /// Drops every nib (`didReceiveMemoryWarning`): the next instantiation reads its file again.
  public func removeAll() {
    state.withLock { state in
      state.graphs.removeAll()
      state.order.removeAll()
    }
  }
}
