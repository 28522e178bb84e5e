import StasisSystem
import Bundles
import FoundationEssentials
import PropertyLists
import Testing
import TestSupport

@Suite struct ResourceLookupTests {
  func relative(_ path: String?) -> String? { path.map { String($0.dropFirst(DemoBundle.path.count + 1)) } }

  func bundle(product: String? = nil, platform: String = "linux", scale: Int = 1) throws -> Bundle {
    try Bundle(path: DemoBundle.path, environment: .languages(["en"], device: DeviceTraits(platform: platform, product: product, displayScale: scale)))
  }

  @Test func deviceVariantsWinForTheirDevice() throws {
    #expect(relative(try bundle().path(forResource: "Logo", ofType: "png")) == "Logo.png")
    #expect(relative(try bundle(product: "ipad", platform: "iphoneos").path(forResource: "Logo", ofType: "png")) == "Logo~ipad.png")
    #expect(relative(try bundle(product: "iphone", platform: "iphoneos").path(forResource: "Logo", ofType: "png")) == "Logo~iphone.png")
    #expect(relative(try bundle(product: "ipod", platform: "iphoneos").path(forResource: "Logo", ofType: "png")) == "Logo~iphone.png")
    // The platform suffix only counts on its platform.
    #expect(relative(try bundle(product: "ipad", platform: "iphoneos").path(forResource: "Config", ofType: "plist")) == "Config.plist")
    #expect(relative(try bundle().path(forResource: "Config", ofType: "plist")) == "Config-linux.plist")
  }

  @Test func infoPlistKeyOverridesPerDevice() throws {
    let iPad = try bundle(product: "ipad", platform: "iphoneos")
    #expect(iPad.infoDictionary["UISupportedInterfaceOrientations"]?.arrayValue?.count == 2)
    #expect(iPad.infoDictionary["DemoTheme"]?.stringValue == "tablet", "K-platform~product beats K and K-linux")
    let iPhone = try bundle(product: "iphone", platform: "iphoneos")
    #expect(iPhone.infoDictionary["UISupportedInterfaceOrientations"]?.arrayValue?.count == 1)
    #expect(iPhone.infoDictionary["DemoTheme"]?.stringValue == "light")
    #expect(iPhone.infoDictionary["UISupportedInterfaceOrientations~ipad"] == nil, "another device's key is dropped")
    #expect(iPhone.bundleIdentifier == "com.example.demo")
  }

  @Test func scalesPreferTheScreenThenLargerThenSmaller() throws {
    #expect(relative(try bundle(scale: 2).path(forImageResource: "button")) == "button@2x.png")
    #expect(relative(try bundle(scale: 3).path(forImageResource: "button")) == "button@3x.png")
    #expect(relative(try bundle(scale: 1).path(forImageResource: "button.png")) == "button.png")
    #expect(relative(try bundle(product: "ipad", platform: "iphoneos", scale: 2).path(forImageResource: "button")) == "button@2x~ipad.png")
    #expect(relative(try bundle(product: "iphone", platform: "iphoneos", scale: 2).path(forImageResource: "button")) == "button@2x.png")
    #expect(relative(try bundle(scale: 1).path(forImageResource: "star")) == "star@2x.png")  // only 2x exists
    #expect(relative(try bundle(scale: 3).path(forImageResource: "star")) == "star@2x.png")
    #expect(relative(try bundle(scale: 3).path(forImageResource: "badge")) == "badge.png")  // only 1x exists
    #expect(try bundle(scale: 2).path(forImageResource: "nothing") == nil)
    #expect(try bundle(scale: 2).url(forImageResource: "button")?.lastPathComponent == "button@2x.png")
  }

