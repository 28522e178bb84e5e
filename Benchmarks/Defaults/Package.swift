// swift-tools-version: 6.0
// The user-defaults benchmark: Stasis's Defaults against Foundation's UserDefaults on the same
// machine in the same run. A nested package so that the root manifest stays small; run it through
// `Benchmarks/Defaults/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisDefaultsBenchmark",
  products: [
    .executable(name: "defaults-bench", targets: ["defaults-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "defaults-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "Defaults", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
        .product(name: "Sandbox", package: "Stasis"),
      ],
      path: "Sources/defaults-bench")
  ],
  swiftLanguageModes: [.v6]
)
