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

/// A `FileSystem` held in memory, that fails or "crashes" on demand: what the
/// in-process fault tests run every write path on, without root, a full tmpfs or a killed
/// process.
///
/// Every answer of the protocol is one or more **calls**, numbered from 1 in ``callLog``, each
/// the in-memory twin of one system call of `POSIXFileSystem`: an atomic write is
/// a `stat` of the destination, the sweep of its dead writers' temporary files, then *create*,
/// *write*, *flush*, *rename* the temporary file and *flush* the folder, as `AtomicFile` does.
/// A ``FileFault`` makes chosen calls fail with the `errno` of a full disk, a read-only mount, a
/// forbidden folder or a failed device; ``crash(afterCalls:)`` lets the first N calls complete
/// and stops every later one, and ``restarted(after:)`` is the disk the next process finds, after
/// a kill or after a power cut (``CrashModel``).
///
/// ```swift
/// let disk = InMemoryFileSystem()
/// disk.seed(Data("old".utf8), atFile: "/data/a.plist")
/// disk.crash(afterCalls: 5)
/// var world = HostEnvironment.current
/// world.fileSystem = disk
/// _ = try? value.write(toFile: "/data/a.plist", format: .binary, environment: world)
/// let after = disk.restarted(after: .powerCut).file("/data/a.plist")   // "old" or the new bytes
/// ```
///
/// Paths are absolute (a relative one starts at `/`); links are followed as the kernel does.
/// Locks exclude the threads of this process only.
public final class InMemoryFileSystem: FileSystem {
  struct State {
    var tree = InMemoryTree()
    var log: [String] = []
    var faults: [FileFault] = []
    var crashAfter: Int?
    var crashed = false
    var writer: Int32
    var unique: UInt64 = 0
  }

  let state: Mutex<State>
  /// One lock per lock file, so that the threads taking it share it.
  let locks = Mutex<[String: InMemoryLock]>([:])

  /// An empty disk (only `/`); `writer` is the process id its temporary names carry.
  public init(writer: Int32 = 1000) {
    state = Mutex(State(writer: writer))
  }

  init(state: State) {
    self.state = Mutex(state)
  }

  // MARK: - Faults and crashes

  /// Makes the calls `fault` names fail.
  public func inject(_ fault: FileFault) { state.withLock { $0.faults.append(fault) } }

  /// Lets `count` more calls complete (counting from the first call ever made) and stops every
  /// later one: it fails without changing anything, as if the process had died at that moment.
  public func crash(afterCalls count: Int) { state.withLock { $0.crashAfter = count } }

  /// Whether a call was stopped by ``crash(afterCalls:)``.
  public var hasCrashed: Bool { state.withLock { $0.crashed } }

  /// How many calls were made.
  public var callCount: Int { state.withLock { $0.log.count } }

  /// One line per call made, `"<number> <step> <path>"`.
  public var callLog: [String] { state.withLock { $0.log } }

  /// The disk the next process finds after this one ended (crashed or not) as `model` says: a
  /// new file system with no faults and no calls counted, whose temporary names carry another
  /// process id (so this one's leftovers are a dead writer's debris).
  public func restarted(after model: CrashModel) -> InMemoryFileSystem {
    state.withLock { old in
      var next = State(writer: old.writer + 1)
      next.tree = old.tree
      if model == .powerCut { next.tree.revertToFlushed() }
      return InMemoryFileSystem(state: next)
    }
  }

  // MARK: - Setting up and looking (no calls counted)

  /// Puts a file at `path` (making its folders), flushed as if it had been there for long.
  public func seed(_ data: Data, atFile path: String, permissions: UInt32 = 0o644) {
    state.withLock { state in
      var folder = InMemoryTree.root
      let names = path.split(separator: "/").map(String.init)
      for name in names.dropLast() {
        if let next = state.tree.entries(of: folder)[name] {
          folder = next
        } else {
          let made = state.tree.add(.folder(entries: [:], flushed: [:], permissions: 0o755, modified: state.tree.tick))
          state.tree.setEntry(name, in: folder, to: made)
          folder = made
        }
      }
      if let name = names.last {
        let file = state.tree.add(.file(data: data, flushed: data, permissions: permissions, modified: state.tree.tick))
        state.tree.setEntry(name, in: folder, to: file)
      }
      state.tree.flushAll()
    }
  }

