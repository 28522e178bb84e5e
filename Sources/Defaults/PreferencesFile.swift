package import StasisSystem
package import Foundation
package import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One preferences file (`<id>.plist`, `.GlobalPreferences.plist`, or any path the `defaults` tool
/// is given): a dictionary stored as a binary property list, as CoreFoundation writes it.
///
/// Writers take an exclusive ``FileLock`` on a hidden lock file beside it (`.<name>.lock`), re-read
/// the file, change it and replace it with ``AtomicFile/write(_:toFile:permissions:)``. Readers need
/// no lock: the rename means they see a complete old or a complete new version.
package struct PreferencesFile: Sendable {
  /// The file's path.
  package let path: String
  /// Files larger than this are refused (`cfprefsd` has a similar cap). 64 MiB.
  package static let byteLimit = 64 << 20

  /// The lock file when it does not sit beside the preferences file.
  let separateLockPath: String?
  /// Whether a missing folder on the way to the file is created (a container's `Preferences`
  /// folder) or an error (a path domain the user named).
  let createsFolder: Bool
  /// The file system the file, its folder and its lock are on (the environment's).
  package let fileSystem: any FileSystem

  package init(
    path: String, lockPath: String? = nil, createsFolder: Bool = true,
    fileSystem: any FileSystem = HostEnvironment.current.fileSystem
  ) {
    self.path = path
    self.separateLockPath = lockPath
    self.createsFolder = createsFolder
    self.fileSystem = fileSystem
  }

  /// The advisory lock file: `.<name>.lock` beside the preferences file, or the one given.
  package var lockPath: String {
    if let separateLockPath { return separateLockPath }
    let (folder, name) = SystemCalls.split(path)
    return (folder == "/" ? "" : folder) + "/." + name + ".lock"
  }

  /// The folder holding the file.
  package var folder: String { SystemCalls.split(path).folder }

  /// What identifies one version of the file: device, inode, size and modification time. An
  /// atomic replacement always gives a new inode.
  package struct Stamp: Hashable, Sendable {
    var device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64
  }

  /// The current version's stamp, or `nil` when there is no file.
  package func stamp() -> Stamp? {
    guard let info = fileSystem.status(of: path) else { return nil }
    return Stamp(
      device: info.device, inode: info.fileNumber, size: info.size, seconds: info.modificationSeconds,
      nanoseconds: info.modificationNanoseconds)
  }

  /// Whether the file exists.
  package var exists: Bool { stamp() != nil }

  /// ``read(domain:)`` as a Swift dictionary (the file's key order dropped); `nil` when there
  /// is no file.
  package func readValues(domain: String? = nil) throws(DefaultsError) -> [String: PropertyListValue]? {
    try read(domain: domain).map(Self.values(of:))
  }

  /// The entries of `contents` as a Swift dictionary.
  package static func values(of contents: PropertyListDictionary) -> [String: PropertyListValue] {
    var values: [String: PropertyListValue] = [:]
    values.reserveCapacity(contents.count)
    for (key, value) in contents { values[key] = value }
    return values
  }

  /// Reads the dictionary; `nil` when the file does not exist.
  ///
  /// - Throws: `DefaultsError.Code.unreadableFile` when the file is not a property list holding a
  ///   dictionary; `DefaultsError.Code.fileSystem` when it cannot be read.
  package func read(domain: String? = nil) throws(DefaultsError) -> PropertyListDictionary? {
    let data: Data
    do {
      data = try fileSystem.read(contentsOfFile: path, limit: Self.byteLimit)
    } catch {
      if error.code == .notFound { return nil }
      throw DefaultsError(error, domain: domain, doing: "cannot read", path: path)
    }
    if data.isEmpty { return PropertyListDictionary() }
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: data)
    } catch {
      throw DefaultsError(error, domain: domain, path: path)
    }
    guard case .dictionary(let dictionary) = value else {
      throw DefaultsError(
        .unreadableFile, domain: domain, detail: "\(path) holds \(value.typeName == "array" ? "an" : "a") \(value.typeName), not a dictionary")
    }
    return dictionary
  }

  /// The bytes a dictionary is stored as: a binary property list with the keys sorted (Swift's
  /// `String` order, which is fast for ASCII keys), so that equal contents give equal files.
  package static func encode(_ values: [String: PropertyListValue]) throws(PropertyListError) -> Data {
    let keys = values.keys.sorted()
    let dictionary = PropertyListDictionary(keys: keys, values: keys.map { values[$0]! })
    return try PropertyListValue.dictionary(dictionary).encoded(as: .binary)
  }

  /// Replaces the file with `values`, atomically. Call it under ``withLock(domain:_:)``.
  package func write(_ values: [String: PropertyListValue], domain: String? = nil) throws(DefaultsError) {
    let data: Data
    do {
      data = try Self.encode(values)
    } catch {
      throw DefaultsError(.notAPropertyList, domain: domain, detail: "the domain cannot be written as a binary property list: \(error.description)")
    }
    // The folder exists: withLock(domain:_:), which every caller holds, made it for the lock file.
    do {
      try fileSystem.write(data, toFile: path, permissions: 0o600)
    } catch {
      throw DefaultsError(error, domain: domain, doing: "cannot write", path: path)
    }
  }

  /// Removes the file (`defaults delete <domain>`); `false` when there was none.
  @discardableResult
  package func remove(domain: String? = nil) throws(DefaultsError) -> Bool {
    do {
      try fileSystem.removeItem(path)
      return true
    } catch where error.code == .notFound {
      return false
    } catch {
      throw DefaultsError(.fileSystem, domain: domain, detail: "cannot remove \(path): \(Self.reason(error))")
    }
  }

  /// Runs `body` holding the exclusive lock that every writer of this file takes (threads of
  /// this process and other processes alike).
  package func withLock<R>(domain: String? = nil, _ body: () throws(DefaultsError) -> R) throws(DefaultsError) -> R {
    if createsFolder {
      try createFolder(folder, domain: domain)
    } else {
      guard fileSystem.isFolder(folder) else {
        throw DefaultsError(.fileSystem, domain: domain, detail: "the folder \(folder) does not exist (no folder is created for a path domain)")
      }
    }
    if separateLockPath != nil { try createFolder(SystemCalls.split(lockPath).folder, domain: domain) }
    let lock: any FileSystemLock
    do {
      lock = try LockTable.lock(for: lockPath, in: fileSystem)
    } catch {
      throw DefaultsError(error, domain: domain, doing: "cannot open the lock file", path: lockPath)
    }
    let outcome: Result<R, DefaultsError>
    do {
      outcome = try lock.withExclusiveLock { () -> Result<R, DefaultsError> in
        do throws(DefaultsError) { return .success(try body()) } catch { return .failure(error) }
      }
    } catch let error as AtomicFileError {
      throw DefaultsError(error, domain: domain, doing: "cannot lock", path: lockPath)
    } catch {
      throw DefaultsError(.fileSystem, domain: domain, detail: "cannot lock \(lockPath): \(error)")
    }
    return try outcome.get()
  }

  /// Reads, changes and writes the file under the lock. `body` gets the current contents (`nil`
  /// when there is no file) and answers whether to write; setting the contents to `nil` removes
  /// the file.
  package func update(
    domain: String? = nil, replacingDamaged: Bool = false,
    _ body: (inout PropertyListDictionary?) throws(DefaultsError) -> Bool
  ) throws(DefaultsError) {
    try withLock(domain: domain) { () throws(DefaultsError) in
      var contents: PropertyListDictionary?
      do throws(DefaultsError) {
        contents = try read(domain: domain)
      } catch where error.code == .unreadableFile && replacingDamaged {
        // The whole domain is being replaced: keep the damaged file beside it, then start empty.
        try moveDamagedAside(domain: domain)
        contents = nil
      }
      guard try body(&contents) else { return }
      if let contents {
        try write(Self.values(of: contents), domain: domain)
      } else {
        try remove(domain: domain)
      }
    }
  }

  /// Where a damaged preferences file is kept when its domain is replaced:
  /// `<name>.plist.damaged`, or `<name>.plist.damaged.2`, `.3`, … when that name is taken.
  package func damagedCopyPath() -> String {
    var candidate = path + ".damaged"
    var number = 1
    while (try? fileSystem.status(of: candidate, followingLinks: false)) != nil {
      number += 1
      candidate = path + ".damaged.\(number)"
    }
    return candidate
  }

  /// Renames the (damaged) file to ``damagedCopyPath()`` so that replacing the domain loses none
  /// of its bytes; returns the new path. Call with the lock held.
  @discardableResult
  package func moveDamagedAside(domain: String? = nil) throws(DefaultsError) -> String {
    let destination = damagedCopyPath()
    do {
      try fileSystem.moveItem(path, to: destination)
    } catch {
      throw DefaultsError(
        .fileSystem, domain: domain, detail: "cannot move the damaged file \(path) aside to \(destination): \(Self.reason(error))")
    }
    return destination
  }

  /// Whether the file exists but is not a readable dictionary (``read(domain:)`` fails with
  /// `.unreadableFile`, not with a failed read).
  package func isDamaged() -> Bool {
    do {
      _ = try read()
      return false
    } catch {
      return error.code == .unreadableFile
    }
  }

  private func createFolder(_ folder: String, domain: String?) throws(DefaultsError) {
    do {
      try fileSystem.makeFolders(folder, permissions: 0o700)
    } catch {
      throw DefaultsError(.fileSystem, domain: domain, detail: "cannot create the folder \(error.path): \(Self.reason(error))")
    }
  }

  /// The system's words for a failed call (`strerror`), else the step that failed.
  static func reason(_ error: AtomicFileError) -> String {
    error.systemError.map { String(cString: strerror($0)) } ?? error.detail
  }
}

/// One ``FileLock`` per lock file in this process, so that threads share its in-process mutex.
/// Another file system's locks come from it each time (it keeps one per path itself).
enum LockTable {
  private static let guardLock = NSLock()
  nonisolated(unsafe) private static var locks: [String: any FileSystemLock] = [:]

  static func lock(for path: String, in fileSystem: any FileSystem) throws(AtomicFileError) -> any FileSystemLock {
    guard fileSystem is POSIXFileSystem else { return try fileSystem.lock(path) }
    guardLock.lock()
    defer { guardLock.unlock() }
    if let existing = locks[path] { return existing }
    let created = try fileSystem.lock(path)
    locks[path] = created
    return created
  }
}
