internal import FoundationEssentials
internal import KeyedArchive
public import StasisSystem

/// What a scene was doing (`NSUserActivity` as a scene's `stateRestorationActivity`): a type,
/// a title and property-list user info.
public struct UserActivity {
  /// `activityType`, reverse-DNS by convention.
  public var activityType: String
  /// `title`.
  public var title: String?
  /// `userInfo`: property-list values only.
  public var userInfo: [String: Any]

  public init(activityType: String, title: String? = nil, userInfo: [String: Any] = [:]) {
    self.activityType = activityType
    self.title = title
    self.userInfo = userInfo
  }
}

/// One window's session (`UISceneSession`): an identifier that outlives the process, the
/// configuration it was made from, and the activity it is restored from.
public final class SceneSession {
  /// `persistentIdentifier`.
  public let persistentIdentifier: String
  /// The configuration's name (`UISceneConfiguration.name`, from `UIApplicationSceneManifest`).
  public let configurationName: String
  /// `stateRestorationActivity`: saved when the scene enters the background, handed back when
  /// the session reconnects.
  public var stateRestorationActivity: UserActivity?
  /// `userInfo`: the session's own values.
  public var userInfo: [String: Any]

  public init(persistentIdentifier: String, configurationName: String, stateRestorationActivity: UserActivity? = nil, userInfo: [String: Any] = [:]) {
    self.persistentIdentifier = persistentIdentifier
    self.configurationName = configurationName
    self.stateRestorationActivity = stateRestorationActivity
    self.userInfo = userInfo
  }
}

/// The scene sessions of an app (iOS 13's `UISceneSession` model), one keyed archive per session
/// in the saved-state folder's `Sessions/`: saved when its window goes to the background,
/// reconnected at the next launch with its activity, discarded with its state when the user
/// closes that window.
public struct SceneSessionStore: Sendable {
  public let folder: SavedStateFolder

  public init(folder: SavedStateFolder) { self.folder = folder }

  private func file(for identifier: String) -> String { folder.sessionsPath + "/" + identifier + ".archive" }

  /// A new session (a window opened for the first time), with a fresh persistent identifier.
  public func makeSession(configurationName: String = "Default Configuration") -> SceneSession {
    SceneSession(persistentIdentifier: UUID().uuidString, configurationName: configurationName)
  }

  /// Saves the session and its activity (atomically).
  public func save(_ session: SceneSession) throws(RestorationError) {
    var record: [String: Any] = [
      "persistentIdentifier": session.persistentIdentifier, "configurationName": session.configurationName, "userInfo": session.userInfo,
    ]
    if let activity = session.stateRestorationActivity {
      var entry: [String: Any] = ["activityType": activity.activityType, "userInfo": activity.userInfo]
      if let title = activity.title { entry["title"] = title }
      record["stateRestorationActivity"] = entry
    }
    let data: Data
    do {
      data = try KeyedArchiver.archivedData(withRootObject: record)
    } catch {
      throw RestorationError(.encodingFailed, detail: "the session's activity cannot be archived (property-list values only)", underlying: error)
    }
    try folder.makeFolder(folder.sessionsPath)
    do { try folder.fileSystem.write(data, toFile: file(for: session.persistentIdentifier)) } catch {
      throw RestorationError(.fileSystem, detail: "cannot write the session", path: file(for: session.persistentIdentifier), underlying: error)
    }
  }

  /// The sessions saved so far (to reconnect at launch), by identifier order; a session file that
  /// cannot be read is set aside.
  public func knownSessions() -> [SceneSession] {
    var sessions: [SceneSession] = []
    for name in ((try? folder.fileSystem.entryNames(inFolder: folder.sessionsPath)) ?? []).sorted() where name.hasSuffix(".archive") && !name.hasPrefix(".") {
      let path = folder.sessionsPath + "/" + name
      if let session = try? read(path) { sessions.append(session) } else { folder.setAside(path, reason: "unreadable session") }
    }
    return sessions
  }

  /// The saved session `identifier`, when there is one.
  public func session(withIdentifier identifier: String) -> SceneSession? { try? read(file(for: identifier)) }

  private func read(_ path: String) throws -> SceneSession {
    let data = try folder.fileSystem.read(contentsOfFile: path, limit: 16 << 20)
    let unarchiver = try KeyedUnarchiver(data: data)
    unarchiver.requiresSecureCoding = true
    guard let record = try unarchiver.decodeObject(of: Snapshot.propertyListTypes, forKey: "root") as? [AnyHashable: Any],
      let identifier = record["persistentIdentifier"] as? String, let configuration = record["configurationName"] as? String
    else { throw RestorationError(.corruptSnapshot, detail: "not a scene session", path: path) }
    var activity: UserActivity?
    if let entry = record["stateRestorationActivity"] as? [AnyHashable: Any], let type = entry["activityType"] as? String {
      activity = UserActivity(activityType: type, title: entry["title"] as? String, userInfo: stringKeyed(entry["userInfo"]))
    }
    return SceneSession(
      persistentIdentifier: identifier, configurationName: configuration, stateRestorationActivity: activity, userInfo: stringKeyed(record["userInfo"]))
  }

  /// Discards sessions the user closed (`application:didDiscardSceneSessions:`): their files and
  /// saved state are deleted.
  public func discard(_ sessions: [SceneSession]) {
    for session in sessions { try? folder.fileSystem.removeItem(file(for: session.persistentIdentifier)) }
  }
}

private func stringKeyed(_ value: Any?) -> [String: Any] {
  guard let dictionary = value as? [AnyHashable: Any] else { return [:] }
  var result: [String: Any] = [:]
  for (key, value) in dictionary { if let key = key.base as? String { result[key] = value } }
  return result
}
