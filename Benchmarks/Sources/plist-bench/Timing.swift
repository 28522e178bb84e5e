#if canImport(Glibc)
  import Glibc
#endif

/// Monotonic time in seconds.
@inline(__always)
func now() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

struct Timing {
  /// Median seconds per iteration.
  var median: Double
  var iterations: Int
  /// Fastest and slowest iteration, for the spread.
  var fastest: Double
  var slowest: Double
}

/// Runs `cell` for a warm-up (at least one iteration and `warmUp` seconds), then for at least
/// `minimumTime` seconds and `minimumIterations` iterations, timing each iteration, and returns the
/// median. Every iteration's result is checked.
func measure(_ cell: Cell, minimumTime: Double, warmUp: Double, minimumIterations: Int = 3) throws -> Timing {
  func once() throws -> Double {
    let start = now()
    let result = try cell.run()
    let elapsed = now() - start
    if let expected = cell.expected {
      guard result == expected else { throw CheckFailure("an iteration returned \(result), expected \(expected)") }
    } else {
      guard result > 0 else { throw CheckFailure("an encoder returned \(result) bytes") }
    }
    return elapsed
  }
  let warmUpStart = now()
  repeat { _ = try once() } while now() - warmUpStart < warmUp

  var times: [Double] = []
  let start = now()
  while times.count < minimumIterations || now() - start < minimumTime {
    times.append(try once())
  }
  times.sort()
  let middle = times.count / 2
  let median = times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2
  return Timing(median: median, iterations: times.count, fastest: times.first!, slowest: times.last!)
}
