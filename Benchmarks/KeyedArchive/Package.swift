// swift-tools-version: 6.0
// The keyed-archive benchmark: Stasis's KeyedArchive against Foundation's NSKeyedArchiver on the
// item-store object graph of Tests/Fixtures/bench/GRAPH.md. A nested package so that the root manifest
// stays small; run it through `Benchmarks/KeyedArchive/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisKeyedArchiveBenchmark",
  products: [
    .executable(name: "archive-bench", targets: ["archive-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "archive-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "KeyedArchive", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/archive-bench")
  ],
  swiftLanguageModes: [.v6]
)
