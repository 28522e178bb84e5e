internal import FoundationEssentials
public import Sandbox
internal import KeyedArchive
internal import PropertyLists
public import StasisSystem
#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// The store of items (the book's `BNRItemStore`): the list the screens show, archived with the
/// keyed archiver to `Documents/items.archive` — atomically, so a kill leaves the old list or the
/// new one, never half of one. Every file is read and written through the environment's file
/// system.
///
/// An archive that was read but cannot be decoded is moved aside as
/// `items.archive.unreadable-<time>` (never deleted) and the store starts empty; ``loadProblem``
/// says why. An archive that could not be *read* (a failed device, a forbidden folder — tried
/// again a few times first) is not known to be damaged: it stays where it is, the store starts
/// empty, and ``save()`` refuses to write over it, so the items it holds are not lost.
public final class ItemStore {
  /// The items, in the user's order.
  public private(set) var allItems: [Item] = []
  /// Where the items are archived.
  public let archivePath: String
  /// Why the archive on disk could not be read at launch, if it could not.
  public private(set) var loadProblem: HomepwnerError?
  /// The world the archive is read from and written to (its file system and clock).
  private let environment: HostEnvironment
  /// Whether an archive is on disk that this store could not read (so must not replace).
  private var archiveUnread = false

  /// How many times a read that fails is tried in all, and the largest archive read.
  static let readAttempts = 3
  static let maximumArchiveSize = 256 << 20

  /// The store of the app in `container`, loaded from its archive.
  public convenience init(container: AppContainer, environment: HostEnvironment = .current) {
    self.init(archivePath: container.documentsPath + "/items.archive", environment: environment)
  }

  public init(archivePath: String, environment: HostEnvironment = .current) {
    self.archivePath = archivePath
    self.environment = environment
    let data: Data
    switch readArchive() {
    case .success(nil): return
    case .success(let read?): data = read
    case .failure(let error):
      archiveUnread = true
      loadProblem = HomepwnerError(
        .unreadable, detail: "the items could not be read; the file was kept in place and is not saved over", path: archivePath,
        underlying: error)
      return
    }
    do {
      allItems = try KeyedUnarchiver.unarchivedObject(ofClass: [Item].self, from: data, registry: HomepwnerArchive.registry) ?? []
    } catch {
      let aside = archivePath + ".unreadable-\(Int(environment.clock.now().timeIntervalSince1970))"
      do {
        try environment.fileSystem.moveItem(archivePath, to: aside)
        loadProblem = HomepwnerError(.unreadable, detail: "the items could not be read; the file was kept as \(aside)", path: archivePath, underlying: error)
      } catch let moveError {
        archiveUnread = true
        loadProblem = HomepwnerError(
          .unreadable, detail: "the items could not be read, nor moved aside (\(moveError)); the file is not saved over", path: archivePath,
          underlying: error)
      }
    }
  }

  /// The archive's bytes, `nil` when there is none; a failed read is tried again (after 10,
  /// 20 ms): a transient I/O error must not make an intact archive look damaged.
  private func readArchive() -> Result<Data?, AtomicFileError> {
    var lastError: AtomicFileError?
    for attempt in 0..<Self.readAttempts {
      if attempt > 0 { usleep(useconds_t(10_000 * attempt)) }
      do {
        return .success(try environment.fileSystem.read(contentsOfFile: archivePath, limit: Self.maximumArchiveSize))
      } catch where error.code == .notFound {
        return .success(nil)
      } catch {
        lastError = error
        if error.code == .tooLarge || error.code == .notAFile { break }
      }
    }
    return .failure(lastError ?? AtomicFileError(.ioFailure, path: archivePath, detail: "cannot read the file"))
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
  ///
  /// - Throws: `.writeFailed` naming the archive when it cannot be written (the previous file is
  ///   intact) or when the archive on disk could not be read at launch (it is not replaced).
  public func save() throws(HomepwnerError) {
    guard !archiveUnread else {
      throw HomepwnerError(
        .writeFailed, detail: "not saved: the items on disk could not be read at launch and are kept as they were", path: archivePath,
        underlying: loadProblem)
    }
    do {
      let archiver = KeyedArchiver(registry: HomepwnerArchive.registry)
      try archiver.encode(objects: allItems, forKey: "root")
      try archiver.finishedArchive().write(toFile: archivePath, format: .binary, environment: environment)
    } catch {
      throw HomepwnerError(.writeFailed, detail: "the items could not be saved; the previous file is intact", path: archivePath, underlying: error)
    }
  }
}
