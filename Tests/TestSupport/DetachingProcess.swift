import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program that may leave a daemon behind (the first `tmux` command starts tmux's server,
/// which outlives it), without Foundation's `Process`.
///
/// Foundation on Linux learns that a child ended when a socket it hands the child reaches end of
/// file. A daemon forked by the child inherits that socket, so `waitUntilExit()` waits for the
/// daemon, that is for ever; the daemon would likewise hold any pipe of the test process open.
/// Here the child is started with `posix_spawn`, every descriptor above 2 closed in it, and waited
/// for by its own process id, with a deadline after which it is killed.
public enum DetachingProcess {
  /// Runs `executable` with `arguments`; standard input and error are `/dev/null`, standard output
  /// goes to `outputPath` (or `/dev/null`). Answers the exit status (128 + the signal number for a
  /// child ended by a signal).
  @discardableResult
  public static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, outputPath: String? = nil,
    timeout: Double = 20
  ) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    try closeInheritedDescriptors(&actions)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    let envp = environmentStrings.map { strdup($0) } + [nil]
    defer { for pointer in envp { free(pointer) } }

    // The calling thread may be one of Dispatch's, which block every signal; the child must start
    // with none blocked and every handler at its default, or a daemon it leaves never hears
    // SIGTERM or SIGCHLD.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t(), allSignals = sigset_t()
    sigemptyset(&noSignals)
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid: pid_t = 0
    let spawnError = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawnError == 0 else {
      throw TestFailure("posix_spawn \(executable): \(String(cString: strerror(spawnError)))")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var status: Int32 = 0
    while true {
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { break }
      if result < 0 && errno != EINTR { throw TestFailure("waitpid \(executable): \(String(cString: strerror(errno)))") }
      if Date() > deadline {
        kill(pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        throw TestFailure("\(executable) \(arguments.joined(separator: " ")) did not end within \(timeout) s; killed")
      }
      usleep(2_000)
    }
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Adds a close action for every descriptor above 2: glibc's `closefrom` action when the C
  /// library has it (2.34 and later; the Swift overlay does not declare it, so it is looked up),
  /// else one action per descriptor open now.
  private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) throws {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {  // nil: RTLD_DEFAULT
      let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
      if closeFrom(&actions, 3) == 0 { return }
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
      let flags = fcntl(descriptor, F_GETFD)
      if flags >= 0 && flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
    }
  }
}
