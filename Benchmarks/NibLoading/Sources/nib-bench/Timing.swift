// Cells and their timing: each cell runs in every round, a slice at a time, so that the host's
// load, which comes and goes over seconds, falls on every cell alike. Only the operation is timed;
// its result is checked after the clock stops (and freed after the check, untimed).
import BenchSupport

/// One measured operation.
@MainActor
final class BenchCell {
  let key: String
  let title: String
  /// Class instances one iteration makes (for objects/s); 0 when the figure means nothing.
  let objects: Int
  let run: () throws -> Any
  let check: (Any) throws -> Void
  var times: [Double] = []
  var wallTimes: [Double] = []
  var failure: String?

  init<Result>(_ key: String, _ title: String, objects: Int, run: @escaping () throws -> Result, check: @escaping (Result) throws -> Void) {
    self.key = key
    self.title = title
    self.objects = objects
    self.run = { try run() }
    self.check = { try check($0 as! Result) }
  }

  var median: Double { BenchSupport.median(times) }
  var wallMedian: Double { BenchSupport.median(wallTimes) }
  var objectsPerSecond: Double { objects > 0 && median > 0 ? Double(objects) / median : 0 }

  /// One timed iteration, checked.
  func iterate() throws {
    let wallStart = wallNow()
    let start = cpuNow()
    let result = try run()
    let elapsed = cpuNow() - start
    let wall = wallNow() - wallStart
    try check(result)
    times.append(elapsed)
    wallTimes.append(wall)
  }
}

/// Warms every cell up, then runs `rounds` rounds; in each, every cell runs until it has spent
/// its share of `minimumTime` and done its share of `minimumIterations`.
@MainActor func runCells(_ cells: [BenchCell], minimumTime: Double, minimumIterations: Int, warmUp: Double, rounds: Int,
  progress: (String) -> Void)
{
  for cell in cells {
    do {
      let start = cpuNow()
      repeat { try cell.check(try cell.run()) } while cpuNow() - start < warmUp
    } catch {
      cell.failure = "\(error)"
      progress("FAIL \(cell.key) (warm-up): \(error)")
    }
  }
  let timeShare = minimumTime / Double(rounds)
  let iterationShare = (minimumIterations + rounds - 1) / rounds
  for round in 1...rounds {
    for cell in cells where cell.failure == nil {
      var spent = 0.0
      var done = 0
      do {
        while spent < timeShare || done < iterationShare {
          let before = cell.times.count
          try cell.iterate()
          if cell.times.count > before { spent += cell.times[cell.times.count - 1] }
          done += 1
        }
      } catch {
        cell.failure = "\(error)"
        progress("FAIL \(cell.key): \(error)")
      }
    }
    progress("round \(round) of \(rounds) done")
  }
}
