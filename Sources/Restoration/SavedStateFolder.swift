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
public struct SavedStateFolder: Sendable {
  public let path: String
  /// The outside world: its clock dates what restoration writes (the names of snapshots set
  /// aside, `Discarded.plist`, `LastRestore.plist`, the snapshot's timestamp).
  public var environment: HostEnvironment

  /// The folder of the app in `container`.
  public init(container: AppContainer, environment: HostEnvironment = .current) {
    self.init(
      path: container.libraryPath + "/Saved Application State/" + container.bundleIdentifier + ".savedState",
      environment: environment)
  }

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
    (AtomicFile.entryNames(inFolder: setAsidePath) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { setAsidePath + "/" + $0 }
  }

  static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  func makeFolder(_ folder: String) throws(RestorationError) {
    var partial = folder.hasPrefix("/") ? "" : "."
    for component in folder.split(separator: "/") {
      partial += "/" + component
      if mkdir(partial, 0o755) != 0, errno != EEXIST {
        let code = errno
        throw RestorationError(.fileSystem, detail: "cannot make the folder: \(Self.reason(code))", path: partial)
      }
    }
  }

  // MARK: - Saving

  /// Writes `data` as the new current snapshot: the current one becomes `previous.archive`
  /// (through a hard link, so `data.archive` exists at every moment), then `data` replaces
  /// `data.archive` atomically, flushed to disk with its folder. A process killed at any point
  /// leaves the complete old snapshot or the complete new one as `data.archive`.
  public func writeSnapshot(_ data: Data) throws(RestorationError) {
    try makeFolder(path)
    if Self.exists(currentSnapshotPath) {
      let link = path + "/" + Self.previousLinkName
      unlink(link)
      if hardLink(currentSnapshotPath, link) != 0 {
        let code = errno
        throw RestorationError(.fileSystem, detail: "cannot make a link to data.archive in the folder: \(Self.reason(code))", path: path)
      }
      if rename(link, previousSnapshotPath) != 0 {
        let code = errno
        unlink(link)
        throw RestorationError(.fileSystem, detail: "cannot rename the link to data.archive over it: \(Self.reason(code))", path: previousSnapshotPath)
      }
      // When previous.archive already is data.archive (a save whose write failed after this
      // step), rename does nothing and leaves the link: it goes.
      unlink(link)
    }
    do {
      try AtomicFile.write(data, toFile: currentSnapshotPath)
    } catch {
      throw RestorationError(.fileSystem, detail: "cannot write the snapshot", path: currentSnapshotPath, underlying: error)
    }
  }

  /// The hard link to `data.archive` a save makes before renaming it over `previous.archive`.
  static let previousLinkName = ".previous.archive.link"

  /// The system's words for `errno` value `code` (`strerror`).
  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// Removes what killed writers left: their temporary files (`.data.archive.stasis-tmp.*`,
  /// `.LastRestore.plist.stasis-tmp.*`, in `Sessions/` too) and a save's stray link. Called at
  /// launch, before anything is read or written, so no save of this process is running.
  public func removeDebris() {
    AtomicFile.removeDebris(inFolder: path)
    AtomicFile.removeDebris(inFolder: sessionsPath)
    unlink(path + "/" + Self.previousLinkName)
  }

  /// Moves `file` into `Set Aside/` as `<UTC time>-<reason>-<name>`; answers its new path.
  @discardableResult
  public func setAside(_ file: String, reason: String) -> String? {
    guard Self.exists(file), (try? makeFolder(setAsidePath)) != nil else { return nil }
    let name = file.split(separator: "/").last.map(String.init) ?? "snapshot"
    let slug = String(reason.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
    var target = setAsidePath + "/" + Self.timestamp(environment.clock.now()) + "-" + slug + "-" + name
    var counter = 1
    while Self.exists(target) {
      counter += 1
      target = setAsidePath + "/" + Self.timestamp(environment.clock.now()) + "-\(counter)-" + slug + "-" + name
    }
    return rename(file, target) == 0 ? target : nil
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
    unlink(currentSnapshotPath)
    unlink(previousSnapshotPath)
    let record: PropertyListValue = .dictionary(["reason": .string(reason), "date": .date(environment.clock.now())])
    try? makeFolder(path)
    if let data = try? record.encoded(as: .xml) { try? AtomicFile.write(data, toFile: discardedPath) }
  }

  /// The reason of the last discard, consumed (the file is removed).
  func takeDiscardReason() -> String? {
    guard Self.exists(discardedPath) else { return nil }
    defer { unlink(discardedPath) }
    guard let data = try? AtomicFile.read(contentsOfFile: discardedPath, limit: 1 << 16),
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

/// `link(2)` (under another name: `writeSnapshot` names its link path `link`).
private func hardLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
