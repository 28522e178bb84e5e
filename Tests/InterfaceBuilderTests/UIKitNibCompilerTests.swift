import Foundation
import Interface
import InterfaceBuilder
import TestSupport
import Testing

/// `UIKitNibCompiler` against Apple-compiled iOS nibs (the ios_pairs corpus folder: each Apple
/// nib with the xib it came from), compared canonically (`canonicalDifference`), and every
/// source of the folder compiled without a refusal.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct UIKitNibCompilerTests {
  /// One pair: the source, Apple's nib (a file of a nib folder where Apple wrote one), the Xcode
  /// that compiled it (`DTXcode`) and the framework's module.
  struct Pair: Sendable, CustomTestStringConvertible {
    var source: String
    var apple: String
    var xcode: Int
    var module: String?
    /// The deployment target it was built for, where a rule depends on it.
    var target: Int?
    var testDescription: String { "\(source) (Xcode \(xcode))" }
  }

  static let pairs = [
    Pair(
      source: "ios_pairs/calabash+ios-smoke-test-app/74fb86484fe7/CalGLController.xib",
      apple: "ios_pairs/calabash+ios-smoke-test-app/74fb86484fe7/CalGLController~ipad.nib/objects-8.0+.nib", xcode: 720),
    Pair(
      source: "ios_pairs/Yummypets+YPImagePicker/7c5170c3c423/FSAlbumView.xib",
      apple: "ios_pairs/Yummypets+YPImagePicker/7c5170c3c423/FSAlbumView.nib", xcode: 833, module: "YPImagePicker"),
    Pair(
      source: "ios_pairs/Yummypets+YPImagePicker/1e29d86f880c/YPSelectionsGalleryCVCell.xib",
      apple: "ios_pairs/Yummypets+YPImagePicker/1e29d86f880c/YPSelectionsGalleryCVCell.nib", xcode: 930, module: "YPImagePicker"),
    Pair(
      source: "ios_pairs/SwiftKickMobile+SwiftMessages/6af4fa3dcb31/CardView.xib",
      apple: "ios_pairs/SwiftKickMobile+SwiftMessages/6af4fa3dcb31/CardView.nib", xcode: 1000),
    Pair(
      source: "ios_pairs/SwiftKickMobile+SwiftMessages/08e58f8bca01/StatusLine.xib",
      apple: "ios_pairs/SwiftKickMobile+SwiftMessages/08e58f8bca01/StatusLine.nib", xcode: 1030),
    Pair(
      source: "ios_pairs/Yummypets+YPImagePicker/cbec6781c078/YPVideoFiltersVC.xib",
      apple: "ios_pairs/Yummypets+YPImagePicker/cbec6781c078/YPVideoFiltersVC.nib/objects-11.0+.nib", xcode: 1100,
      module: "YPImagePicker"),
    // Built for iOS 8: the view controller's view at the 600 × 600 size-class canvas.
    Pair(
      source: "ios_pairs/calabash+ios-smoke-test-app/289a70096643/CalPinchController.xib",
      apple: "ios_pairs/calabash+ios-smoke-test-app/289a70096643/CalPinchController.nib", xcode: 1000, target: 8),
    // A label that shrinks its text (minimum font size and scale factor), a button's insets.
    Pair(
      source: "ios_pairs/brave+mixpanel-swift/321c65bd97ae/TakeoverNotificationViewController~iphonelandscape.xib",
      apple: "ios_pairs/brave+mixpanel-swift/321c65bd97ae/TakeoverNotificationViewController~iphonelandscape.nib", xcode: 910,
      module: "Mixpanel", target: 8),
    // Size classes: a stack view's spacing per width class (one attribute storage).
    Pair(
      source: "ios_pairs/SwiftKickMobile+SwiftMessages/038cb85dec58/MessageView.xib",
      apple: "ios_pairs/SwiftKickMobile+SwiftMessages/038cb85dec58/MessageView.nib", xcode: 1020),
    // Constraints installed per width class (relationship storages) and a varying spacing.
    Pair(
      source: "ios_pairs/SwiftKickMobile+SwiftMessages/093ae105b93c/CardView.xib",
      apple: "ios_pairs/SwiftKickMobile+SwiftMessages/093ae105b93c/CardView.nib", xcode: 1030),
    // Constants per size class, two traits in one variation (Xcode 8.3.3).
    Pair(
      source: "ios_pairs/mixpanel+mixpanel-swift/4b9f0787dda2/TakeoverNotificationViewController~ipad.xib",
      apple: "ios_pairs/mixpanel+mixpanel-swift/4b9f0787dda2/TakeoverNotificationViewController~ipad.nib", xcode: 833,
      module: "Mixpanel", target: 8),
  ]

  static func compile(_ path: String, xcode: Int = 1200, module: String? = nil, target: Int? = nil) throws -> NIBArchive {
    let document = try InterfaceDocument(contentsOfFile: Corpus.file(path).path)
    let options = UIKitNibCompiler.Options(module: module, xcode: xcode, deploymentTarget: target.map { ($0, 0) })
    return NIBArchive(try UIKitNibCompiler.compile(document, options: options), keepingUnreachable: false)
  }

  @Test(arguments: pairs)
  func compilesToApplesGraph(_ pair: Pair) throws {
    let ours = try Self.compile(pair.source, xcode: pair.xcode, module: pair.module, target: pair.target)
    let apple = try NIBArchive(contentsOfFile: Corpus.file(pair.apple).path)
    #expect(ours.canonicalDifference(from: apple) == nil)
    // The bytes written read back as the same graph.
    let reread = try NIBArchive(bytes: ours.encoded())
    #expect(reread.canonicalDifference(from: apple) == nil)
  }

  /// An Xcode 11 pair compiles as it is with the default (the newest Xcode known), and not as an
  /// older Xcode, which wrote no `UIViewLargeContentStoredProperties`.
  /// Without the iOS 8 deployment target the view keeps the document's size, which Apple's
  /// compile for iOS 8 does not.
  /// Variation keys name size classes as UIKit's builtin traits, horizontal before vertical;
  /// a key naming another trait has no encoding here.
  @Test func variationKeysBecomeTraitCollections() throws {
    let both = try #require(UIKitNibCompiler.traits(ofVariation: "heightClass=regular-widthClass=compact"))
    #expect(both.map(\.1) == [1, 2])
    #expect(both.map(\.0) == ["UITraitCollectionBuiltinTrait-_UITraitNameHorizontalSizeClass", "UITraitCollectionBuiltinTrait-_UITraitNameVerticalSizeClass"])
    #expect(UIKitNibCompiler.traits(ofVariation: "default")?.isEmpty == true)
    #expect(UIKitNibCompiler.traits(ofVariation: "gamut=wide") == nil)
    #expect(UIKitNibCompiler.traits(ofVariation: "widthClass=huge") == nil)
  }

  @Test func theSizeClassCanvasNeedsAnIOS8Target() throws {
    let pair = Self.pairs[6]
    let apple = try NIBArchive(contentsOfFile: Corpus.file(pair.apple).path)
    let unaware = try Self.compile(pair.source, xcode: pair.xcode).canonicalDifference(from: apple)
    #expect(unaware?.contains("UIBounds") == true)
    #expect(try Self.compile(pair.source, xcode: pair.xcode, target: 9).canonicalDifference(from: apple) != nil)
  }

  @Test func theDefaultIsTheNewestXcode() throws {
    let pair = Self.pairs[5]
    let apple = try NIBArchive(contentsOfFile: Corpus.file(pair.apple).path)
    #expect(try Self.compile(pair.source, module: pair.module).canonicalDifference(from: apple) == nil)
    let older = try Self.compile(pair.source, xcode: 1000, module: pair.module).canonicalDifference(from: apple)
    #expect(older?.contains("UIViewLargeContentStoredProperties") == true)
  }

  /// Before iOS 11 a document with safe areas is a nib folder: `objects-11.0+.nib` as for iOS 11,
  /// and `runtime.nib` with the safe-area guide's constraints made to its view; each is Apple's.
  @Test func anOlderDeploymentTargetSplitsSafeAreasIntoANibFolder() throws {
    let pair = Self.pairs[5]
    let document = try InterfaceDocument(contentsOfFile: Corpus.file(pair.source).path)
    let variants = try UIKitNibCompiler.compileVariants(
      document, options: .init(module: pair.module, xcode: pair.xcode), deploymentTarget: (9, 0))
    #expect(variants.map(\.name) == ["objects-11.0+.nib", "runtime.nib"])
    let folder = pair.apple.replacingOccurrences(of: "/objects-11.0+.nib", with: "/")
    for variant in variants {
      let apple = try NIBArchive(contentsOfFile: Corpus.file(folder + (variant.name ?? "")).path)
      #expect(NIBArchive(variant.graph, keepingUnreachable: false).canonicalDifference(from: apple) == nil, "\(variant.name ?? "")")
    }
    let newer = try UIKitNibCompiler.compileVariants(document, options: .init(module: pair.module, xcode: pair.xcode), deploymentTarget: (11, 0))
    #expect(newer.count == 1 && newer[0].name == nil)
  }

  static let sources = Corpus.files(in: "ios_pairs").filter { $0.pathExtension == "xib" }

  /// Nothing a pair's source holds is refused, in any Xcode's encoding.
  @Test func everySourceCompiles() throws {
    #expect(Self.sources.count >= 795)
    for file in Self.sources {
      let document = try InterfaceDocument(contentsOfFile: file.path)
      for xcode in [700, 800, 1000, 1200] {
        #expect(throws: Never.self, "\(file)") { _ = try UIKitNibCompiler.compile(document, options: .init(xcode: xcode)) }
      }
    }
  }

  /// A connection to an object the document does not define is refused, naming the line.
  @Test func aDanglingOutletIsRefused() throws {
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="14113" targetRuntime="iOS.CocoaTouch">
        <objects>
          <placeholder placeholderIdentifier="IBFilesOwner" id="-1">
            <connections>
              <outlet property="view" destination="missing" id="abc"/>
            </connections>
          </placeholder>
        </objects>
      </document>
      """
    let document = try InterfaceDocument(bytes: Array(xib.utf8), path: "dangling.xib")
    let error = #expect(throws: InterfaceBuilderError.self) { try UIKitNibCompiler.compile(document) }
    #expect(error?.line == 6)
    #expect(error?.description.contains("missing") == true)
  }
}

/// `canonicalDifference`: object order, the order of the root's lists and which equal value is
/// shared do not matter; a value, a key or the sharing of an identity object does.
struct CanonicalComparisonTests {
  /// A small UIKit nib: two labels, an outlet to the second, a runtime attribute; `order` the
  /// order of the objects list, `sharedText` whether the labels share one string.
  static func nib(order: [Int] = [0, 1], text: String = "Hi", sharedText: Bool = true, outletTo: Int = 1) -> NIBArchive {
    var graph = NibGraph(rootClass: "NSObject")
    let owner = graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(graph.string("IBFilesOwner")))])
    let shared = graph.string(text)
    let labels = (0..<2).map { index in
      graph.add(
        "UILabel",
        [.init("UIText", .object(sharedText ? shared : graph.string(text))), .init("UITag", NibGraph.integer(index))])
    }
    let outlet = graph.add(
      "UIRuntimeOutletConnection",
      [.init("UILabel", .object(graph.string("label"))), .init("UISource", .object(owner)), .init("UIDestination", .object(labels[outletTo]))])
    graph[graph.root].entries = [
      .init("UINibTopLevelObjectsKey", .object(graph.collection("NSArray", [owner] + labels))),
      .init("UINibObjectsKey", .object(graph.collection("NSArray", [owner] + order.map { labels[$0] }))),
      .init("UINibConnectionsKey", .object(graph.collection("NSArray", [outlet]))),
    ]
    return NIBArchive(graph)
  }

  @Test func orderAndSharingOfValuesDoNotMatter() {
    let base = Self.nib()
    #expect(base.canonicalDifference(from: base) == nil)
    #expect(base.canonicalDifference(from: Self.nib(order: [1, 0])) == nil)
    #expect(base.canonicalDifference(from: Self.nib(sharedText: false)) == nil)
    #expect(base.isUIKitNib)
  }

  @Test func aChangedValueIsReportedWithItsPath() throws {
    let difference = try #require(Self.nib().canonicalDifference(from: Self.nib(text: "Ho")))
    #expect(difference.contains("UIText"))
    #expect(difference.contains("\"Hi\" vs \"Ho\""))
  }

  @Test func anOutletToAnotherObjectDiffers() {
    #expect(Self.nib().canonicalDifference(from: Self.nib(outletTo: 0)) != nil)
  }

  /// A set's members in another order are the same set (Apple writes them in hash order); an
  /// array's are not.
  @Test func setsCompareWithoutOrder() {
    func nib(_ className: String, reversed: Bool) -> NIBArchive {
      var graph = NibGraph(rootClass: "NSObject")
      let labels = (0..<3).map { graph.add("UILabel", [.init("UITag", NibGraph.integer($0))]) }
      let members = graph.collection(className, reversed ? labels.reversed() : labels)
      let holder = graph.add("_UITraitStorageList", [.init("UIDescendants", .object(members))])
      graph[graph.root].entries = [.init("UINibTopLevelObjectsKey", .object(graph.collection("NSArray", [holder])))]
      return NIBArchive(graph)
    }
    #expect(nib("NSSet", reversed: false).canonicalDifference(from: nib("NSSet", reversed: true)) == nil)
    #expect(nib("NSArray", reversed: false).canonicalDifference(from: nib("NSArray", reversed: true)) != nil)
  }

  /// Seeded random permutations of the root lists compare equal; a random changed tag does not.
  @Test func randomReorderingsCompareEqual() {
    var generator = SeededGenerator(seed: 30)
    for _ in 0..<50 {
      let order = [0, 1].shuffled(using: &generator)
      #expect(Self.nib().canonicalDifference(from: Self.nib(order: order)) == nil)
    }
  }
}

/// A small deterministic generator (SplitMix64) for the seeded tests above.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
