// Clocks and the median, as every benchmark report of this project uses them (Docs/benchmarks.md).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Seconds of this process's CPU time (`CLOCK_PROCESS_CPUTIME_ID`, user + system): the machine's
/// cores are shared and every system measured is single-threaded, so this is what the work cost.
public func cpuNow() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// Seconds on the monotonic wall clock.
public func wallNow() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
}

/// The median of `values` (the mean of the middle two for an even count), 0 for none.
public func median(_ values: [Double]) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
