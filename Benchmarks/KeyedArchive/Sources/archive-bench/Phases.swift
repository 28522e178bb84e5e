import BenchSupport
import Foundation
import KeyedArchive
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

/// Minor page faults of this process so far (fresh pages the kernel had to map and zero).
func minorPageFaults() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_minflt
}

/// Stasis's archiving in its two phases, timed apart (CPU, medians of `iterations`): the archiver's
/// walk of the graph (`encodeRootObject`), and the writer (`finishEncoding()`), each with the page faults it took. For finding which phase grows faster than
/// the item count (run at 10,000, 100,000 and 1,000,000 and compare the per-item costs).
func runPhases(_ format: ArchiveFormat, count: Int, iterations: Int) throws {
  let store = StasisStore.make(count: count)
  let plistFormat: PropertyListFormat = format == .binary ? .binary : .xml
  var walks: [Double] = [], writes: [Double] = [], walkFaults: [Int] = [], writeFaults: [Int] = []
  for _ in 0..<max(iterations, 1) {
    var faults = minorPageFaults()
    var start = cpuNow()
    let archiver = KeyedArchiver(registry: stasisRegistry)
    archiver.maximumObjectCount = StasisSystem.maximumObjectCount
    archiver.outputFormat = plistFormat
    try archiver.encodeRootObject(store)
    walks.append(cpuNow() - start)
    walkFaults.append(minorPageFaults() - faults)
    faults = minorPageFaults()
    start = cpuNow()
    // As `archivedData(withRootObject:)` writes (the binary writer told that `$objects` holds
    // each string once).
    let data = try archiver.finishEncoding()
    writes.append(cpuNow() - start)
    writeFaults.append(minorPageFaults() - faults)
    guard data.starts(with: format.magic) else { throw CheckFailure("Stasis wrote no \(format) archive") }
  }
  let walk = median(walks), write = median(writes)
  func faults(_ list: [Int]) -> Int { list.sorted()[list.count / 2] }
  print(String(format: "%@ N=%d: walk %.1f ms (%.3f µs/item, %d page faults), write %.1f ms (%.3f µs/item, %d page faults), total %.3f µs/item",
    format.rawValue, count, walk * 1000, walk * 1e6 / Double(count), faults(walkFaults), write * 1000, write * 1e6 / Double(count),
    faults(writeFaults), (walk + write) * 1e6 / Double(count)))
}
