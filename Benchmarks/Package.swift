// swift-tools-version: 6.0
// The property-list benchmark: Stasis against Foundation and libplist on the item-store documents.
// A nested package so that the root manifest stays small; run it through `Benchmarks/run.sh`.
import PackageDescription

let package = Package(
  name: "StasisBenchmarks",
  products: [
    .executable(name: "plist-bench", targets: ["plist-bench"])
  ],
  dependencies: [
    .package(name: "Stasis", path: ".."),
    .package(path: "Support/BenchSupport"),
  ],
  targets: [
    // libplist (Debian: libplist-dev), the fastest C peer.
    .systemLibrary(
      name: "CLibplist",
      path: "Sources/CLibplist",
      pkgConfig: "libplist-2.0",
      providers: [.apt(["libplist-dev"])]),
    .executableTarget(
      name: "plist-bench",
      dependencies: [
        .product(name: "PropertyLists", package: "Stasis"),
        .product(name: "BenchSupport", package: "BenchSupport"),
        "CLibplist",
      ],
      path: "Sources/plist-bench"),
  ],
  swiftLanguageModes: [.v6]
)
