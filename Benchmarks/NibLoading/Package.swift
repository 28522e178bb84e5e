// swift-tools-version: 6.0
// The nib-loading benchmark: instantiating a generated 1,000-object macOS nib (views,
// controls, a menu, outlets, actions, runtime attributes) again and again, from its parsed graph
// and from its bytes, beside KeyedArchive (and Foundation's NSKeyedUnarchiver) decoding graphs of
// the same number of objects, and the first load of a storyboard scene. A nested package so that
// the root manifest stays small; run it through `Benchmarks/NibLoading/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisNibLoadingBenchmark",
  products: [
    .executable(name: "nib-bench", targets: ["nib-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "nib-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "Interface", package: "Stasis"),
        .product(name: "InterfaceBuilder", package: "Stasis"),
        .product(name: "InterfaceObjects", package: "Stasis"),
        .product(name: "NibLoading", package: "Stasis"),
        .product(name: "KeyedArchive", package: "Stasis"),
        .product(name: "ObjectModel", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
      ],
      path: "Sources/nib-bench")
  ],
  swiftLanguageModes: [.v6]
)
