public import FoundationEssentials
public import Sandbox
public import StasisSystem
internal import PropertyLists
#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// An app's saved-state folder, `Library/Saved Application State/<bundle id>.savedState/` in its
/// container, and every file restoration keeps there:
///
/// - `data.archive`: the last completed save (a ``Snapshot``);
/// - `previous.archive`: the save before it, the fallback when `data.archive` is torn, unreadable
///   or crashed the app while it was being restored;
/// - `Set Aside/`: snapshots that could not be used, moved here (never deleted) with the time
///   and the reason in their name;
/// - `restoring.marker`: present only while a restoration runs; a crash appends `crash NN`;
/// - `LastRestore.plist`: what the last restoration did with every node;
/// - `Discarded.plist`: why the state was discarded (the user quit), until the next launch;
/// - `Sessions/`: one archive per scene session.
///
/// Every file is read and written through ``fileSystem`` except the marker, which the crash
/// handler appends to with `write(2)` from a signal handler: it is always on the real disk.
public struct SavedStateFolder: Sendable {
  public let path: String
  /// The outside world: its file system holds the folder, its clock dates what restoration
  /// writes (the names of snapshots set aside, `Discarded.plist`, `LastRestore.plist`, the
  /// snapshot's timestamp) and times the pauses between attempts to read a snapshot.
  public var environment: HostEnvironment
  /// The file system the folder is on (the environment's).
  public var fileSystem: any FileSystem { environment.fileSystem }

  /// The folder of the app in `container`, on the container's file system.
  public init(container: AppContainer, environment: HostEnvironment = .current) {
    var environment = environment
    environment.fileSystem = container.fileSystem
    self.init(
      path: container.libraryPath + "/Saved Application State/" + container.bundleIdentifier + ".savedState",
      environment: environment)
  }

  /// The folder at `path` in `environment` (by default the current one).
  public init(path: String, environment: HostEnvironment = .current) {
    self.path = path
    self.environment = environment
  }

  public var currentSnapshotPath: String { path + "/data.archive" }
  public var previousSnapshotPath: String { path + "/previous.archive" }
  public var setAsidePath: String { path + "/Set Aside" }
  public var markerPath: String { path + "/restoring.marker" }
  public var lastRestorePath: String { path + "/LastRestore.plist" }
  public var discardedPath: String { path + "/Discarded.plist" }
  public var sessionsPath: String { path + "/Sessions" }

