// The notification cells: Foundation's NotificationCenter posting to block observers alone, and
// ApplicationLifecycle's transitions (a delegate call and one post each) on a centre of the same
// kind with the same observers. Only the posts are timed; every observer's count is checked after
// the clock stops, and reset, untimed.
import BenchSupport
import Foundation
import Lifecycle

/// One counter per observer, incremented by that observer's block (the whole of its work).
final class Tally: @unchecked Sendable {
  let slots: UnsafeMutablePointer<Int>
  let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: max(count, 1))
    slots.initialize(repeating: 0, count: max(count, 1))
  }

  deinit { slots.deallocate() }

  func reset() { slots.update(repeating: 0, count: count) }

  /// The first slot in `range` whose count is not `expected`, with its count.
  func firstMismatch(in range: Range<Int>, expected: Int) -> (slot: Int, count: Int)? {
    for slot in range where slots[slot] != expected { return (slot, slots[slot]) }
    return nil
  }
}

/// The two names posted, in the order the transitions post them.
let postedNames: [Notification.Name] = [.applicationWillResignActive, .applicationDidBecomeActive]

/// A centre with `observers` block observers on each of the two names (`queue: nil`, so each block
/// runs in the posting thread, within `post`), observer `i` of name `n` counting in slot
/// `n × observers + i`.
struct ObservedCenter {
  let center = NotificationCenter()
  let tally: Tally
  let observers: Int
  /// The tokens `addObserver` returned, kept for the centre's lifetime.
  private(set) var tokens: [NSObjectProtocol] = []

  init(observers: Int) {
    self.observers = observers
    let tally = Tally(count: observers * postedNames.count)
    self.tally = tally
    for (nameIndex, name) in postedNames.enumerated() {
      for index in 0..<observers {
        let slot = nameIndex * observers + index
        tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in tally.slots[slot] &+= 1 })
      }
    }
  }

  /// Checks that every observer of both names counted `expected` posts, then resets the counts.
  func checkAndReset(expected: Int, _ what: String) throws {
    for nameIndex in postedNames.indices {
      let range = nameIndex * observers..<(nameIndex + 1) * observers
      if let (slot, count) = tally.firstMismatch(in: range, expected: expected) {
        let name = postedNames[nameIndex].rawValue
        throw BenchFailure("\(what): observer \(slot - range.lowerBound) of \(name) saw \(count) posts, not \(expected)")
      }
    }
    tally.reset()
  }
}

struct BenchFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// `count` with a comma between thousands (1,000), as the report writes numbers.
func grouped(_ count: Int) -> String {
  let digits = Array(String(count))
  var text = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
    text.append(digit)
  }
  return text
}

/// The object Foundation's cell posts with (the lifecycle posts with itself).
final class PostSender {}

/// A delegate with every method left to the protocol's empty defaults.
final class EmptyDelegate: ApplicationDelegate {}

/// One measured operation: `body` does `operations` posts (or transitions) per iteration.
@MainActor
final class Cell {
  let key: String
  let title: String
  let operations: Int
  let body: () throws -> Void
  let check: () throws -> Void
  /// What `check` makes sure of, for the report.
  let checkNote: String
  var times: [Double] = []
  var wallTimes: [Double] = []
  var failure: String?

  init(
    key: String, title: String, operations: Int, checkNote: String, body: @escaping () throws -> Void,
    check: @escaping () throws -> Void
  ) {
    self.checkNote = checkNote
    self.key = key
    self.title = title
    self.operations = operations
    self.body = body
    self.check = check
  }

  /// Nanoseconds of CPU time per operation in the median iteration.
  var nanosecondsPerOperation: Double { median(times) / Double(operations) * 1e9 }
  var wallNanosecondsPerOperation: Double { median(wallTimes) / Double(operations) * 1e9 }

  func iterate() throws {
    let wallStart = wallNow()
    let start = cpuNow()
    try body()
    let elapsed = cpuNow() - start
    let wall = wallNow() - wallStart
    try check()
    times.append(elapsed)
    wallTimes.append(wall)
  }
}

/// Foundation alone: `pairs` × (post `willResignActive`, post `didBecomeActive`) with `object: x`.
@MainActor func foundationCell(key: String, title: String, observers: Int, pairs: Int) -> Cell {
  let observed = ObservedCenter(observers: observers)
  let sender = PostSender()
  let center = observed.center
  return Cell(
    key: key, title: title, operations: pairs * 2,
    checkNote: observers > 0 ? "every observer saw every post" : "nothing to check (no observers)",
    body: {
      for _ in 0..<pairs {
        center.post(name: .applicationWillResignActive, object: sender)
        center.post(name: .applicationDidBecomeActive, object: sender)
      }
    },
    check: { try observed.checkAndReset(expected: pairs, key) })
}

/// Stasis: an ApplicationLifecycle on its own observed centre, launched once (untimed), then
/// `pairs` × (`resignActive()`, `becomeActive()`): each a state check, a delegate call and a post.
@MainActor func stasisCell(key: String, title: String, observers: Int, pairs: Int) throws -> Cell {
  let observed = ObservedCenter(observers: observers)
  let lifecycle = ApplicationLifecycle(delegate: EmptyDelegate(), notificationCenter: observed.center)
  try lifecycle.launch()
  // The launch posted didBecomeActive once (and didFinishLaunching, which nobody observes).
  if observers > 0 {
    let range = observers..<2 * observers
    if let (slot, count) = observed.tally.firstMismatch(in: range, expected: 1) {
      throw BenchFailure("\(key): after launch, didBecomeActive observer \(slot - observers) saw \(count) posts, not 1")
    }
    observed.tally.reset()
  }
  guard lifecycle.state == .active else { throw BenchFailure("\(key): launched into \(lifecycle.state), not active") }
  return Cell(
    key: key, title: title, operations: pairs * 2,
    checkNote: observers > 0 ? "every observer saw every post; active after each iteration" : "active after each iteration",
    body: {
      for _ in 0..<pairs {
        try lifecycle.resignActive()
        try lifecycle.becomeActive()
      }
    },
    check: {
      guard lifecycle.state == .active else { throw BenchFailure("\(key): ended an iteration \(lifecycle.state)") }
      try observed.checkAndReset(expected: pairs, key)
    })
}

/// Warms every cell up, then runs `rounds` rounds; in each, every cell (in turn, the order reversed
/// every other round) runs until it has spent its share of `minimumTime` and done its share of
/// `minimumIterations`, so that the host's load falls on every cell alike.
@MainActor func runCells(_ cells: [Cell], minimumTime: Double, minimumIterations: Int, warmUp: Double, rounds: Int) {
  for cell in cells {
    do {
      let start = cpuNow()
      repeat {
        try cell.body()
        try cell.check()
      } while cpuNow() - start < warmUp
    } catch {
      cell.failure = "\(error)"
      progress("FAIL \(cell.key) (warm-up): \(error)")
    }
  }
  let timeShare = minimumTime / Double(rounds)
  let iterationShare = (minimumIterations + rounds - 1) / rounds
  for round in 1...rounds {
    let order = round % 2 == 1 ? cells : cells.reversed()
    for cell in order where cell.failure == nil {
      var spent = 0.0
      var done = 0
      do {
        while spent < timeShare || done < iterationShare {
          try cell.iterate()
          spent += cell.times[cell.times.count - 1]
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
