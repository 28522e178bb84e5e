// swift-tools-version: 6.0
// The bundle benchmark: Stasis's Bundles against Foundation's Bundle on Linux, on generated bundles
// (localized-string lookups, resource lookups, first lookup in a 5,000-resource bundle). A nested
// package so that the root manifest stays small; run it through `Benchmarks/Bundles/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisBundlesBenchmark",
  products: [
    .executable(name: "bundle-bench", targets: ["bundle-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "bundle-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "Bundles", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/bundle-bench")
  ],
  swiftLanguageModes: [.v6]
)
