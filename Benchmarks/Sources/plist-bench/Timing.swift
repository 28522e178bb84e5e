import BenchSupport

/// Which clock a cell's time is read from.
///
/// The machine is shared (2 cores, other engineers' builds and tests): under load, wall-clock
/// time mostly measures how long the process waited for a core. The process's CPU time
/// (`CLOCK_PROCESS_CPUTIME_ID`, user + system, page faults included) is what the code itself
/// cost, and every system measured here is single-threaded, so on an idle machine the two agree.
enum BenchClock: String {
  case cpu, wall

  @inline(__always)
  func now() -> Double { self == .cpu ? cpuNow() : wallNow() }
}


struct Timing {
  /// Median seconds per iteration on the chosen clock.
  var median: Double
  var iterations: Int
  /// Fastest and slowest iteration, for the spread.
  var fastest: Double
  var slowest: Double
  /// Median wall-clock seconds per iteration (equal to `median` when the clock is the wall).
  var wallMedian: Double
}

/// The iterations a cell has run so far, over all rounds.
struct Samples {
  var times: [Double] = []
  var wallTimes: [Double] = []
  var total = 0.0

  var timing: Timing {
    Timing(
      median: median(times), iterations: times.count, fastest: times.min() ?? 0, slowest: times.max() ?? 0,
      wallMedian: median(wallTimes))
  }
}

/// One round of a cell: a warm-up (`warmUp` seconds and at least one iteration), then iterations
/// until this round has run `minimumTime` seconds and `minimumIterations` iterations, each timed on
/// `clock` and on the wall clock and added to `samples`. Every iteration's result is checked.
///
/// The harness runs every cell of every dataset in several rounds, one cell after another, and takes
/// the median of all iterations together, so that a burst of load from other processes on the
/// shared machine lands on a few iterations of each cell instead of on every iteration of one.
func measureRound(
  _ cell: Cell, into samples: inout Samples, clock: BenchClock, minimumTime: Double, warmUp: Double,
  minimumIterations: Int
) throws {
  func check(_ result: Int) throws {
    if let expected = cell.expected {
      guard result == expected else { throw CheckFailure("an iteration returned \(result), expected \(expected)") }
    } else {
      guard result > 0 else { throw CheckFailure("an encoder returned \(result) bytes") }
    }
  }
  if warmUp > 0 {
    let warmUpStart = clock.now()
    repeat { try check(try cell.run()) } while clock.now() - warmUpStart < warmUp
  }
  var iterations = 0
  var total = 0.0
  while iterations < minimumIterations || total < minimumTime {
    let wallStart = BenchClock.wall.now()
    let start = clock.now()
    let result = try cell.run()
    let elapsed = clock.now() - start
    samples.wallTimes.append(BenchClock.wall.now() - wallStart)
    try check(result)
    samples.times.append(elapsed)
    samples.total += elapsed
    total += elapsed
    iterations += 1
  }
}
