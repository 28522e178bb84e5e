// swift-tools-version: 6.0
// What every Stasis benchmark needs and none should copy: the CPU and wall clocks, the median,
// peak-memory readings from /proc, and the machine and load lines of a report. The benchmark
// packages under Benchmarks/ depend on it by path.
import PackageDescription

let package = Package(
  name: "BenchSupport",
  products: [
    .library(name: "BenchSupport", targets: ["BenchSupport"])
  ],
  targets: [
    .target(name: "BenchSupport")
  ],
  swiftLanguageModes: [.v6]
)
