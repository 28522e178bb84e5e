import Synchronization

/// The first failed write to standard output of a tool run, kept so that the run can end with an
/// error and exit status 1 instead of reporting success (`plutil … > /dev/full`, a closed pipe
/// a script did not notice, a full disk behind a redirection).
///
/// After the first failure, later writes to standard output are dropped, so that a tool does not
/// print half of one document after the loss of part of another.
public final class StandardOutputCheck: Sendable {
  private let first = Mutex<AtomicFileError?>(nil)

  public init() {}

  /// The first write to standard output that failed, if any.
  public var failure: AtomicFileError? { first.withLock { $0 } }

  /// `streams` with standard output's failures recorded here rather than thrown.
  public func checking(_ streams: StandardStreams) -> StandardStreams {
    var checked = streams
    let write = streams.writeOutput
    checked.writeOutput = { [self] (bytes) throws(AtomicFileError) in
      guard failure == nil else { return }
      do throws(AtomicFileError) {
        try write(bytes)
      } catch {
        first.withLock { if $0 == nil { $0 = error } }
      }
    }
    return checked
  }

  /// The message a tool prints for `failure`: `cannot write to standard output: <reason>`.
  public static func message(for failure: AtomicFileError) -> String {
    "cannot write to standard output: " + StandardStreams.reason(for: failure)
  }
}

extension HostEnvironment {
  /// Runs a tool with standard output checked: `body` gets this environment with its standard
  /// output wrapped by a ``StandardOutputCheck``; when any write failed, `prefix` + the failure
  /// (`cannot write to standard output: No space left on device`) goes to standard error and
  /// the status is 1, whatever `body` returned.
  public func runCheckingStandardOutput(prefix: String, _ body: (HostEnvironment) -> Int32) -> Int32 {
    let check = StandardOutputCheck()
    var checked = self
    checked.standardStreams = check.checking(standardStreams)
    let status = body(checked)
    guard let failure = check.failure else { return status }
    try? standardStreams.writeError(Array((prefix + StandardOutputCheck.message(for: failure) + "\n").utf8))
    return 1
  }
}