  @Test func pluralLookupsListOncePerNameInSearchOrder() throws {
    let french = try Bundle(path: DemoBundle.path, environment: .languages(["fr"]))
    #expect(french.paths(forResourcesOfType: "html").map { relative($0)! }
      == ["fr.lproj/Welcome.html", "Base.lproj/Onboarding.html"])
    #expect(french.paths(forResourcesOfType: "wav", inDirectory: "sounds").map { relative($0)! }
      == ["sounds/beep.wav", "sounds/click.wav", "fr.lproj/sounds/voice.wav"])
    #expect(french.paths(forResourcesOfType: "json", inDirectory: "Data/levels").count == 2)
    #expect(french.urls(forResourcesWithExtension: "lproj").count == 7)
    let linux = try bundle()
    #expect(linux.paths(forResourcesOfType: "plist").map { relative($0)! } == ["Config-linux.plist", "Info.plist"])
    let iPad = try bundle(product: "ipad", platform: "iphoneos")
    #expect(iPad.paths(forResourcesOfType: "png").map { relative($0)! }.filter { $0.hasPrefix("Logo") } == ["Logo~ipad.png"])
  }

  @Test func urlsMatchPaths() throws {
    let english = try bundle()
    let url = try #require(english.url(forResource: "Welcome", withExtension: "html"))
    #expect(url.path == english.path(forResource: "Welcome", ofType: "html"))
    let folder = try #require(english.url(forResource: "Main", withExtension: "storyboardc"))
    #expect(folder.hasDirectoryPath)
  }

  @Test func lookupsNeverTouchTheDiskUntilInvalidated() throws {
    let scratch = try ScratchFolder("cache")
    defer { scratch.remove() }
    let root = scratch.path
    DemoBundle.write("a", to: root + "/One.txt")
    let bundle = try Bundle(path: root, environment: .languages(["en"]))
    #expect(bundle.path(forResource: "One", ofType: "txt") != nil)
    DemoBundle.write("b", to: root + "/Two.txt")
    try FileManager.default.removeItem(atPath: root + "/One.txt")
    #expect(bundle.path(forResource: "Two", ofType: "txt") == nil, "the listing is cached")
    #expect(bundle.path(forResource: "One", ofType: "txt") == root + "/One.txt", "still answered from the cache")
    bundle.invalidateResourceCache()
    #expect(bundle.path(forResource: "Two", ofType: "txt") == root + "/Two.txt")
    #expect(bundle.path(forResource: "One", ofType: "txt") == nil)
  }

  @Test func layoutsInCFOrder() throws {
    let scratch = try ScratchFolder("layouts")
    defer { scratch.remove() }
    let root = scratch.path
    let info: PropertyListValue = ["CFBundleIdentifier": "com.example.mac", "CFBundleExecutable": "Mac"]
    // macOS app: Contents/ with an XML Info.plist.
    DemoBundle.write(DemoBundle.plist(info, .xml), to: root + "/Mac.app/Contents/Info.plist")
    DemoBundle.write("x", to: root + "/Mac.app/Contents/MacOS/Mac")
    DemoBundle.write("x", to: root + "/Mac.app/Contents/Resources/en.lproj/Help.html")
    DemoBundle.write("x", to: root + "/Mac.app/Contents/Resources/Icon.icns")
    let mac = try Bundle(path: root + "/Mac.app/", environment: .languages(["en"]))
    #expect(mac.layout == .contents)
    #expect(mac.bundleIdentifier == "com.example.mac")
    #expect(mac.executablePath == root + "/Mac.app/Contents/MacOS/Mac")
    #expect(mac.path(forResource: "Icon", ofType: "icns") == root + "/Mac.app/Contents/Resources/Icon.icns")
    #expect(mac.path(forResource: "Help", ofType: "html") == root + "/Mac.app/Contents/Resources/en.lproj/Help.html")
    #expect(mac.resourcePath == root + "/Mac.app/Contents/Resources")
    // Framework: Resources/ at the top, with the Info.plist inside.
    DemoBundle.write(DemoBundle.plist(["CFBundleIdentifier": "com.example.fw"], .binary), to: root + "/Kit.framework/Resources/Info.plist")
    DemoBundle.write("x", to: root + "/Kit.framework/Resources/Kit.strings")
    let framework = try Bundle(path: root + "/Kit.framework", environment: .languages(["en"]))
    #expect(framework.layout == .resourcesFolder)
    #expect(framework.bundleIdentifier == "com.example.fw")
    #expect(framework.path(forResource: "Kit", ofType: "strings") == root + "/Kit.framework/Resources/Kit.strings")
    // A platform Info file is read before Info.plist.
    DemoBundle.write(DemoBundle.plist(["CFBundleIdentifier": "generic"], .xml), to: root + "/P.bundle/Info.plist")
    DemoBundle.write(DemoBundle.plist(["CFBundleIdentifier": "linux-only"], .xml), to: root + "/P.bundle/Info-linux.plist")
    #expect(try Bundle(path: root + "/P.bundle", environment: .languages(["en"])).bundleIdentifier == "linux-only")
    // Errors.
    let missing = expectError(BundleError.self, .notABundle) { try Bundle(path: root + "/missing") }
    #expect(missing?.description.contains("no such file or folder") == true, "a missing path is not \"not a folder\"")
    DemoBundle.write("x", to: root + "/plain-file")
    let file = expectError(BundleError.self, .notABundle) { try Bundle(path: root + "/plain-file") }
    #expect(file?.description.contains("not a folder") == true)
    DemoBundle.write("{ not a plist", to: root + "/Bad.bundle/Info.plist")
    expectError(BundleError.self, .invalidInfoPlist) { try Bundle(path: root + "/Bad.bundle") }
    DemoBundle.write(DemoBundle.plist(["a", "b"], .xml), to: root + "/Array.bundle/Info.plist")
    expectError(BundleError.self, .invalidInfoPlist) { try Bundle(path: root + "/Array.bundle") }
  }

  @Test func scanLimitsAreEnforced() throws {
    let scratch = try ScratchFolder("limits")
    defer { scratch.remove() }
    let root = scratch.path
    for index in 0 ..< 20 { DemoBundle.write("x", to: root + "/f\(index).txt") }
    let bundle = try Bundle(path: root, environment: .languages(["en"]), limits: ResourceScanLimits(maximumEntryCount: 10))
    expectError(BundleError.self, .limitExceeded) { try bundle.loadResourceIndex() }
    #expect(bundle.path(forResource: "f1", ofType: "txt") == nil)
    // A symlink loop stops at the depth limit instead of running forever.
    try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: root)
    let looping = try Bundle(path: root, environment: .languages(["en"]), limits: ResourceScanLimits(maximumDepth: 4))
    expectError(BundleError.self, .limitExceeded) { try looping.loadResourceIndex() }
  }

  @Test func concurrentLookupsAndInvalidations() async throws {
    let bundle = try Bundle(path: DemoBundle.path, environment: .languages(["fr"]))
    let answers = await withTaskGroup(of: Bool.self) { group in
      for task in 0 ..< 8 {
        group.addTask {
          var ok = true
          for round in 0 ..< 300 {
            if task == 0 && round % 50 == 0 { bundle.invalidateResourceCache() }
            ok = ok && bundle.localizedString(forKey: "color", value: nil, table: nil) == "Couleur"
            ok = ok && bundle.path(forResource: "Welcome", ofType: "html")?.hasSuffix("fr.lproj/Welcome.html") == true
            ok = ok && bundle.url(forResource: "Flag", withExtension: "png")?.path.hasSuffix("Base.lproj/Flag.png") == true
          }
          return ok
        }
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(answers)
  }

  @Test func mainBundleCanBeConfigured() throws {
    try Bundle.configureMainBundle(path: DemoBundle.path, environment: .languages(["fr"]))
    #expect(Bundle.main.bundleIdentifier == "com.example.demo")
    #expect(NSLocalizedString("color", comment: "") == "Couleur")
    #expect(NSLocalizedStringFromTable("error.generic", "Errors", "") == "Something went wrong")
    #expect(NSLocalizedString("nope", value: "Non", comment: "") == "Non")
  }
}
