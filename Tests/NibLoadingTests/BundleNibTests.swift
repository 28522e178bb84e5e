import Bundles
import Foundation
import StasisSystem
import Interface
import InterfaceBuilder
import InterfaceObjects
@_spi(Testing) import NibLoading
import ObjectModel
import PropertyLists
import Testing
import TestSupport

/// Nibs and storyboards by name through a bundle: `Base.lproj` with the user's language's
/// `.strings`, `~iphone`/`~ipad` variants, and the nib cache a memory warning empties.
@MainActor
@Suite struct BundleNibTests {
  static func xib(label: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="15505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none">
        <objects>
          <placeholder placeholderIdentifier="IBFilesOwner" id="-1"/>
          <placeholder placeholderIdentifier="IBFirstResponder" id="-2"/>
          <view contentMode="scaleToFill" id="aaa-00-001">
            <rect key="frame" x="0.0" y="0.0" width="320" height="80"/>
            <subviews>
              <label text="\(label)" id="lbl-00-001">
                <rect key="frame" x="10" y="10" width="300" height="20"/>
              </label>
            </subviews>
          </view>
        </objects>
      </document>
      """.utf8)
  }

  /// Compiles `xib` into NIBArchive bytes, as a bundle ships it.
  static func nibBytes(_ xib: [UInt8]) throws -> [UInt8] {
    NIBArchive(try CocoaTouchCompiler.compile(try InterfaceDocument(bytes: xib))).encoded()
  }

  static func makeBundle(_ folder: ScratchFolder) throws -> String {
    let root = folder.file("Demo.app")
    for sub in ["Base.lproj", "fr.lproj"] {
      try FileManager.default.createDirectory(atPath: root + "/" + sub, withIntermediateDirectories: true)
    }
    try folder.write(Array("<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>com.example.demo</string><key>CFBundleDevelopmentRegion</key><string>en</string></dict></plist>".utf8), to: "Demo.app/Info.plist")
    try folder.write(try nibBytes(xib(label: "Hello")), to: "Demo.app/Base.lproj/Item.nib")
    try folder.write(try nibBytes(xib(label: "Hello, iPad")), to: "Demo.app/Base.lproj/Item~ipad.nib")
    try folder.write(Array("\"lbl-00-001.text\" = \"Bonjour\";\n".utf8), to: "Demo.app/fr.lproj/Item.strings")
    return root
  }

  static func label(of objects: [AnyObject]) -> String? {
    (objects.first as? View)?.subviews.compactMap { $0 as? Label }.first?.text
  }

  @Test func nibByNameIsLocalizedAndPicksTheDeviceVariant() throws {
    let folder = try ScratchFolder("bundle-nib")
    defer { folder.remove() }
    let root = try Self.makeBundle(folder)
    let phoneFrench = try Bundle(path: root, environment: .languages(["fr"], device: DeviceTraits(platform: "iphoneos", product: "iphone")))
    #expect(Self.label(of: try Nib(named: "Item", bundle: phoneFrench, cache: nil).instantiate(withOwner: nil)) == "Bonjour")
    let padEnglish = try Bundle(path: root, environment: .languages(["en"], device: DeviceTraits(platform: "iphoneos", product: "ipad")))
    #expect(Self.label(of: try Nib(named: "Item", bundle: padEnglish, cache: nil).instantiate(withOwner: nil)) == "Hello, iPad")
    let phoneEnglish = try Bundle(path: root, environment: .languages(["en"], device: DeviceTraits(platform: "iphoneos", product: "iphone")))
    #expect(Self.label(of: try Nib(named: "Item", bundle: phoneEnglish, cache: nil).instantiate(withOwner: nil)) == "Hello")
    #expect(throws: NibLoadingError.self) { try Nib(named: "Missing", bundle: phoneEnglish, cache: nil) }
  }

  @Test func theCacheKeepsNibsUntilAMemoryWarning() throws {
    let folder = try ScratchFolder("bundle-nib-cache")
    defer { folder.remove() }
    let root = try Self.makeBundle(folder)
    let bundle = try Bundle(path: root, environment: .languages(["en"], device: DeviceTraits(platform: "iphoneos", product: "iphone")))
    let cache = NibCache()
    _ = try Nib(named: "Item", bundle: bundle, cache: cache)
    _ = try Nib(named: "Item", bundle: bundle, cache: cache)
    #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1 && cache.count == 1)
    // The file changes on disk: the cache still answers the old nib until it is emptied.
    try folder.write(try Self.nibBytes(Self.xib(label: "Changed")), to: "Demo.app/Base.lproj/Item.nib")
    #expect(Self.label(of: try Nib(named: "Item", bundle: bundle, cache: cache).instantiate(withOwner: nil)) == "Hello")
    cache.removeAll()
    #expect(cache.count == 0)
    #expect(Self.label(of: try Nib(named: "Item", bundle: bundle, cache: cache).instantiate(withOwner: nil)) == "Changed")
    #expect(cache.statistics.misses == 2)
  }

  @Test func theCacheHoldsAtMostItsLimit() throws {
    let folder = try ScratchFolder("bundle-nib-limit")
    defer { folder.remove() }
    let cache = NibCache(maximumCount: 2)
    for index in 0..<4 {
      try folder.write(try Self.nibBytes(Self.xib(label: "\(index)")), to: "n\(index).nib")
      _ = try Nib(contentsOf: folder.file("n\(index).nib"), cache: cache)
    }
    #expect(cache.count == 2)
  }

  /// A storyboard by name: Kraftstoff's, compiled into a bundle's Base.lproj with the corpus's
  /// French strings beside it, opens in French.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func storyboardByNameIsLocalized() throws {
    let folder = try ScratchFolder("bundle-storyboard")
    defer { folder.remove() }
    let root = try Self.makeBundle(folder)
    let compiled = try CocoaTouchStoryboardCompiler.compile(
      try InterfaceDocument(contentsOfFile: Corpus.file("xib/kraftstoff/MainStoryboard.storyboard").path))
    let storyboardFolder = root + "/Base.lproj/MainStoryboard.storyboardc"
    try FileManager.default.createDirectory(atPath: storyboardFolder, withIntermediateDirectories: true)
    try compiled.info.write(toFile: storyboardFolder + "/Info.plist", format: .binary)
    for (name, graph) in compiled.nibs { try NIBArchive(graph).write(toFile: storyboardFolder + "/" + name + ".nib") }
    let strings = try Data(contentsOf: Corpus.file("strings/kraftstoff/fr.lproj/MainStoryboard.strings").url)
    try folder.write(Array(strings), to: "Demo.app/fr.lproj/MainStoryboard.strings")
    let bundle = try Bundle(path: root, environment: .languages(["fr"], device: DeviceTraits(platform: "iphoneos", product: "iphone")))
    let storyboard = try Storyboard(name: "MainStoryboard", bundle: bundle, options: Nib.Options(missingConnections: .warning))
    let cars = try storyboard.instantiateViewController(withIdentifier: "CarViewController")
    #expect(cars.title == "Véhicules")
  }
}
