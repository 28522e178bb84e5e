public import StasisSystem

/// The one error type of the `Lifecycle` module: a transition the current state does not allow,
/// a memory-pressure source that cannot be opened, a host that cannot take the terminal.
///
/// `path` is the file involved (a cgroup or PSI file, the terminal), when there is one.
public typealias LifecycleError = ModuleError<LifecycleErrorDomain>

/// The domain of ``LifecycleError`` (see `ModuleErrorDomain`).
public enum LifecycleErrorDomain: ModuleErrorDomain {}

extension ErrorCode<LifecycleError> {
  /// Matches `error` when it or any error in its chain of causes has this code
  /// (`catch LifecycleError.Code.x`).
  public static func ~= (code: Self, error: any Swift.Error) -> Bool { code.matches(error) }

  /// The transition is not possible from the current state (launching twice, entering the
  /// foreground of an app that is not in the background).
  public static var invalidTransition: Self { Self("invalid transition") }
  /// A memory-pressure source could not be opened or armed (no such file, no permission, an old
  /// kernel without PSI triggers).
  public static var memorySourceUnavailable: Self { Self("memory source unavailable") }
  /// The terminal could not be put in raw mode or read.
  public static var terminal: Self { Self("terminal") }
}