  /// The snapshots set aside so far, oldest first.
  public var setAsideSnapshots: [String] {
    ((try? fileSystem.entryNames(inFolder: setAsidePath)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { setAsidePath + "/" + $0 }
  }

  func exists(_ path: String) -> Bool { fileSystem.exists(path) }

  func makeFolder(_ folder: String) throws(RestorationError) {
    do {
      try fileSystem.makeFolders(folder, permissions: 0o755)
    } catch {
      throw RestorationError(.fileSystem, detail: "cannot make the folder: \(Self.reason(error))", path: error.path)
    }
  }

  // MARK: - Saving

  /// Writes `data` as the new current snapshot: the current one becomes `previous.archive`
  /// (through a hard link, so `data.archive` exists at every moment), then `data` replaces
  /// `data.archive` atomically, flushed to disk with its folder. A process killed at any point
  /// leaves the complete old snapshot or the complete new one as `data.archive`.
  public func writeSnapshot(_ data: Data) throws(RestorationError) {
    try makeFolder(path)
    // A failed look at data.archive must not pass for "there is none": the save would then
    // replace it without keeping it as previous.archive.
    let hasCurrent: Bool
    do {
      _ = try fileSystem.status(of: currentSnapshotPath, followingLinks: true)
      hasCurrent = true
    } catch where error.code == .notFound {
      hasCurrent = false
    } catch {
      throw RestorationError(.fileSystem, detail: "cannot look at data.archive: \(Self.reason(error))", path: currentSnapshotPath)
    }
    if hasCurrent {
      let link = path + "/" + Self.previousLinkName
      try? fileSystem.removeItem(link)
      do {
        try fileSystem.makeLink(to: currentSnapshotPath, at: link)
      } catch {
        throw RestorationError(.fileSystem, detail: "cannot make a link to data.archive in the folder: \(Self.reason(error))", path: path)
      }
      do {
        try fileSystem.moveItem(link, to: previousSnapshotPath)
      } catch {
        try? fileSystem.removeItem(link)
        throw RestorationError(.fileSystem, detail: "cannot rename the link to data.archive over it: \(Self.reason(error))", path: previousSnapshotPath)
      }
      // When previous.archive already is data.archive (a save whose write failed after this
      // step), rename does nothing and leaves the link: it goes.
      try? fileSystem.removeItem(link)
    }
    do {
      try fileSystem.write(data, toFile: currentSnapshotPath)
    } catch {
      throw RestorationError(.fileSystem, detail: "cannot write the snapshot", path: currentSnapshotPath, underlying: error)
    }
  }

  /// The hard link to `data.archive` a save makes before renaming it over `previous.archive`.
  static let previousLinkName = ".previous.archive.link"

  /// The system's words for `errno` value `code` (`strerror`).
  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The system's words for a failed call, else the step that failed.
  static func reason(_ error: AtomicFileError) -> String { error.systemError.map(reason) ?? error.detail }

  /// Removes what killed writers left: their temporary files (`.data.archive.stasis-tmp.*`,
  /// `.LastRestore.plist.stasis-tmp.*`, in `Sessions/` too) and a save's stray link. Called at
  /// launch, before anything is read or written, so no save of this process is running.
  public func removeDebris() {
    fileSystem.removeDebris(inFolder: path)
    fileSystem.removeDebris(inFolder: sessionsPath)
    try? fileSystem.removeItem(path + "/" + Self.previousLinkName)
  }

  /// Moves `file` into `Set Aside/` as `<UTC time>-<reason>-<name>`; answers its new path.
  @discardableResult
  public func setAside(_ file: String, reason: String) -> String? {
    guard exists(file), (try? makeFolder(setAsidePath)) != nil else { return nil }
    let name = file.split(separator: "/").last.map(String.init) ?? "snapshot"
    let slug = String(reason.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    var target = setAsidePath + "/" + Self.timestamp(environment.clock.now()) + "-" + slug + "-" + name
    var counter = 1
    while exists(target) {
      counter += 1
      target = setAsidePath + "/" + Self.timestamp(environment.clock.now()) + "-\(counter)-" + slug + "-" + name
    }
    return (try? fileSystem.moveItem(file, to: target)) != nil ? target : nil
  }

  /// `date` as `<yyyyMMdd>T<HHmmss.SSS>Z` (UTC), the prefix of a set-aside snapshot's name.
  static func timestamp(_ date: Date) -> String {
    let since1970 = date.timeIntervalSince1970
    var seconds = time_t(since1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let millis = min(999, max(0, Int(((since1970 - since1970.rounded(.down)) * 1000).rounded(.down))))
    let milliText = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec)).\(milliText)Z"
  }

  /// Deletes both snapshots and records why (`Discarded.plist`), as UIKit discards the state when
  /// the user quits the app.
  public func discardSnapshots(reason: String) {
    removeSnapshots()
    let record: PropertyListValue = .dictionary(["reason": .string(reason), "date": .date(environment.clock.now())])
    try? makeFolder(path)
    if let data = try? record.encoded(as: .xml) { try? fileSystem.write(data, toFile: discardedPath) }
  }

  /// Replaces `LastRestore.plist` with `data`, atomically but without flushing it to disk: the
  /// bytes go to a temporary file (`.LastRestore.plist.stasis-tmp.*`, swept by ``removeDebris()``
  /// when its writer died) that is then renamed over the old record. A process that dies at any
  /// point leaves the whole old record or the whole new one (the kernel keeps what was written);
  /// only a power loss can take the last record with it. The file is a diagnostic record that
  /// nothing restores from, so it does not pay for two flushes (the file's and the folder's; 3 %
  /// of a 10,000-node restore, profiled) as the snapshots do.
  func writeLastRestore(_ data: Data) throws(AtomicFileError) {
    let temporary = path + "/" + TemporaryName.make(for: "LastRestore.plist", writer: getpid(), unique: UInt64.random(in: 1...UInt64.max))
    do {
      try fileSystem.writeUnflushed(data, toFile: temporary, permissions: nil)
      try fileSystem.moveItem(temporary, to: lastRestorePath)
    } catch {
      try? fileSystem.removeItem(temporary)
      throw error
    }
  }

  /// Deletes both snapshots, quietly.
  func removeSnapshots() {
    try? fileSystem.removeItem(currentSnapshotPath)
    try? fileSystem.removeItem(previousSnapshotPath)
  }

  /// The reason of the last discard, consumed (the file is removed).
  func takeDiscardReason() -> String? {
    guard exists(discardedPath) else { return nil }
    defer { try? fileSystem.removeItem(discardedPath) }
    guard let data = try? fileSystem.read(contentsOfFile: discardedPath, limit: 1 << 16),
      let value = try? PropertyListValue(decoding: data), case .dictionary(let record) = value
    else { return "the state was discarded" }
    return record["reason"]?.stringValue
  }

  // MARK: - The restoration marker

  /// What the marker of an unfinished restoration says.
  struct Marker: Equatable {
    /// The snapshot file being restored.
    var snapshot: String
    /// How many launches in a row were restoring when they ended (this one included).
    var attempt: Int
    /// How many launches before this one crashed while restoring.
    var crashes: Int
    /// The signal, when this launch crashed (`crash NN` was appended).
    var crashSignal: Int32?
  }

  func readMarker() -> Marker? {
    guard let data = try? AtomicFile.read(contentsOfFile: markerPath, limit: 1 << 16) else { return nil }
    var marker = Marker(snapshot: "", attempt: 1, crashes: 0, crashSignal: nil)
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "snapshot": marker.snapshot = parts[1]
      case "attempt": marker.attempt = Int(parts[1]) ?? 1
      case "crashes": marker.crashes = Int(parts[1]) ?? 0
      case "crash": marker.crashSignal = Int32(parts[1]) ?? 0
      default: break
      }
    }
    return marker
  }

  /// Writes the marker and keeps it open for the crash handler to append to. It is not flushed
  /// to disk: it must outlive the process, not the machine (a power cut is not a crash of the app).
  func openMarker(_ marker: Marker) throws(RestorationError) -> Int32 {
    try makeFolder(path)
    let descriptor = open(markerPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let code = errno
      throw RestorationError(.fileSystem, detail: "cannot write the restoration marker: \(Self.reason(code))", path: markerPath)
    }
    let text = Array("snapshot \(marker.snapshot)\nattempt \(marker.attempt)\ncrashes \(marker.crashes)\n".utf8)
    let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == text.count else {
      let code = written < 0 ? errno : EIO
      close(descriptor)
      unlink(markerPath)
      throw RestorationError(.fileSystem, detail: "cannot write the restoration marker: \(Self.reason(code))", path: markerPath)
    }
    return descriptor
  }

  func removeMarker() { unlink(markerPath) }
}
