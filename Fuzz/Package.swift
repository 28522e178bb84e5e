// swift-tools-version: 6.0
// libFuzzer targets for every property-list reader, the keyed unarchiver, compiled nibs and Interface
// Builder documents. Kept out of the root manifest so that the library package stays small; see
// README.md for how to build and run them.
import PackageDescription

/// One executable per reader; each holds only its `LLVMFuzzerTestOneInput` entry point.
let fuzzTargets = [
  "FuzzBinaryPlist", "FuzzXMLPlist", "FuzzOpenStepPlist", "FuzzStringsFile", "FuzzJSONPlist", "FuzzAnyPlist",
]

let package = Package(
  name: "StasisFuzz",
  dependencies: [
    .package(name: "Stasis", path: "..")
  ],
  targets: [
    // Declares libFuzzer's LLVMFuzzerRunDriver; the runtime itself comes with -sanitize=fuzzer.
    .systemLibrary(name: "CLibFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: ["CLibFuzzer", .product(name: "PropertyLists", package: "Stasis")]),
  ]
    + fuzzTargets.map { name in
      .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "PropertyLists", package: "Stasis")])
    }
    + [
      // Compiled nibs in the NIBArchive format.
      .executableTarget(
        name: "FuzzNIBArchive",
        dependencies: ["FuzzSupport", .product(name: "Interface", package: "Stasis")]),
      // The nib loader: compiled nibs instantiated into live objects (lenient and strict).
      .executableTarget(
        name: "FuzzNibLoader",
        dependencies: [
          "FuzzSupport", .product(name: "Interface", package: "Stasis"), .product(name: "NibLoading", package: "Stasis"),
          .product(name: "InterfaceObjects", package: "Stasis"), .product(name: "ObjectModel", package: "Stasis"),
        ]),
      // NeXT typedstreams (NSArchiver; OPENSTEP nibs), their nib graphs, loaded leniently.
      .executableTarget(
        name: "FuzzTypedStream",
        dependencies: [
          "FuzzSupport", .product(name: "Interface", package: "Stasis"), .product(name: "NibLoading", package: "Stasis"),
          .product(name: "InterfaceObjects", package: "Stasis"),
        ]),
      // Interface Builder documents (.xib, .storyboard), read through libxml2.
      .executableTarget(
        name: "FuzzXibDocument",
        dependencies: [
          "FuzzSupport", .product(name: "InterfaceBuilder", package: "Stasis"), .product(name: "Interface", package: "Stasis"),
        ]),
      // Restoration snapshots (formats 1 and 2) on top of the keyed unarchiver.
      .executableTarget(
        name: "FuzzSnapshot",
        dependencies: ["FuzzSupport", .product(name: "Restoration", package: "Stasis")]),
      // The keyed unarchiver's checks, shared with Tests/KeyedArchiveTests/KeyedFuzzRegressionTests.swift:
      // Sources/FuzzKeyedArchiveChecks is a link to the root package's Tests/KeyedArchiveFuzzChecks
      // (a test-support target there, not a product; named apart, as target names are unique in a
      // package graph).
      .target(
        name: "FuzzKeyedArchiveChecks",
        dependencies: [.product(name: "KeyedArchive", package: "Stasis"), .product(name: "PropertyLists", package: "Stasis")]),
      // Keyed archives: NSKeyedArchiver's object graphs on top of the plist readers.
      .executableTarget(
        name: "FuzzKeyedUnarchiver",
        dependencies: [
          "FuzzSupport", "FuzzKeyedArchiveChecks", .product(name: "PropertyLists", package: "Stasis"),
          .product(name: "KeyedArchive", package: "Stasis"),
        ])
    ],
  swiftLanguageModes: [.v6]
)
