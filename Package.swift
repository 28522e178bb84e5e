// swift-tools-version: 6.2
// Stasis — the application-persistence layer of a Cocoa app, in pure Swift.
import PackageDescription

let package = Package(
  name: "Stasis",
  products: [
    .library(name: "StasisSystem", targets: ["StasisSystem"]),
    // Test doubles of the outside world: an in-memory file system with injectable faults and
    // crashes, a manual clock, scripted signals, memory pressure and terminal.
    .library(name: "StasisSystemTesting", targets: ["StasisSystemTesting"]),
    .library(name: "ObjectModel", targets: ["ObjectModel"]),
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
    .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
    .library(name: "Sandbox", targets: ["Sandbox"]),
    .library(name: "Bundles", targets: ["Bundles"]),
    .library(name: "Defaults", targets: ["Defaults"]),
    .library(name: "Interface", targets: ["Interface"]),
    .library(name: "InterfaceBuilder", targets: ["InterfaceBuilder"]),
    .library(name: "InterfaceObjects", targets: ["InterfaceObjects"]),
    .library(name: "NibLoading", targets: ["NibLoading"]),
    .library(name: "InterfaceRendering", targets: ["InterfaceRendering"]),
    .library(name: "Lifecycle", targets: ["Lifecycle"]),
    .library(name: "Restoration", targets: ["Restoration"]),
    .executable(name: "restoration", targets: ["restoration"]),
    .executable(name: "homepwner", targets: ["homepwner"]),
    .executable(name: "plutil", targets: ["plutil"]),
    .executable(name: "defaults", targets: ["defaults"]),
    .executable(name: "ibtool", targets: ["ibtool"]),
    // Compiles a target's .xib and .storyboard files with ibtool into its resources.
    .plugin(name: "IBToolPlugin", targets: ["IBToolPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // ibtool's command line (Apple's long flags, generated help and usage errors).
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    // renameat2(2)'s RENAME_EXCHANGE through syscall(2), for replacing a folder in one step.
    .systemLibrary(name: "CRenameAt2", path: "Sources/CRenameAt2"),
    // eventfd(2) (sys/eventfd.h), for cgroup v1 memory-pressure notifications.
    .systemLibrary(name: "CEventFD", path: "Sources/CEventFD"),
    // The bottom module: the error shape, crash-safe files, the outside world (HostEnvironment).
    .target(name: "StasisSystem", dependencies: ["CRenameAt2", "CEventFD"], path: "Sources/StasisSystem"),
    // Test doubles of the outside world: in-memory files with faults, a manual clock, scripted events.
    .target(name: "StasisSystemTesting", dependencies: ["StasisSystem"], path: "Sources/StasisSystemTesting"),
    // __builtin_prefetch, for the binary plist writer's read-ahead of its uniquing tables and
    // restoration's passes over the restored objects.
    .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),
    .target(name: "PropertyLists", dependencies: ["StasisSystem", "CPrefetch"], path: "Sources/PropertyLists"),
    .target(name: "ObjectModel", dependencies: ["StasisSystem"], path: "Sources/ObjectModel"),
    .target(name: "Sandbox", dependencies: ["StasisSystem"], path: "Sources/Sandbox"),
    .target(
      name: "KeyedArchive", dependencies: ["StasisSystem", "PropertyLists", "ObjectModel", "CPrefetch"], path: "Sources/KeyedArchive"),
    .target(name: "Bundles", dependencies: ["StasisSystem", "PropertyLists"], path: "Sources/Bundles"),
    .target(name: "Interface", dependencies: ["StasisSystem", "PropertyLists"], path: "Sources/Interface"),
    // libxml2 (apt: libxml2-dev), the XML parser behind the xib and storyboard reader.
    .systemLibrary(
      name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .target(
      name: "InterfaceBuilder", dependencies: ["StasisSystem", "PropertyLists", "Interface", "CLibXML2"],
      path: "Sources/InterfaceBuilder",
      // AppKit/ColorProfiles/: the .icc files ColorProfiles+Bytes.swift holds as bytes, and their README.
      exclude: ["AppKit/ColorProfiles"]),
    .target(
      name: "InterfaceObjects", dependencies: ["StasisSystem", "ObjectModel", "Interface", "Bundles"],
      path: "Sources/InterfaceObjects"),
    // Loaded view trees as drawing primitives; the SVG and terminal back ends.
    .target(name: "InterfaceRendering", dependencies: ["InterfaceObjects", "StasisSystem"], path: "Sources/InterfaceRendering"),
    .target(
      name: "NibLoading",
      dependencies: [
        "StasisSystem", "PropertyLists", "ObjectModel", "Interface", "InterfaceBuilder", "InterfaceObjects",
        "Bundles",
      ],
      path: "Sources/NibLoading"),
    .target(
      name: "Lifecycle",
      dependencies: ["StasisSystem", "Sandbox", "InterfaceObjects"],
      path: "Sources/Lifecycle"),
    .target(
      name: "Restoration",
      dependencies: ["StasisSystem", "PropertyLists", "KeyedArchive", "Sandbox", "Lifecycle", "InterfaceObjects", "CPrefetch"],
      path: "Sources/Restoration"),
    // The `restoration` command (dump, diff, why) over snapshots and saved-state folders.
    .target(
      name: "RestorationTool",
      dependencies: ["Restoration", "PropertyLists", "StasisSystem"],
      path: "Sources/RestorationTool"),
    .executableTarget(
      name: "restoration",
      dependencies: ["RestorationTool", "StasisSystem"],
      path: "Tools/restoration"),
    // The child process of the lifecycle tests: an app run by a real host, logging its callbacks.
    .executableTarget(
      name: "stasis-lifecycle-child",
      dependencies: ["Lifecycle", "StasisSystem"],
      path: "Tools/stasis-lifecycle-child"),
    .target(
      name: "Defaults",
      dependencies: ["StasisSystem", "PropertyLists", "Sandbox", "KeyedArchive", "Bundles"],
      path: "Sources/Defaults"),
    .target(
      name: "DefaultsTool",
      dependencies: ["Defaults", "PropertyLists", "Sandbox", "StasisSystem"],
      path: "Sources/DefaultsTool"),
    .executableTarget(
      name: "defaults",
      dependencies: ["DefaultsTool", "StasisSystem"],
      path: "Tools/defaults"),
    .executableTarget(
      name: "stasis-defaults-child",
      dependencies: ["Defaults", "StasisSystem", "PropertyLists", "Sandbox"],
      path: "Tools/stasis-defaults-child"),
    .target(
      name: "IBTool",
      dependencies: [
        "StasisSystem", "Interface", "InterfaceBuilder", "PropertyLists", "InterfaceObjects", "InterfaceRendering", "NibLoading",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/IBTool"),
    .executableTarget(name: "ibtool", dependencies: ["IBTool", "StasisSystem"], path: "Tools/ibtool"),
    .plugin(name: "IBToolPlugin", capability: .buildTool(), dependencies: ["ibtool"], path: "Plugins/IBToolPlugin"),
    .target(
      name: "PlistTool",
      dependencies: ["StasisSystem", "PropertyLists", "KeyedArchive"],
      path: "Sources/PlistTool"),
    .executableTarget(
      name: "plutil",
      dependencies: ["PlistTool", "StasisSystem"],
      path: "Tools/plutil"),
    .executableTarget(
      name: "stasis-crash-writer",
      dependencies: ["StasisSystem", "PropertyLists", "Sandbox", "HomepwnerKit"],
      path: "Tools/stasis-crash-writer"),
    .target(
      name: "TestSupport",
      dependencies: [
        "StasisSystem", "StasisSystemTesting", "PropertyLists", "KeyedArchive", "Sandbox", "Bundles", "Defaults",
        "Interface", "InterfaceBuilder", "InterfaceObjects", "NibLoading", "Lifecycle",
      ],
      path: "Tests/TestSupport"),
    // The small app of the restoration tests and of their child process (not API).
    .target(
      name: "RestorationSampleApp",
      dependencies: ["Restoration", "Lifecycle", "InterfaceObjects"],
      path: "Tests/RestorationSampleApp"),
    // The child process of the restoration tests: the sample app, restored, driven, saved, killed.
    .executableTarget(
      name: "stasis-restoration-child",
      dependencies: ["RestorationSampleApp", "Restoration", "Lifecycle"],
      path: "Tools/stasis-restoration-child"),
    .testTarget(
      name: "RestorationTests",
      dependencies: [
        "Restoration", "RestorationSampleApp", "Lifecycle", "InterfaceObjects", "KeyedArchive", "PropertyLists",
        "Sandbox", "StasisSystem", "StasisSystemTesting", "TestSupport", "stasis-restoration-child", "plutil",
      ],
      path: "Tests/RestorationTests"),
    .testTarget(
      name: "RestorationToolTests",
      dependencies: [
        "RestorationTool", "Restoration", "RestorationSampleApp", "Lifecycle", "InterfaceObjects", "StasisSystem",
        "TestSupport",
      ],
      path: "Tests/RestorationToolTests"),
    // What FuzzKeyedUnarchiver checks on each input; KeyedArchiveTests replays the fail cases through it
    // (the fuzz package compiles the same folder itself, through a link: it is not a product).
    .target(
      name: "KeyedArchiveFuzzChecks",
      dependencies: ["KeyedArchive", "PropertyLists"],
      path: "Tests/KeyedArchiveFuzzChecks"),
    .testTarget(
      name: "NibLoadingTests",
      dependencies: [
        "NibLoading", "InterfaceObjects", "Interface", "InterfaceBuilder", "ObjectModel", "Bundles", "PropertyLists",
        "StasisSystem", "StasisSystemTesting", "TestSupport",
      ],
      path: "Tests/NibLoadingTests",
      exclude: ["Oracles"]),
    // The headless classes alone: decoding Apple's compiled nibs, view trees, reference cycles, the registry.
    .testTarget(
      name: "InterfaceObjectsTests",
      dependencies: ["InterfaceObjects", "Interface", "ObjectModel", "TestSupport"],
      path: "Tests/InterfaceObjectsTests"),
    .testTarget(
      name: "LifecycleTests",
      dependencies: [
        "Lifecycle", "InterfaceObjects", "Interface", "NibLoading", "Sandbox", "StasisSystem", "StasisSystemTesting",
        "TestSupport", "stasis-lifecycle-child",
      ],
      path: "Tests/LifecycleTests"),
    .testTarget(
      name: "ObjectModelTests",
      dependencies: ["ObjectModel"],
      path: "Tests/ObjectModelTests"),
    .testTarget(
      name: "NamePolicyTests",
      dependencies: ["Bundles", "Defaults", "PropertyLists"],
      path: "Tests/NamePolicyTests"),
    .testTarget(
      name: "PropertyListsTests",
      dependencies: ["PropertyLists", "StasisSystem", "StasisSystemTesting", "TestSupport"],
      path: "Tests/PropertyListsTests"),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: ["KeyedArchive", "KeyedArchiveFuzzChecks", "PropertyLists", "StasisSystem", "StasisSystemTesting", "TestSupport"],
      path: "Tests/KeyedArchiveTests"),
    .testTarget(
      name: "BundlesTests",
      dependencies: ["Bundles", "StasisSystem", "PropertyLists", "TestSupport"],
      path: "Tests/BundlesTests",
      exclude: ["Oracles"]),
    .testTarget(
      name: "PlistToolTests",
      dependencies: ["PlistTool", "PropertyLists", "StasisSystem", "StasisSystemTesting", "TestSupport", "plutil"],
      path: "Tests/PlistToolTests",
      exclude: ["Snapshots"]),
    .testTarget(
      name: "StasisSystemTests",
      dependencies: [
        "StasisSystem", "StasisSystemTesting", "PropertyLists", "KeyedArchive", "TestSupport", "stasis-crash-writer",
        // The write paths Tools/fault-harness.sh runs (FaultHarnessTests).
        "plutil", "defaults", "ibtool", "stasis-restoration-child",
      ],
      path: "Tests/StasisSystemTests"),
    .testTarget(
      name: "SandboxTests",
      dependencies: ["Sandbox", "StasisSystem", "StasisSystemTesting", "TestSupport", "stasis-crash-writer"],
      path: "Tests/SandboxTests"),
    .testTarget(
      name: "DefaultsTests",
      dependencies: [
        "Defaults", "Bundles", "StasisSystem", "StasisSystemTesting", "PropertyLists", "Sandbox", "TestSupport",
        "stasis-defaults-child",
      ],
      path: "Tests/DefaultsTests"),
    .testTarget(
      name: "DefaultsToolTests",
      dependencies: [
        "DefaultsTool", "Defaults", "PropertyLists", "Sandbox", "StasisSystem", "TestSupport", "defaults",
      ],
      path: "Tests/DefaultsToolTests"),
    // Homepwner, the seeds' reference app: its model, stores and screens (not a product; its
    // benchmark compiles the folder itself, through a link).
    .target(
      name: "HomepwnerKit",
      dependencies: [
        "StasisSystem", "Sandbox", "KeyedArchive", "Lifecycle", "Restoration", "InterfaceObjects", "Defaults",
        "Bundles", "NibLoading", "ObjectModel", "InterfaceRendering", "PropertyLists",
      ],
      path: "Examples/Homepwner/HomepwnerKit"),
    .executableTarget(
      name: "homepwner",
      dependencies: ["HomepwnerKit", "Lifecycle", "Sandbox", "Defaults", "Bundles", "InterfaceRendering"],
      path: "Examples/Homepwner/homepwner"),
    .testTarget(
      name: "HomepwnerTests",
      dependencies: [
        "HomepwnerKit", "KeyedArchive", "PropertyLists", "Lifecycle", "Sandbox", "Defaults", "Bundles",
        "StasisSystem", "StasisSystemTesting", "TestSupport", "homepwner", "defaults", "ibtool", "NibLoading", "InterfaceObjects",
        "ObjectModel", "InterfaceRendering",
      ],
      path: "Tests/HomepwnerTests"),
    // The README's and the DocC overviews' Swift examples as one program (run by DocumentationExamplesTests).
    .executableTarget(
      name: "readme-examples",
      dependencies: [
        "PropertyLists", "KeyedArchive", "Sandbox", "StasisSystem", "Defaults", "Bundles", "ObjectModel",
        "Interface", "InterfaceBuilder", "InterfaceObjects", "NibLoading", "Lifecycle", "Restoration",
      ],
      path: "Examples/ReadmeExamples"),
    .testTarget(
      name: "InterfaceTests",
      dependencies: ["Interface", "PropertyLists", "TestSupport"],
      path: "Tests/InterfaceTests",
      exclude: ["Oracles"]),
    .testTarget(
      name: "InterfaceRenderingTests",
      dependencies: [
        "InterfaceRendering", "InterfaceObjects", "InterfaceBuilder", "NibLoading", "IBTool", "StasisSystem", "TestSupport", "ibtool",
      ],
      path: "Tests/InterfaceRenderingTests",
      exclude: ["References"]),
    .testTarget(
      name: "InterfaceBuilderTests",
      dependencies: [
        "InterfaceBuilder", "Interface", "IBTool", "PropertyLists", "StasisSystem", "StasisSystemTesting", "TestSupport", "ibtool",
      ],
      path: "Tests/InterfaceBuilderTests"),
    .testTarget(
      name: "DocumentationExamplesTests",
      dependencies: [
        "PropertyLists", "KeyedArchive", "TestSupport", "readme-examples", "plutil", "defaults", "ibtool",
        "InterfaceObjects", "InterfaceRendering",
      ],
      path: "Tests/DocumentationExamplesTests"),
  ],
  swiftLanguageModes: [.v6]
)

// Every target: imports are internal unless marked `public import` (so no module leaks into the
// public interface by accident), and a member is visible only where its module is imported.
for target in package.targets where target.type != .system && target.type != .plugin {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
