import FoundationEssentials
import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The disk an ``InMemoryFileSystem`` holds: numbered nodes (files, folders, links), so a hard
/// link is two entries naming one node, and each with what it was at its last flush.
struct InMemoryTree {
  enum Node {
    case file(data: Data, flushed: Data?, permissions: UInt32, modified: Int64)
    case folder(entries: [String: Int], flushed: [String: Int], permissions: UInt32, modified: Int64)
    case link(target: String)
  }

  static let root = 0
  var nodes: [Int: Node] = [root: .folder(entries: [:], flushed: [:], permissions: 0o755, modified: 0)]
  var nextNode = 1
  /// The logical clock that stamps modifications (one tick per change).
  var tick: Int64 = 1_000_000_000

  // MARK: - Paths

  /// Where `path` leads: the folder holding its last component, that name, and the node there
  /// if any. Relative paths start at the root (the file system has no working folder).
  func locate(_ path: String, followingLast: Bool) throws(AtomicFileError) -> (folder: Int, name: String, node: Int?) {
    var pending = path.split(separator: "/").map(String.init)
    var folders = [Self.root]
    var links = 0
    while !pending.isEmpty {
      let name = pending.removeFirst()
      if name == "." || name.isEmpty { continue }
      if name == ".." {
        if folders.count > 1 { folders.removeLast() }
        continue
      }
      let here = folders.last!
      guard case .folder(let entries, _, _, _) = nodes[here] else { throw .system(ENOTDIR, "a component is not a folder", path: path) }
      let found = entries[name]
      if pending.isEmpty && !followingLast { return (here, name, found) }
      if let found, case .link(let target) = nodes[found] {
        links += 1
        guard links <= 40 else { throw .system(ELOOP, "too many levels of symbolic links", path: path) }
        if target.hasPrefix("/") { folders = [Self.root] }
        pending = target.split(separator: "/").map(String.init) + pending
        continue
      }
      if pending.isEmpty { return (here, name, found) }
      guard let found else { throw .system(ENOENT, "a folder on the way does not exist", path: path) }
      guard case .folder = nodes[found] else { throw .system(ENOTDIR, "a component is not a folder", path: path) }
      folders.append(found)
    }
    // The path names a folder itself ("/", "a/.."): its parent's entry is not needed.
    return (folders.last!, ".", folders.last!)
  }

  /// The absolute path `path` leads to, every link, `.` and `..` resolved, as `realpath(3)`
  /// answers: every component must exist, and each one before the last must be a folder.
  func resolve(_ path: String) throws(AtomicFileError) -> String {
    var pending = path.split(separator: "/").map(String.init)
    var walked: [(node: Int, name: String)] = [(Self.root, "")]
    var links = 0
    while !pending.isEmpty {
      let name = pending.removeFirst()
      guard case .folder(let entries, _, _, _) = nodes[walked.last!.node] else {
        throw .system(ENOTDIR, "cannot resolve the path", path: path)
      }
      if name == "." { continue }
      if name == ".." {
        if walked.count > 1 { walked.removeLast() }
        continue
      }
      guard let found = entries[name] else { throw .system(ENOENT, "cannot resolve the path", path: path) }
      if case .link(let target) = nodes[found] {
        links += 1
        guard links <= 40 else { throw .system(ELOOP, "cannot resolve the path", path: path) }
        if target.hasPrefix("/") { walked = [(Self.root, "")] }
        pending = target.split(separator: "/").map(String.init) + pending
        continue
      }
      walked.append((found, name))
    }
    return walked.count == 1 ? "/" : walked.dropFirst().map { "/" + $0.name }.joined()
  }

  func entries(of folder: Int) -> [String: Int] {
    if case .folder(let entries, _, _, _) = nodes[folder] { return entries }
    return [:]
  }

  // MARK: - Changes

  mutating func add(_ node: Node) -> Int {
    let number = nextNode
    nextNode += 1
    nodes[number] = node
    return number
  }

  /// Sets (or, with nil, removes) the entry `name` of `folder`.
  mutating func setEntry(_ name: String, in folder: Int, to node: Int?) {
    guard case .folder(var entries, let flushed, let permissions, _) = nodes[folder] else { return }
    entries[name] = node
    tick += 1
    nodes[folder] = .folder(entries: entries, flushed: flushed, permissions: permissions, modified: tick)
  }

  mutating func setData(_ data: Data, of node: Int) {
    guard case .file(_, let flushed, let permissions, _) = nodes[node] else { return }
    tick += 1
    nodes[node] = .file(data: data, flushed: flushed, permissions: permissions, modified: tick)
  }

  /// Makes what `node` holds now the state that survives a power cut.
  mutating func flush(_ node: Int) {
    switch nodes[node] {
    case .file(let data, _, let permissions, let modified):
      nodes[node] = .file(data: data, flushed: data, permissions: permissions, modified: modified)
    case .folder(let entries, _, let permissions, let modified):
      nodes[node] = .folder(entries: entries, flushed: entries, permissions: permissions, modified: modified)
    default: break
    }
  }

  /// Every node flushed (a disk set up by a test, before anything runs).
  mutating func flushAll() { for node in nodes.keys { flush(node) } }

  /// The disk after a power cut: every node back to its last flush.
  mutating func revertToFlushed() {
    for (number, node) in nodes {
      switch node {
      case .file(_, let flushed, let permissions, let modified):
        nodes[number] = .file(data: flushed ?? Data(), flushed: flushed, permissions: permissions, modified: modified)
      case .folder(_, let flushed, let permissions, let modified):
        nodes[number] = .folder(entries: flushed, flushed: flushed, permissions: permissions, modified: modified)
      case .link: break
      }
    }
  }

  // MARK: - Inspection

  func status(of node: Int) -> FileStatus {
    switch nodes[node] {
    case .file(let data, _, let permissions, let modified)?:
      FileStatus(kind: .file, size: Int64(data.count), permissions: permissions, modificationSeconds: modified, fileNumber: UInt64(node))
    case .folder(let entries, _, let permissions, let modified)?:
      FileStatus(kind: .folder, size: Int64(entries.count), permissions: permissions, modificationSeconds: modified, fileNumber: UInt64(node))
    case .link(let target)?:
      FileStatus(kind: .symbolicLink, size: Int64(target.utf8.count), permissions: 0o777, modificationSeconds: 0, fileNumber: UInt64(node))
    case nil:
      FileStatus(kind: .other, size: 0, permissions: 0, modificationSeconds: 0)
    }
  }

  /// Every path under `folder` (links not followed), sorted, folders ending in "/".
  /// The nodes of the tree at `node` with their paths relative to it (`""` for `node`), each
  /// folder after its entries, as a flush of the whole tree meets them; links are not entered.
  func entriesDepthFirst(from node: Int, relative: String = "") -> [(path: String, node: Int)] {
    var found: [(path: String, node: Int)] = []
    if case .folder = nodes[node] {
      for (name, child) in entries(of: node).sorted(by: { $0.key < $1.key }) {
        found += entriesDepthFirst(from: child, relative: relative.isEmpty ? name : relative + "/" + name)
      }
    }
    found.append((relative, node))
    return found
  }

  func paths(under folder: Int, prefix: String) -> [String] {
    var found: [String] = []
    for (name, node) in entries(of: folder).sorted(by: { $0.key < $1.key }) {
      let path = prefix + "/" + name
      if case .folder = nodes[node] {
        found.append(path + "/")
        found += paths(under: node, prefix: path)
      } else {
        found.append(path)
      }
    }
    return found
  }
}
