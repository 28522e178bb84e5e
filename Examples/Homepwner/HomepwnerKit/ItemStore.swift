internal import FoundationEssentials
public import Sandbox
internal import KeyedArchive
internal import PropertyLists
internal import StasisSystem
#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The store of items (the book's `BNRItemStore`): the list the screens show, archived with the
/// keyed archiver to `Documents/items.archive` — atomically, so a kill leaves the old list or the
/// new one, never half of one.
///
/// An archive that cannot be read is moved aside as `items.archive.unreadable-<time>` (never
/// deleted) and the store starts empty; ``loadProblem`` says why.
public final class ItemStore {
  /// The items, in the user's order.
  public private(set) var allItems: [Item] = []
  /// Where the items are archived.
  public let archivePath: String
  /// Why the archive on disk could not be read at launch, if it could not.
  public private(set) var loadProblem: HomepwnerError?

  /// The store of the app in `container`, loaded from its archive.
  public convenience init(container: AppContainer) {
    self.init(archivePath: container.documentsPath + "/items.archive")
  }

  public init(archivePath: String) {
    self.archivePath = archivePath
    guard access(archivePath, F_OK) == 0 else { return }
    do {
      let items = try KeyedUnarchiver.unarchivedObject(ofClass: [Item].self, fromFile: archivePath, registry: HomepwnerArchive.registry)
      allItems = items ?? []
    } catch {
      let aside = archivePath + ".unreadable-\(Int(Date().timeIntervalSince1970))"
      rename(archivePath, aside)
      loadProblem = HomepwnerError(.unreadable, detail: "the items could not be read; the file was kept as \(aside)", path: archivePath, underlying: error)
    }
  }

  /// Adds an item at the end (`createItem`).
  @discardableResult
  public func createItem(_ item: Item) -> Item {
    allItems.append(item)
    return item
  }

  /// Removes `item` (`removeItem:`).
  public func remove(_ item: Item) { allItems.removeAll { $0 === item } }

  /// Moves the item at `from` to `to` (`moveItemAtIndex:toIndex:`).
  public func moveItem(from: Int, to: Int) {
    guard allItems.indices.contains(from), allItems.indices.contains(to), from != to else { return }
    let item = allItems.remove(at: from)
    allItems.insert(item, at: to)
  }

  /// The item whose key is `key`.
  public func item(withKey key: String) -> Item? { allItems.first { $0.itemKey == key } }

  /// Archives the items to ``archivePath`` (`saveChanges`), atomically.
  public func save() throws(HomepwnerError) {
    do {
      let archiver = KeyedArchiver(registry: HomepwnerArchive.registry)
      try archiver.encode(objects: allItems, forKey: "root")
      try archiver.finishedArchive().write(toFile: archivePath, format: .binary)
    } catch {
      throw HomepwnerError(.writeFailed, detail: "the items could not be saved; the previous file is intact", path: archivePath, underlying: error)
    }
  }
}
