// swift-tools-version: 6.0
// The interface-file benchmark: whole-process `ibtool --compile` on the corpus xibs and
// storyboards, NIBArchive reading and writing in MB/s against the Python `nibarchive` package, and
// peak memory. A nested package so that the root manifest stays small; run it through
// `Benchmarks/Interface/run.sh`, which also builds the root package's `ibtool` in the same scratch.
import PackageDescription

let package = Package(
  name: "StasisInterfaceBenchmark",
  products: [
    .executable(name: "interface-bench", targets: ["interface-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: "../.."),
    .package(path: "../Support/BenchSupport"),
  ],
  targets: [
    .executableTarget(
      name: "interface-bench",
      dependencies: [
        .product(name: "BenchSupport", package: "BenchSupport"),
        .product(name: "StasisSystem", package: "Stasis"),
        .product(name: "PropertyLists", package: "Stasis"),
        .product(name: "Interface", package: "Stasis"),
        .product(name: "InterfaceBuilder", package: "Stasis"),
      ],
      path: "Sources/interface-bench")
  ],
  swiftLanguageModes: [.v6]
)
