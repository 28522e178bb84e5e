internal import Synchronization

/// An object that gives memory back when the app is warned (`didReceiveMemoryWarning`): an
/// `NSCache`-like cache, the nib cache, an image cache of the app's own.
public protocol Purgeable: AnyObject {
  /// Drops everything that can be rebuilt.
  func purge()
}

/// The process's purgeables that register themselves (the nib cache does when it is made), held
/// weakly: the app's lifecycle purges them on every memory warning, so a module below the
/// lifecycle gives memory back without depending on it.
///
/// Members are purged on the thread that delivers the warning (the lifecycle's: the main queue).
public final class PurgeableRegistry: Sendable {
  /// A weak reference to a member; the members are only ever called on the thread that
  /// delivers the warning, so the entries themselves may cross threads.
  private struct Entry: @unchecked Sendable {
    weak var object: (any Purgeable)?
  }
  private let entries = Mutex<[Entry]>([])

  /// The process's registry.
  public static let shared = PurgeableRegistry()

  public init() {}

  /// Adds `purgeable` (once; held weakly).
  public func register(_ purgeable: any Purgeable) {
    let entry = Entry(object: purgeable)
    entries.withLock { entries in
      entries.removeAll { $0.object == nil || $0.object === entry.object }
      entries.append(entry)
    }
  }

  /// The purgeables still alive, in the order they registered.
  public var members: [any Purgeable] { entries.withLock { $0.compactMap(\.object) } }

  /// Purges every member (outside the registry's lock: a purge may register another).
  public func purgeAll() {
    for member in members { member.purge() }
  }
}
