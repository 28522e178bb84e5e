internal import FoundationEssentials
internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// Everything a Stasis module reads from outside the process's own memory, in one value: the
/// environment variables, the working, home and containers folders, the clock, the file system,
/// the standard streams, the user's language list, the device and the process's identity.
///
/// Every module that touches the outside world takes one (`Bundle(path:environment:)`,
/// `Defaults.Configuration(environment:)`, `ContainerRoot(environment:)`, the `plutil` and
/// `defaults` tools), so tests and tools can state the world instead of inheriting it, and
/// `Lifecycle` and `Restoration` can be driven in-process exactly as a real process would be.
///
/// ``current`` is the process's own (read once, at first use, from the real process) and the one
/// process-wide setting: ``updateCurrent(_:)`` changes it for everything that uses the default,
/// for example to make bundles follow the `AppleLanguages` of the user defaults.
///
/// ```swift
/// var world = HostEnvironment.current
/// world.variables["LANG"] = "fr_FR.UTF-8"
/// world.device = DeviceTraits(platform: "iphoneos", product: "ipad", displayScale: 2)
/// let bundle = try Bundle(path: "/opt/Notes.app", environment: world)
/// ```
public struct HostEnvironment: Sendable {
  /// The process environment (`ProcessInfo.environment`): `HOME`, `LANG`, `LANGUAGE`, `LC_ALL`,
  /// `LC_MESSAGES`, `XDG_DATA_HOME`, `STASIS_CONTAINERS_ROOT` are read by Stasis.
  public var variables: [String: String]
  /// The folder relative paths are resolved against (`FileManager.currentDirectoryPath`).
  public var currentDirectory: String
  /// The user's home folder (`NSHomeDirectory()` of a Unix user): `$HOME` when it is absolute,
  /// else the password database's entry for the user, else `/`.
  public var homeDirectory: String
  /// The folder that holds every app's container (see `Sandbox.ContainerRoot`):
  /// `$STASIS_CONTAINERS_ROOT` if set, else `$XDG_DATA_HOME/stasis/Containers` when that variable
  /// is absolute (XDG Base Directory specification), else `<home>/.local/share/stasis/Containers`.
  public var containersRoot: String
  /// Wall-clock and monotonic time.
  public var clock: HostClock
  /// Whole-file reads and atomic whole-file writes.
  public var fileSystem: HostFileSystem
  /// Standard input, output and error.
  public var standardStreams: StandardStreams
  /// The user's `AppleLanguages` list, when something knows it (the user defaults do); consulted
  /// before the POSIX variables. `nil`, or a source that answers `nil` or an empty list, means
  /// "not known": the languages come from ``variables`` (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`,
  /// `LANG`).
  public var appleLanguages: (@Sendable () -> [String]?)?
  /// The device the program presents itself as (platform and product suffixes, screen scale).
  public var device: DeviceTraits
  /// Who this process is: its id, name, arguments and executable.
  public var process: ProcessIdentity
  /// This machine's identifier, the `<hostUUID>` of host-specific preferences
  /// (`Library/Preferences/ByHost/<domain>.<hostUUID>.plist`, as macOS names them after the
  /// hardware UUID); see ``hostIdentifier(from:)``.
  public var hostIdentifier: String

  // The event sources of the outside world (the real ones unless a test states others).

  /// The process's signals: the lifecycle hosts' handled signals and the restoration crash
  /// guard (``POSIXSignals``).
  public var signals: any SignalPort = POSIXSignals()
  /// Where low-memory events come from (``KernelMemoryPressure``).
  public var memoryPressure: any MemoryPressurePort = KernelMemoryPressure()
  /// The terminal a terminal app runs on (standard input and output, ``POSIXTerminal/standard``).
  public var terminal: any TerminalDevice = POSIXTerminal.standard

  /// An environment stated in full. Anything not given is derived from `variables` (home,
  /// containers root) or is the real one (clock, file system, standard streams); the device is
  /// ``DeviceTraits/linux`` and the process identity the real process's.
  public init(
    variables: [String: String] = [:],
    currentDirectory: String = "/",
    homeDirectory: String? = nil,
    containersRoot: String? = nil,
    clock: HostClock = .system,
    fileSystem: HostFileSystem = .system,
    standardStreams: StandardStreams = .system,
    appleLanguages: (@Sendable () -> [String]?)? = nil,
    device: DeviceTraits = .linux,
    process: ProcessIdentity = .current,
    hostIdentifier: String? = nil
  ) {
    self.variables = variables
    self.currentDirectory = currentDirectory
    let home = homeDirectory ?? Self.homeDirectory(from: variables)
    self.homeDirectory = home
    self.containersRoot = containersRoot ?? Self.containersRoot(from: variables, home: home)
    self.clock = clock
    self.fileSystem = fileSystem
    self.standardStreams = standardStreams
    self.appleLanguages = appleLanguages
    self.device = device
    self.process = process
    self.hostIdentifier = hostIdentifier ?? Self.hostIdentifier(from: variables)
  }

  /// An environment with a fixed language list and no environment variables: what tests and
  /// tools use to state the user's languages (`AppleLanguages`) and device outright.
  public static func languages(_ languages: [String], device: DeviceTraits = .linux) -> HostEnvironment {
    HostEnvironment(appleLanguages: { languages }, device: device)
  }

  // MARK: - The process's own environment

  /// The real process as it is now: its environment variables, working folder, home, the real
  /// clock, file system and streams, device ``DeviceTraits/linux``.
  public static func readFromProcess() -> HostEnvironment {
    HostEnvironment(
      variables: ProcessInfo.processInfo.environment, currentDirectory: Self.workingDirectory(),
      process: .current)
  }

  private static let shared = Mutex<HostEnvironment?>(nil)

  /// The process-wide environment: what every API uses when it is not given one. Read from the
  /// real process (``readFromProcess()``) at first use.
  public static var current: HostEnvironment {
    shared.withLock { value in
      if let value { return value }
      let made = readFromProcess()
      value = made
      return made
    }
  }

  /// Changes ``current`` for every later use of the default (a bundle or defaults object keeps
  /// the environment it was made with).
  public static func updateCurrent(_ change: (inout HostEnvironment) -> Void) {
    shared.withLock { value in
      var environment = value ?? readFromProcess()
      change(&environment)
      value = environment
    }
  }

  // MARK: - Derivations

  /// `$HOME` when it is an absolute path, else the password database's home of the real user,
  /// else `/`.
  public static func homeDirectory(from variables: [String: String]) -> String {
    if let home = variables["HOME"], home.hasPrefix("/") { return home }
    if let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir {
      return String(validatingCString: folder) ?? "/"
    }
    return "/"
  }

  /// The environment variable that names the containers root outright.
  public static let containersRootVariable = "STASIS_CONTAINERS_ROOT"

  /// `$STASIS_CONTAINERS_ROOT` if set and non-empty, else `$XDG_DATA_HOME/stasis/Containers` when
  /// that variable is absolute, else `<home>/.local/share/stasis/Containers`.
  public static func containersRoot(from variables: [String: String], home: String) -> String {
    if let explicit = variables[containersRootVariable], !explicit.isEmpty { return explicit }
    if let dataHome = variables["XDG_DATA_HOME"], dataHome.hasPrefix("/") { return dataHome + "/stasis/Containers" }
    return (home == "/" ? "" : home) + "/.local/share/stasis/Containers"
  }

  static func workingDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "/" }
    let length = buffer.firstIndex(of: 0) ?? buffer.count
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
