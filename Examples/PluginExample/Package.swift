// swift-tools-version: 6.2
// An app target whose Interface Builder documents are compiled by Stasis's IBToolPlugin: Notes.xib
// becomes Notes.nib and Base.lproj/Items.storyboard becomes Base.lproj/Items.storyboardc in the
// target's resource bundle, which the program then reads.
import PackageDescription

let package = Package(
  name: "PluginExample",
  // Base.lproj makes the storyboard a localized resource, which needs a development region.
  defaultLocalization: "en",
  dependencies: [.package(name: "Stasis", path: "../..")],
  targets: [
    .executableTarget(
      name: "PluginExample",
      dependencies: [.product(name: "Interface", package: "Stasis"), .product(name: "PropertyLists", package: "Stasis")],
      plugins: [.plugin(name: "IBToolPlugin", package: "Stasis")])
  ],
  swiftLanguageModes: [.v6]
)
