// swift-tools-version: 6.0
// Stasis — the application-persistence layer of a Cocoa app, in pure Swift.
import PackageDescription

let package = Package(
  name: "Stasis",
  products: [
    .library(name: "AtomicFiles", targets: ["AtomicFiles"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
    .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
    .library(name: "Sandbox", targets: ["Sandbox"]),
    .library(name: "Bundles", targets: ["Bundles"]),
    .library(name: "Defaults", targets: ["Defaults"]),
    .executable(name: "plutil", targets: ["plutil"]),
    .executable(name: "defaults", targets: ["defaults"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .target(name: "AtomicFiles", path: "Sources/AtomicFiles"),
    .target(name: "PropertyLists", dependencies: ["AtomicFiles"], path: "Sources/PropertyLists"),
    .target(name: "Sandbox", dependencies: ["AtomicFiles"], path: "Sources/Sandbox"),
    .target(name: "KeyedArchive", dependencies: ["PropertyLists"], path: "Sources/KeyedArchive"),
    .target(name: "Bundles", dependencies: ["PropertyLists"], path: "Sources/Bundles"),
    .target(
      name: "Defaults",
      dependencies: ["PropertyLists", "AtomicFiles", "Sandbox", "KeyedArchive", "Bundles"],
      path: "Sources/Defaults"),
    .target(
      name: "DefaultsTool",
      dependencies: ["Defaults", "PropertyLists", "Sandbox", "AtomicFiles"],
      path: "Sources/DefaultsTool"),
    .executableTarget(
      name: "defaults",
      dependencies: ["DefaultsTool"],
      path: "Tools/defaults"),
    .executableTarget(
      name: "stasis-defaults-child",
      dependencies: ["Defaults", "AtomicFiles", "PropertyLists", "Sandbox"],
      path: "Tools/stasis-defaults-child"),
    .target(
      name: "PlistTool",
      dependencies: ["PropertyLists", "KeyedArchive"],
      path: "Sources/PlistTool"),
    .executableTarget(
      name: "plutil",
      dependencies: ["PlistTool"],
      path: "Tools/plutil"),
    .executableTarget(
      name: "stasis-crash-writer",
      dependencies: ["AtomicFiles", "PropertyLists", "Sandbox"],
      path: "Tools/stasis-crash-writer"),
    .target(name: "TestSupport", dependencies: ["PropertyLists"], path: "Tests/TestSupport"),
    .testTarget(
      name: "PropertyListsTests",
      dependencies: ["PropertyLists", "TestSupport"],
      path: "Tests/PropertyListsTests"),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: ["KeyedArchive", "PropertyLists", "TestSupport"],
      path: "Tests/KeyedArchiveTests"),
    .testTarget(
      name: "BundlesTests",
      dependencies: ["Bundles", "PropertyLists", "TestSupport"],
      path: "Tests/BundlesTests"),
    .testTarget(
      name: "PlistToolTests",
      dependencies: ["PlistTool", "PropertyLists", "TestSupport"],
      path: "Tests/PlistToolTests",
      exclude: ["Snapshots"]),
    .testTarget(
      name: "AtomicFilesTests",
      dependencies: ["AtomicFiles", "PropertyLists", "TestSupport", "stasis-crash-writer"],
      path: "Tests/AtomicFilesTests"),
    .testTarget(
      name: "SandboxTests",
      dependencies: ["Sandbox", "AtomicFiles", "TestSupport", "stasis-crash-writer"],
      path: "Tests/SandboxTests"),
    .testTarget(
      name: "DefaultsTests",
      dependencies: ["Defaults", "Bundles", "PropertyLists", "Sandbox", "AtomicFiles", "TestSupport", "stasis-defaults-child"],
      path: "Tests/DefaultsTests"),
    .testTarget(
      name: "DefaultsToolTests",
      dependencies: ["DefaultsTool", "Defaults", "PropertyLists", "Sandbox", "TestSupport", "defaults"],
      path: "Tests/DefaultsToolTests"),
    .testTarget(
      name: "DocumentationExamplesTests",
      dependencies: ["PropertyLists", "KeyedArchive"],
      path: "Tests/DocumentationExamplesTests"),
  ],
  swiftLanguageModes: [.v6]
)
