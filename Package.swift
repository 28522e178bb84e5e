// swift-tools-version: 6.2
// Stasis — the application-persistence layer of a Cocoa app, in pure Swift.
import PackageDescription

let package = Package(
  name: "Stasis",
  products: [
    .library(name: "StasisErrors", targets: ["StasisErrors"]),
    .library(name: "AtomicFiles", targets: ["AtomicFiles"]),
    .library(name: "Host", targets: ["Host"]),
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
    .library(name: "Lifecycle", targets: ["Lifecycle"]),
    .library(name: "Restoration", targets: ["Restoration"]),
    .executable(name: "restoration", targets: ["restoration"]),
    .executable(name: "homepwner", targets: ["homepwner"]),
    // Homepwner's model and screens, for its benchmark (Benchmarks/Homepwner); not API.
    .library(name: "HomepwnerKit", targets: ["HomepwnerKit"]),
    .executable(name: "plutil", targets: ["plutil"]),
    .executable(name: "defaults", targets: ["defaults"]),
    .executable(name: "ibtool", targets: ["ibtool"]),
    // Compiles a target's .xib and .storyboard files with ibtool into its resources.
    .plugin(name: "IBToolPlugin", targets: ["IBToolPlugin"]),
    // The keyed unarchiver's fuzz checks, for the fuzz package (Fuzz/); not API.
    .library(name: "KeyedArchiveFuzzChecks", targets: ["KeyedArchiveFuzzChecks"]),
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // ibtool's command line (Apple's long flags, generated help and usage errors).
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
  ],
  targets: [
    .target(name: "StasisErrors", path: "Sources/StasisErrors"),
    // renameat2(2)'s RENAME_EXCHANGE through syscall(2), for replacing a folder in one step.
    .systemLibrary(name: "CRenameAt2", path: "Sources/CRenameAt2"),
    .target(name: "AtomicFiles", dependencies: ["StasisErrors", "CRenameAt2"], path: "Sources/AtomicFiles"),
    .target(name: "Host", dependencies: ["AtomicFiles"], path: "Sources/Host"),
    .target(name: "PropertyLists", dependencies: ["StasisErrors", "AtomicFiles"], path: "Sources/PropertyLists"),
    .target(name: "ObjectModel", dependencies: ["StasisErrors"], path: "Sources/ObjectModel"),
    .target(name: "Sandbox", dependencies: ["StasisErrors", "AtomicFiles", "Host"], path: "Sources/Sandbox"),
    .target(
      name: "KeyedArchive", dependencies: ["StasisErrors", "PropertyLists", "ObjectModel"], path: "Sources/KeyedArchive"),
    .target(name: "Bundles", dependencies: ["StasisErrors", "PropertyLists", "Host"], path: "Sources/Bundles"),
    .target(name: "Interface", dependencies: ["StasisErrors", "AtomicFiles", "PropertyLists"], path: "Sources/Interface"),
    // libxml2 (apt: libxml2-dev), the XML parser behind the xib and storyboard reader.
    .systemLibrary(
      name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
    .target(
      name: "InterfaceBuilder", dependencies: ["StasisErrors", "AtomicFiles", "PropertyLists", "Interface", "CLibXML2"],
      path: "Sources/InterfaceBuilder",
      // ColorProfiles/: the .icc files ColorProfiles+Bytes.swift holds as bytes, and their README.
      exclude: ["ColorProfiles"]),
    .target(
      name: "InterfaceObjects", dependencies: ["StasisErrors", "ObjectModel", "Interface", "Bundles"],
      path: "Sources/InterfaceObjects"),
    .target(
      name: "NibLoading",
      dependencies: ["StasisErrors", "AtomicFiles", "PropertyLists", "ObjectModel", "Interface", "InterfaceBuilder", "InterfaceObjects", "Bundles"],
      path: "Sources/NibLoading"),
    // eventfd(2) (sys/eventfd.h), for cgroup v1 memory-pressure notifications.
    .systemLibrary(name: "CEventFD", path: "Sources/CEventFD"),
    .target(
      name: "Lifecycle",
      dependencies: ["StasisErrors", "AtomicFiles", "Host", "Sandbox", "Interface", "InterfaceObjects", "CEventFD"],
      path: "Sources/Lifecycle"),
    .target(
      name: "Restoration",
      dependencies: ["StasisErrors", "AtomicFiles", "PropertyLists", "KeyedArchive", "Sandbox", "Lifecycle", "InterfaceObjects"],
      path: "Sources/Restoration"),
    // The `restoration` command (dump, diff, why) over snapshots and saved-state folders.
    .target(
      name: "RestorationTool",
      dependencies: ["Restoration", "PropertyLists", "AtomicFiles", "Host"],
      path: "Sources/RestorationTool"),
    .executableTarget(
      name: "restoration",
      dependencies: ["RestorationTool", "Host"],
      path: "Tools/restoration"),
    // The child process of the lifecycle tests: an app run by a real host, logging its callbacks.
    .executableTarget(
      name: "stasis-lifecycle-child",
      dependencies: ["Lifecycle", "InterfaceObjects"],
      path: "Tools/stasis-lifecycle-child"),
    .target(
      name: "Defaults",
      dependencies: ["StasisErrors", "PropertyLists", "AtomicFiles", "Host", "Sandbox", "KeyedArchive", "Bundles"],
      path: "Sources/Defaults"),
    .target(
      name: "DefaultsTool",
      dependencies: ["Defaults", "PropertyLists", "Sandbox", "AtomicFiles", "Host", "Bundles"],
      path: "Sources/DefaultsTool"),
    .executableTarget(
      name: "defaults",
      dependencies: ["DefaultsTool", "Host"],
      path: "Tools/defaults"),
    .executableTarget(
      name: "stasis-defaults-child",
      dependencies: ["Defaults", "AtomicFiles", "PropertyLists", "Sandbox"],
      path: "Tools/stasis-defaults-child"),
    .target(
      name: "IBTool",
      dependencies: [
        "StasisErrors", "Interface", "InterfaceBuilder", "Host", "AtomicFiles", "PropertyLists",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/IBTool"),
    .executableTarget(name: "ibtool", dependencies: ["IBTool", "Host"], path: "Tools/ibtool"),
    .plugin(name: "IBToolPlugin", capability: .buildTool(), dependencies: ["ibtool"], path: "Plugins/IBToolPlugin"),
    .target(
      name: "PlistTool",
      dependencies: ["StasisErrors", "PropertyLists", "KeyedArchive", "Host", "AtomicFiles"],
      path: "Sources/PlistTool"),
    .executableTarget(
      name: "plutil",
      dependencies: ["PlistTool", "Host"],
      path: "Tools/plutil"),
    .executableTarget(
      name: "stasis-crash-writer",
      dependencies: ["AtomicFiles", "PropertyLists", "Sandbox"],
      path: "Tools/stasis-crash-writer"),
    .target(
      name: "TestSupport",
      dependencies: [
        "AtomicFiles", "PropertyLists", "KeyedArchive", "Sandbox", "Bundles", "Defaults", "Interface", "InterfaceBuilder",
        "InterfaceObjects", "NibLoading", "Lifecycle",
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
        "Restoration", "RestorationSampleApp", "Lifecycle", "InterfaceObjects", "KeyedArchive", "PropertyLists", "Sandbox", "TestSupport",
        "stasis-restoration-child", "plutil",
      ],
      path: "Tests/RestorationTests"),
    .testTarget(
      name: "RestorationToolTests",
      dependencies: [
        "RestorationTool", "Restoration", "RestorationSampleApp", "Lifecycle", "InterfaceObjects", "Host", "TestSupport",
      ],
      path: "Tests/RestorationToolTests"),
    // What FuzzKeyedUnarchiver checks on each input; KeyedArchiveTests replays the fail cases through it.
    .target(
      name: "KeyedArchiveFuzzChecks",
      dependencies: ["KeyedArchive", "PropertyLists"],
      path: "Tests/KeyedArchiveFuzzChecks"),
    .testTarget(
      name: "NibLoadingTests",
      dependencies: ["NibLoading", "InterfaceObjects", "Interface", "InterfaceBuilder", "ObjectModel", "Bundles", "TestSupport"],
      path: "Tests/NibLoadingTests",
      exclude: ["Oracles"]),
    .testTarget(
      name: "LifecycleTests",
      dependencies: ["Lifecycle", "InterfaceObjects", "Interface", "NibLoading", "Sandbox", "TestSupport", "stasis-lifecycle-child"],
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
      name: "HostTests",
      dependencies: ["Host", "AtomicFiles"],
      path: "Tests/HostTests"),
    .testTarget(
      name: "PropertyListsTests",
      dependencies: ["PropertyLists", "TestSupport"],
      path: "Tests/PropertyListsTests"),
    .testTarget(
      name: "KeyedArchiveTests",
      dependencies: ["KeyedArchive", "KeyedArchiveFuzzChecks", "PropertyLists", "AtomicFiles", "StasisErrors", "TestSupport"],
      path: "Tests/KeyedArchiveTests"),
    .testTarget(
      name: "BundlesTests",
      dependencies: ["Bundles", "Host", "PropertyLists", "TestSupport"],
      path: "Tests/BundlesTests",
      exclude: ["Oracles"]),
    .testTarget(
      name: "PlistToolTests",
      dependencies: ["PlistTool", "PropertyLists", "Host", "AtomicFiles", "TestSupport", "plutil"],
      path: "Tests/PlistToolTests",
      exclude: ["Snapshots"]),
    .testTarget(
      name: "AtomicFilesTests",
      dependencies: [
        "AtomicFiles", "PropertyLists", "KeyedArchive", "StasisErrors", "TestSupport", "stasis-crash-writer",
        // The write paths Tools/fault-harness.sh runs (FaultHarnessTests).
        "plutil", "defaults", "ibtool", "stasis-restoration-child",
      ],
      path: "Tests/AtomicFilesTests"),
    .testTarget(
      name: "SandboxTests",
      dependencies: ["Sandbox", "AtomicFiles", "TestSupport", "stasis-crash-writer"],
      path: "Tests/SandboxTests"),
    .testTarget(
      name: "DefaultsTests",
      dependencies: ["Defaults", "Bundles", "Host", "PropertyLists", "Sandbox", "AtomicFiles", "TestSupport", "stasis-defaults-child"],
      path: "Tests/DefaultsTests"),
    .testTarget(
      name: "DefaultsToolTests",
      dependencies: ["DefaultsTool", "Defaults", "PropertyLists", "Sandbox", "Host", "TestSupport", "defaults"],
      path: "Tests/DefaultsToolTests"),
    // Homepwner, the seeds' reference app (issue 19): its model, stores and screens.
    .target(
      name: "HomepwnerKit",
      dependencies: ["StasisErrors", "AtomicFiles", "Sandbox", "KeyedArchive", "Lifecycle", "Restoration", "InterfaceObjects", "Defaults", "Bundles", "NibLoading", "ObjectModel"],
      path: "Examples/Homepwner/HomepwnerKit"),
    .executableTarget(
      name: "homepwner",
      dependencies: ["HomepwnerKit", "Lifecycle", "Sandbox", "Defaults", "Bundles"],
      path: "Examples/Homepwner/homepwner"),
    .testTarget(
      name: "HomepwnerTests",
      dependencies: [
        "HomepwnerKit", "KeyedArchive", "PropertyLists", "Lifecycle", "Sandbox", "Defaults", "Bundles", "Host", "TestSupport", "homepwner",
        "defaults", "ibtool", "NibLoading", "InterfaceObjects", "ObjectModel",
      ],
      path: "Tests/HomepwnerTests"),
    // The README's and the DocC overviews' Swift examples as one program (run by DocumentationExamplesTests).
    .executableTarget(
      name: "readme-examples",
      dependencies: [
        "PropertyLists", "KeyedArchive", "Sandbox", "AtomicFiles", "Defaults", "Bundles", "Host", "ObjectModel", "StasisErrors",
        "Interface", "InterfaceBuilder", "InterfaceObjects", "NibLoading", "Lifecycle", "Restoration",
      ],
      path: "Examples/ReadmeExamples"),
    .testTarget(
      name: "InterfaceTests",
      dependencies: ["Interface", "PropertyLists", "TestSupport"],
      path: "Tests/InterfaceTests",
      exclude: ["Oracles"]),
    .testTarget(
      name: "InterfaceBuilderTests",
      dependencies: ["InterfaceBuilder", "Interface", "IBTool", "PropertyLists", "TestSupport", "ibtool"],
      path: "Tests/InterfaceBuilderTests"),
    .testTarget(
      name: "DocumentationExamplesTests",
      dependencies: ["PropertyLists", "KeyedArchive", "TestSupport", "readme-examples", "plutil", "defaults", "ibtool"],
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
