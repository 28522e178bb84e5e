internal import Synchronization

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Musl)
  internal import Musl
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// One kernel source watched on a thread of its own (see ``KernelMemoryPressure``): waits up to a
/// second at a time for the source's next event, so the thread ends within a second of ``stop()``
/// and closes the descriptors. A usage threshold counts only when crossed upwards (the kernel
/// also signals the way back down); a `memory.events` change only when its `high` count rose.
final class KernelMemoryWatch: MemoryPressureWatch {
  let source: MemoryPressureSource
  let descriptors: [Int32]
  let clock: MonotonicClock
  let onEvent: @Sendable (MonotonicInstant) -> Void
  let stopping = Atomic<Bool>(false)
  /// The last `high` count read from a cgroup v2 `memory.events`.
  private let highCount = Atomic<Int>(-1)
  /// Whether a cgroup v1 usage is above its threshold: the kernel signals every crossing, up and
  /// down, and the eventfd's count says how many there were since the last read.
  private let aboveThreshold = Atomic<Bool>(false)

  init(source: MemoryPressureSource, descriptors: [Int32], clock: MonotonicClock, onEvent: @escaping @Sendable (MonotonicInstant) -> Void) {
    self.source = source
    self.descriptors = descriptors
    self.clock = clock
    self.onEvent = onEvent
  }

  func stop() { stopping.store(true, ordering: .relaxed) }

  /// Starts the thread; it holds the watch until it ends.
  func start() {
    let retained = Unmanaged.passRetained(self).toOpaque()
    var thread = pthread_t()
    let made = pthread_create(
      &thread, nil,
      { argument in
        let watch = Unmanaged<KernelMemoryWatch>.fromOpaque(argument!).takeRetainedValue()
        watch.run()
        return nil
      }, retained)
    if made == 0 {
      pthread_detach(thread)
    } else {
      Unmanaged<KernelMemoryWatch>.fromOpaque(retained).release()
      for descriptor in descriptors { close(descriptor) }
    }
  }

  private func run() {
    // The hosts' signals are for the main queue's dispatch sources: this thread never takes one
    // (a signal delivered here before a source is armed would be lost).
    POSIXSignals().block([SIGTERM, SIGHUP, SIGINT, SIGUSR1, SIGUSR2, SIGCONT, SIGTSTP])
    if case .cgroupV2HighEvents = source { highCount.store(Self.highEvents(descriptors[0]) ?? 0, ordering: .relaxed) }
    if case .cgroupV1UsageThreshold(_, let threshold) = source {
      aboveThreshold.store((Self.usage(descriptors[1]) ?? 0) >= threshold, ordering: .relaxed)
    }
    defer { for descriptor in descriptors { close(descriptor) } }
    while !stopping.load(ordering: .relaxed) {
      if let seen = waitForEvent() { onEvent(seen) }
    }
  }

  /// Waits up to a second for the source's next event; the instant at which it was seen.
  private func waitForEvent() -> MonotonicInstant? {
    switch source {
    case .cgroupV2PSI, .systemPSI:
      var poller = pollfd(fd: descriptors[0], events: Int16(POLLPRI), revents: 0)
      guard poll(&poller, 1, 1000) > 0 else { return nil }
      if poller.revents & Int16(POLLERR) != 0 {
        stopping.store(true, ordering: .relaxed)
        return nil
      }
      return poller.revents & Int16(POLLPRI) != 0 ? clock.now : nil
    case .cgroupV2HighEvents:
      // The file's change is signalled as POLLPRI|POLLERR; only a rise of `high` is pressure.
      var poller = pollfd(fd: descriptors[0], events: Int16(POLLPRI), revents: 0)
      guard poll(&poller, 1, 1000) > 0 else { return nil }
      let seen = clock.now
      guard let count = Self.highEvents(descriptors[0]) else { return nil }
      let previous = highCount.exchange(count, ordering: .relaxed)
      return count > previous ? seen : nil
    case .cgroupV1PressureLevel, .cgroupV1UsageThreshold:
      var poller = pollfd(fd: descriptors[0], events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 1000) > 0 else { return nil }
      let seen = clock.now
      var count: UInt64 = 0
      _ = read(descriptors[0], &count, 8)
      if case .cgroupV1UsageThreshold = source {
        // Crossings alternate, up and down: pressure is a crossing up from below (reading the
        // usage instead would be racy — it may already read just under the threshold).
        let wasAbove = aboveThreshold.load(ordering: .relaxed)
        if count % 2 == 1 { aboveThreshold.store(!wasAbove, ordering: .relaxed) }
        guard !wasAbove, count >= 1 else { return nil }
      }
      return seen
    case .memAvailable(let threshold, let interval):
      usleep(UInt32(max(0.01, min(interval, 1)) * 1e6))
      guard let available = KernelMemoryPressure.memAvailable(), available < threshold else { return nil }
      return clock.now
    }
  }

  /// The `high` line of a cgroup v2 `memory.events`, read again from its start.
  static func highEvents(_ descriptor: Int32) -> Int? {
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = pread(descriptor, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    for line in String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") where line.hasPrefix("high ") {
      return Int(line.dropFirst(5))
    }
    return nil
  }

  /// The number in a cgroup file (`memory.usage_in_bytes`), read again from its start.
  static func usage(_ descriptor: Int32) -> UInt64? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(descriptor, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return UInt64(KernelMemoryPressure.trimmed(String(decoding: buffer[0..<count], as: UTF8.self)))
  }
}
