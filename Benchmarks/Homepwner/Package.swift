// swift-tools-version: 6.0
// Homepwner's benchmark: a 10,000-item store saved and loaded beside Foundation's
// NSKeyedArchiver / NSKeyedUnarchiver archiving the same items, and the real app's start-up to its
// first frame with that store. Run it through `Benchmarks/Homepwner/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisHomepwnerBenchmark",
  products: [
    .executable(name: "homepwner-bench", targets: ["homepwner-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "homepwner-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "HomepwnerKit", package: "Stasis"),
        // What HomepwnerKit builds on, named so that a release build recompiles this module when it changes.
        .product(name: "KeyedArchive", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
        .product(name: "ObjectModel", package: "Stasis"),
        .product(name: "StasisSystem", package: "Stasis"),
        .product(name: "Sandbox", package: "Stasis"),
      ],
      path: "Sources/homepwner-bench")
  ],
  swiftLanguageModes: [.v6]
)
