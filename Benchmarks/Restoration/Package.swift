// swift-tools-version: 6.0
// The restoration benchmark: saving (encode + atomic write with fsync) and restoring a
// 10,000-node interface tree with Stasis's Restoration, beside Foundation's NSKeyedArchiver and
// NSKeyedUnarchiver archiving the same state in the same run. A nested package so that the root
// manifest stays small; run it through `Benchmarks/Restoration/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisRestorationBenchmark",
  products: [
    .executable(name: "restoration-bench", targets: ["restoration-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "restoration-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "Restoration", package: "Stasis"),
        // Restoration's own dependencies, named so that SwiftPM recompiles this module when one of
        // them changes (a release build inlines their code here; see Benchmarks/Lifecycle).
        .product(name: "Lifecycle", package: "Stasis"),
        .product(name: "InterfaceObjects", package: "Stasis"),
        .product(name: "KeyedArchive", package: "Stasis"),
        .product(name: "Interface", package: "Stasis"),
        .product(name: "ObjectModel", package: "Stasis"),
        .product(name: "Bundles", package: "Stasis"),
        .product(name: "Sandbox", package: "Stasis"),
        .product(name: "StasisSystem", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/restoration-bench")
  ],
  swiftLanguageModes: [.v6]
)
