// swift-tools-version: 6.0
// The lifecycle benchmark: the cost of posting a lifecycle notification to 1,000
// observers through ApplicationLifecycle beside Foundation's NotificationCenter alone, and the
// latency of a memory warning from the kernel's event to the delegate's callback in a child app
// (the root package's `stasis-lifecycle-child`) under real memory pressure in a 160 MiB cgroup. A
// nested package so that the root manifest stays small; run it through `Benchmarks/Lifecycle/run.sh`,
// which also builds the child in the same scratch.
import PackageDescription

let package = Package(
  name: "StasisLifecycleBenchmark",
  products: [
    .executable(name: "lifecycle-bench", targets: ["lifecycle-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "lifecycle-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "Lifecycle", package: "Stasis"),
        // Lifecycle's own dependencies, listed so that SwiftPM recompiles this module when one of
        // them changes: a release build inlines their code here (cross-module optimization), but
        // it only watches the modules a target names, and Lifecycle's module file stays the same
        // when only what it builds on changes (a class's size, as `Application` gained a stored
        // property, left a stale `Application()` allocation here that overran the heap).
        .product(name: "InterfaceObjects", package: "Stasis"),
        .product(name: "Interface", package: "Stasis"),
        .product(name: "ObjectModel", package: "Stasis"),
        .product(name: "Bundles", package: "Stasis"),
        .product(name: "Sandbox", package: "Stasis"),
        .product(name: "StasisSystem", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/lifecycle-bench")
  ],
  swiftLanguageModes: [.v6]
)
