public import FoundationEssentials
public import StasisSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension InMemoryFileSystem {
  public func read(contentsOfFile path: String, limit: Int) throws(AtomicFileError) -> Data {
    try call("cannot open the file for reading", path, changesDisk: false) { (tree) throws(AtomicFileError) in
      guard let node = try tree.locate(path, followingLast: true).node else { throw .system(ENOENT, "cannot open the file for reading", path: path) }
      guard case .file(let data, _, _, _) = tree.nodes[node] else {
        throw AtomicFileError(.notAFile, path: path, detail: "the path names a folder, not a file")
      }
      guard data.count <= limit else {
        throw AtomicFileError(.tooLarge, path: path, detail: "file of \(data.count) bytes is larger than the limit of \(limit)")
      }
      return data
    }
  }

  /// The atomic write of `AtomicFile`, one call per system call: the destination's
  /// `stat`, the sweep of its dead writers' files, then create, write, flush and rename the
  /// temporary file, and flush the folder. A failure before the rename removes the temporary file.
  public func write(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    let (folder, name, kept) = try call("cannot read the destination's status", path, changesDisk: false) {
      (tree) throws(AtomicFileError) -> (Int, String, UInt32?) in
      let place = try tree.locate(path, followingLast: true)
      guard place.name != "." else { throw AtomicFileError(.notAFile, path: path, detail: "the path names a folder, not a file") }
      guard let node = place.node else { return (place.folder, place.name, nil) }
      let found = tree.status(of: node)
      guard found.kind == .file else { throw AtomicFileError(.notAFile, path: path, detail: "cannot replace a folder with a file") }
      return (place.folder, place.name, found.permissions)
    }
    let folderPath = SystemCalls.split(path).folder
    removeDebris(inFolder: folderPath, of: name)
    let temporary = temporaryName(for: name)
    let file = try call("cannot create a temporary file in \(folderPath)", path, changesDisk: true) { (tree) throws(AtomicFileError) in
      guard tree.entries(of: folder)[temporary] == nil else { throw .system(EEXIST, "cannot create a temporary file in \(folderPath)", path: path) }
      let file = tree.add(.file(data: Data(), flushed: nil, permissions: kept ?? permissions ?? 0o644, modified: tree.tick))
      tree.setEntry(temporary, in: folder, to: file)
      return file
    }
    do throws(AtomicFileError) {
      try call("cannot write the temporary file", path, changesDisk: true) { $0.setData(data, of: file) }
      try call("cannot flush the temporary file to disk", path, changesDisk: true) { $0.flush(file) }
      try call("cannot rename the temporary file over the destination", path, changesDisk: true) { tree in
        tree.setEntry(name, in: folder, to: file)
        tree.setEntry(temporary, in: folder, to: nil)
      }
    } catch {
      _ = try? call("unlink the temporary file", path, changesDisk: true) { tree in
        if tree.entries(of: folder)[temporary] == file { tree.setEntry(temporary, in: folder, to: nil) }
      }
      throw error
    }
    try call("cannot flush the folder holding it to disk", path, changesDisk: true) { $0.flush(folder) }
  }

  /// The folder replacement of `AtomicFolder`: sweep, make the temporary folder,
  /// fill it and flush its tree, exchange it with the destination (or rename it there), flush the parent,
  /// remove the old tree.
  public func replaceFolder(_ path: String, fill: (String) throws -> Void) throws {
    let destination = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    let (parent, name) = SystemCalls.split(destination)
    guard !name.isEmpty, name != ".", name != ".." else {
      throw AtomicFileError(.notAFile, path: path, detail: "the path names no folder entry to replace")
    }
    removeDebris(inFolder: parent)
    let temporary = parent + "/" + temporaryName(for: name)
    do {
      try makeFolder(temporary, permissions: 0o755)
    } catch {
      throw AtomicFileError(error.code, path: destination, systemError: error.systemError, detail: "cannot create a temporary folder in \(parent)")
    }
    do {
      try fill(temporary)
      try flushTree(temporary, reportedAs: destination)
    } catch {
      try? removeTree(temporary)
      throw error
    }
    let existed = (try? status(of: destination, followingLinks: false)) != nil
    do {
      if existed {
        try call("cannot exchange the new folder with the old one", destination, changesDisk: true) { (tree) throws(AtomicFileError) in
          try Self.swap(temporary, destination, in: &tree)
        }
      } else {
        try call("cannot rename the new folder into place", destination, changesDisk: true) { (tree) throws(AtomicFileError) in
          let place = try tree.locate(destination, followingLast: false)
          let built = try tree.locate(temporary, followingLast: false)
          guard let new = built.node else { throw .system(ENOENT, "cannot rename the new folder into place", path: destination) }
          tree.setEntry(built.name, in: built.folder, to: nil)
          tree.setEntry(place.name, in: place.folder, to: new)
        }
      }
      try call("cannot flush the folder holding it to disk", destination, changesDisk: true) { (tree) throws(AtomicFileError) in
        if let node = try tree.locate(parent, followingLast: true).node { tree.flush(node) }
      }
    } catch {
      try? removeTree(temporary)
      throw error
    }
    try? removeTree(temporary)
  }

  static func swap(_ first: String, _ second: String, in tree: inout InMemoryTree) throws(AtomicFileError) {
    let one = try tree.locate(first, followingLast: false)
    let two = try tree.locate(second, followingLast: false)
    guard let a = one.node, let b = two.node else { throw .system(ENOENT, "cannot exchange it with \(second)", path: first) }
    tree.setEntry(one.name, in: one.folder, to: b)
    tree.setEntry(two.name, in: two.folder, to: a)
  }

  public func entries(inFolder path: String) throws(AtomicFileError) -> [FolderEntry] {
    try call("cannot list the folder", path, changesDisk: false) { (tree) throws(AtomicFileError) in
      guard let node = try tree.locate(path, followingLast: true).node else { throw .system(ENOENT, "cannot list the folder", path: path) }
      guard case .folder(let entries, _, _, _) = tree.nodes[node] else { throw .system(ENOTDIR, "cannot list the folder", path: path) }
      let prefix = path.hasSuffix("/") ? path : path + "/"
      return entries.keys.sorted().map { name in
        let target = (try? tree.locate(prefix + name, followingLast: true))?.node
        return FolderEntry(name: name, kind: target.map { tree.status(of: $0).kind } ?? .symbolicLink)
      }
    }
  }

  public func status(of path: String, followingLinks: Bool) throws(AtomicFileError) -> FileStatus {
    try call("cannot read the status", path, changesDisk: false) { (tree) throws(AtomicFileError) in
      guard let node = try tree.locate(path, followingLast: followingLinks).node else { throw .system(ENOENT, "cannot read the status", path: path) }
      return tree.status(of: node)
    }
  }

  public func resolvedPath(_ path: String) throws(AtomicFileError) -> String {
    try call("cannot resolve the path", path, changesDisk: false) { (tree) throws(AtomicFileError) in try tree.resolve(path) }
  }

  public func makeFolder(_ path: String, permissions: UInt32) throws(AtomicFileError) {
    let exists = { (tree: InMemoryTree) -> AtomicFileError? in
      (try? tree.locate(path, followingLast: false))?.node != nil ? .system(EEXIST, "cannot make the folder", path: path) : nil
    }
    try call("cannot make the folder", path, changesDisk: true, answeredFirst: exists) { (tree) throws(AtomicFileError) in
      let place = try tree.locate(path, followingLast: false)
      guard place.node == nil else { throw .system(EEXIST, "cannot make the folder", path: path) }
      let folder = tree.add(.folder(entries: [:], flushed: [:], permissions: permissions, modified: tree.tick))
      tree.setEntry(place.name, in: place.folder, to: folder)
    }
  }

  public func removeItem(_ path: String) throws(AtomicFileError) {
    try call("cannot remove it", path, changesDisk: true) { (tree) throws(AtomicFileError) in
      let place = try tree.locate(path, followingLast: false)
      guard let node = place.node, place.name != "." else { throw .system(ENOENT, "cannot remove it", path: path) }
      if case .folder(let entries, _, _, _) = tree.nodes[node], !entries.isEmpty { throw .system(ENOTEMPTY, "cannot remove it", path: path) }
      tree.setEntry(place.name, in: place.folder, to: nil)
    }
  }

  public func moveItem(_ source: String, to destination: String) throws(AtomicFileError) {
    try call("cannot rename it to \(destination)", source, changesDisk: true) { (tree) throws(AtomicFileError) in
      let from = try tree.locate(source, followingLast: false)
      let to = try tree.locate(destination, followingLast: false)
      guard let moving = from.node else { throw .system(ENOENT, "cannot rename it to \(destination)", path: source) }
      // rename(2) of two names of one file does nothing.
      if to.node == moving { return }
      if let there = to.node {
        let movingKind = tree.status(of: moving).kind
        let thereKind = tree.status(of: there).kind
        if thereKind == .folder && movingKind != .folder { throw .system(EISDIR, "cannot rename it to \(destination)", path: source) }
        if thereKind != .folder && movingKind == .folder { throw .system(ENOTDIR, "cannot rename it to \(destination)", path: source) }
        if case .folder(let entries, _, _, _) = tree.nodes[there], !entries.isEmpty {
          throw .system(ENOTEMPTY, "cannot rename it to \(destination)", path: source)
        }
      }
      tree.setEntry(from.name, in: from.folder, to: nil)
      tree.setEntry(to.name, in: to.folder, to: moving)
    }
  }

  public func exchangeItems(_ first: String, _ second: String) throws(AtomicFileError) {
    try call("cannot exchange it with \(second)", first, changesDisk: true) { (tree) throws(AtomicFileError) in
      try Self.swap(first, second, in: &tree)
    }
  }

  public func makeLink(to existing: String, at newPath: String) throws(AtomicFileError) {
    try call("cannot make a link to \(existing)", newPath, changesDisk: true) { (tree) throws(AtomicFileError) in
      guard let node = try tree.locate(existing, followingLast: false).node else { throw .system(ENOENT, "cannot make a link to \(existing)", path: newPath) }
      guard tree.status(of: node).kind != .folder else { throw .system(EPERM, "cannot make a link to \(existing)", path: newPath) }
      let place = try tree.locate(newPath, followingLast: false)
      guard place.node == nil else { throw .system(EEXIST, "cannot make a link to \(existing)", path: newPath) }
      tree.setEntry(place.name, in: place.folder, to: node)
    }
  }

  public func synchronize(_ path: String) throws(AtomicFileError) {
    try call("cannot flush it to disk", path, changesDisk: true) { (tree) throws(AtomicFileError) in
      guard let node = try tree.locate(path, followingLast: true).node else { throw .system(ENOENT, "cannot open it to flush it to disk", path: path) }
      tree.flush(node)
    }
  }

  public func lock(_ path: String) throws(AtomicFileError) -> any FileSystemLock {
    try call("cannot open or create the lock file", path, changesDisk: true) { (tree) throws(AtomicFileError) in
      let place = try tree.locate(path, followingLast: true)
      if place.node == nil {
        let file = tree.add(.file(data: Data(), flushed: nil, permissions: 0o644, modified: tree.tick))
        tree.setEntry(place.name, in: place.folder, to: file)
      }
    }
    return locks.withLock { locks in
      if let existing = locks[path] { return existing }
      let made = InMemoryLock(fileSystem: self, path: path)
      locks[path] = made
      return made
    }
  }

  /// Sweeps the temporary names of other writers (earlier processes: ``restarted(after:)`` gives
  /// each a new id) in `folder`: one listing call, then the calls of removing each tree.
  @discardableResult
  public func removeDebris(inFolder folder: String, of name: String?) -> Int {
    guard let names = try? entryNames(inFolder: folder) else { return 0 }
    let prefix = name.map(TemporaryName.prefix(for:)) ?? "."
    let own = writer
    var removed = 0
    for entry in names where entry.hasPrefix(prefix) {
      guard let writer = TemporaryName.writer(of: entry), writer != own else { continue }
      if (try? removeTree(folder + "/" + entry)) != nil { removed += 1 }
    }
    return removed
  }
}

/// A lock of an ``InMemoryFileSystem``: taking it is one call (it fails as a `flock` would, with
/// `.lockFailure`); it excludes the threads of this process.
final class InMemoryLock: FileSystemLock {
  let fileSystem: InMemoryFileSystem
  let path: String
  let holder = Mutex(())

  init(fileSystem: InMemoryFileSystem, path: String) {
    self.fileSystem = fileSystem
    self.path = path
  }

  func withExclusiveLock<R>(_ body: () throws -> R) throws -> R {
    try take("cannot take the exclusive lock")
    return try holder.withLock { _ in try body() }
  }

  func withSharedLock<R>(_ body: () throws -> R) throws -> R {
    try take("cannot take the shared lock")
    return try holder.withLock { _ in try body() }
  }

  private func take(_ step: String) throws(AtomicFileError) {
    do {
      try fileSystem.call(step, path, changesDisk: false) { _ in }
    } catch {
      throw AtomicFileError(.lockFailure, path: path, systemError: error.systemError, detail: step)
    }
  }
}