  /// Makes the folder `path` and its parents, flushed.
  public func seedFolder(_ path: String) {
    seed(Data(), atFile: path + "/.seed")
    state.withLock { state in
      if let place = try? state.tree.locate(path, followingLast: true), let folder = place.node {
        state.tree.setEntry(".seed", in: folder, to: nil)
        state.tree.flushAll()
      }
    }
  }

  /// Makes `path` a symbolic link to `target` (`symlink(2)`; its folder must exist), as a test
  /// plants one before anything runs. A relative target is taken from the link's folder.
  public func seedSymbolicLink(at path: String, to target: String) {
    state.withLock { state in
      guard let place = try? state.tree.locate(path, followingLast: false), place.name != "." else { return }
      let link = state.tree.add(.link(target: target))
      state.tree.setEntry(place.name, in: place.folder, to: link)
      state.tree.flushAll()
    }
  }

  /// The bytes of the file at `path` (links followed), or nil.
  public func file(_ path: String) -> Data? {
    state.withLock { state in
      guard let place = try? state.tree.locate(path, followingLast: true), let node = place.node,
        case .file(let data, _, _, _) = state.tree.nodes[node]
      else { return nil }
      return data
    }
  }

  /// Every path on the disk, sorted, folders ending in `/`.
  public var allPaths: [String] { state.withLock { $0.tree.paths(under: InMemoryTree.root, prefix: "") } }

  /// The temporary files and folders of writers (`TemporaryName`) left on the disk.
  public var temporaryPaths: [String] {
    allPaths.filter { path in
      let name = path.split(separator: "/").last.map(String.init) ?? ""
      return TemporaryName.writer(of: name) != nil
    }
  }

  // MARK: - Calls

  /// Counts one call, fails it as the faults and the crash say, else runs `body` on the disk.
  ///
  /// `answeredFirst` is checked before the faults but after the crash: an answer the kernel gives
  /// before it touches the disk (`EEXIST` for a folder that is there) wins over a full or
  /// read-only disk or a forbidden folder, not over a failed device.
  func call<R: Sendable>(
    _ step: String, _ path: String, changesDisk: Bool,
    answeredFirst: (InMemoryTree) -> AtomicFileError? = { _ in nil },
    _ body: (inout InMemoryTree) throws(AtomicFileError) -> R
  ) throws(AtomicFileError) -> R {
    try state.withLock { (state) throws(AtomicFileError) -> R in
      guard !state.crashed else { throw Self.crashed(path) }
      state.log.append("\(state.log.count + 1) \(step) \(path)")
      let number = state.log.count
      if let limit = state.crashAfter, number > limit {
        state.crashed = true
        throw Self.crashed(path)
      }
      let fault = state.faults.first(where: { $0.hits(call: number, changesDisk: changesDisk) })
      if fault?.kind != .ioError, let answer = answeredFirst(state.tree) { throw answer }
      if let fault { throw .system(fault.kind.systemError, step, path: path) }
      return try body(&state.tree)
    }
  }

  static func crashed(_ path: String) -> AtomicFileError {
    AtomicFileError(.ioFailure, path: path, detail: "the process crashed (InMemoryFileSystem.crash(afterCalls:))")
  }

  /// A temporary name for `name` no other entry of this process has.
  func temporaryName(for name: String) -> String {
    state.withLock { state in
      state.unique += 1
      return TemporaryName.make(for: name, writer: state.writer, unique: state.unique)
    }
  }

  var writer: Int32 { state.withLock { $0.writer } }
}
