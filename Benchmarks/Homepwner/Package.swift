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
    // The app's model and screens, compiled here from Examples/Homepwner/HomepwnerKit (a link):
    // the root package keeps them out of its products, as they are not API.
    .target(
      name: "HomepwnerBenchKit",
      dependencies: [
        .product(name: "StasisSystem", package: "Stasis"), .product(name: "Sandbox", package: "Stasis"),
        .product(name: "KeyedArchive", package: "Stasis"), .product(name: "Lifecycle", package: "Stasis"),
        .product(name: "Restoration", package: "Stasis"), .product(name: "InterfaceObjects", package: "Stasis"),
        .product(name: "Defaults", package: "Stasis"), .product(name: "Bundles", package: "Stasis"),
        .product(name: "NibLoading", package: "Stasis"), .product(name: "ObjectModel", package: "Stasis"),
        .product(name: "InterfaceRendering", package: "Stasis"), .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/HomepwnerKit"),
    .executableTarget(
      name: "homepwner-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        "HomepwnerBenchKit",
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

