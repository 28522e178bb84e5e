import Foundation
import Interface
import InterfaceBuilder
import PropertyLists
import TestSupport
import Testing

/// `UIKitStoryboardCompiler` against Apple-compiled `.storyboardc` folders (ios_pairs) and on
/// generated storyboards: the nibs a scene becomes, what each holds, and refusals with the line.
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct UIKitStoryboardCompilerTests {
  /// An Apple-compiled storyboard folder and its source, with the Xcode that made it.
  struct Pair: Sendable, CustomTestStringConvertible {
    var folder: String
    var name: String
    var xcode: Int
    var testDescription: String { "\(folder)/\(name) (Xcode \(xcode))" }
  }

  static let pairs = [
    Pair(folder: "ios_pairs/mixpanel+mixpanel-iphone/cd0935f690bf", name: "MPNotification", xcode: 731),
    Pair(folder: "ios_pairs/mixpanel+mixpanel-iphone/fa146cc854c2", name: "MPNotification", xcode: 731),
    Pair(folder: "ios_pairs/mixpanel+mixpanel-iphone/31fd4c8514cd", name: "MPSurvey", xcode: 731),
    Pair(folder: "ios_pairs/mixpanel+mixpanel-iphone/98090f512e7f", name: "MPSurvey", xcode: 731),
  ]

  static func compile(_ pair: Pair) throws -> CompiledStoryboardOutput {
    let document = try InterfaceDocument(contentsOfFile: Corpus.file(pair.folder + "/" + pair.name + ".storyboard").path)
    return try UIKitStoryboardCompiler.compile(document, options: .init(xcode: pair.xcode, deploymentTarget: (8, 0)))
  }

  /// The first difference of each nib from Apple's (upstream placeholders renamed on both
  /// sides, as `ibtool --compare` does), by nib name; `nil` for an equal nib.
  static func differences(_ pair: Pair) throws -> (info: Bool, nibs: [String: String?]) {
    let ours = try compile(pair)
    let apple = try CompiledStoryboard(contentsOf: Corpus.file(pair.folder + "/" + pair.name + ".storyboardc").path)
    var appleGraphs: [String: NibGraph] = [:]
    for (name, nib) in apple.nibs { if case .nibArchive(let archive) = nib { appleGraphs[name] = NibGraph(archive) } }
    let left = NibGraph.renamingUpstreamPlaceholders(in: Dictionary(uniqueKeysWithValues: ours.nibs.map { ($0.name, $0.graph) }))
    let right = NibGraph.renamingUpstreamPlaceholders(in: appleGraphs)
    #expect(Set(left.keys) == Set(right.keys))
    var result: [String: String?] = [:]
    for (name, graph) in left {
      guard let theirs = right[name] else { continue }
      result[name] = NIBArchive(graph, keepingUnreachable: false).canonicalDifference(from: NIBArchive(theirs, keepingUnreachable: false))
    }
    return (ours.info == apple.info, result)
  }

  /// MPNotification (a controller whose view has fixed-frame views and both layout guides)
  /// is Apple's storyboard nib for nib, both pairs.
  @Test(arguments: pairs.prefix(2))
  func notificationStoryboardIsApples(_ pair: Pair) throws {
    let (info, nibs) = try Self.differences(pair)
    #expect(info)
    #expect(nibs.count == 2)
    for (name, difference) in nibs { #expect(difference == nil, "\(name): \(difference ?? "")") }
  }

  /// MPSurvey (three scenes, a table with a prototype cell, a text view, a kept-alive view):
  /// every nib but one is Apple's; the navigation scene's view, which the document gives no
  /// autoresizing mask, is written 40 by Apple (flexible top and bottom), a rule no other
  /// sample explains, and 36 (UIKit's default) by us.
  @Test(arguments: pairs.suffix(2))
  func surveyStoryboardIsApplesButOneMask(_ pair: Pair) throws {
    let (info, nibs) = try Self.differences(pair)
    #expect(info)
    #expect(nibs.count == 6)
    for (name, difference) in nibs where name != "RIP-po-dgx-view-cp6-lZ-a9t" { #expect(difference == nil, "\(name): \(difference ?? "")") }
    let open = nibs["RIP-po-dgx-view-cp6-lZ-a9t"] ?? nil
    #expect(open?.contains("UIAutoresizingMask") == true)
  }

  /// The upstream placeholders of a compile are repeatable, and each view nib's placeholders
  /// are exactly what its controller's table maps.
  @Test func upstreamPlaceholdersMatchTheirTables() throws {
    let first = try Self.compile(Self.pairs[2]), second = try Self.compile(Self.pairs[2])
    #expect(first.nibs.map { NIBArchive($0.graph).encoded() } == second.nibs.map { NIBArchive($0.graph).encoded() })
    let graphs = Dictionary(uniqueKeysWithValues: first.nibs.map { ($0.name, $0.graph) })
    for (_, graph) in graphs {
      for object in graph.objects {
        guard let nibName = graph.text(of: object, forKey: "UINibName"), case .object(let table)? = object["UIExternalObjectsTableForViewLoading"],
          let members = graph.members(of: table), let view = graphs[nibName]
        else { continue }
        let keys = Set(stride(from: 0, to: members.count, by: 2).compactMap { graph.text(of: members[$0]) })
        let proxies = Set(
          view.objects.filter { $0.className == "UIProxyObject" }.compactMap { view.text(of: $0, forKey: "UIProxiedObjectIdentifier") }
            .filter { $0.hasPrefix("UpstreamPlaceholder-") })
        #expect(!keys.isEmpty)
        #expect(keys == proxies)
      }
    }
  }
}

/// Generated storyboards: navigation and tab bar containers, segues of every kind, prototype
/// cells, and what is refused.
struct UIKitStoryboardStructureTests {
  static func document(_ scenes: String, initial: String = "nav") throws -> InterfaceDocument {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="17156" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" initialViewController="\(initial)">
          <scenes>
      \(scenes)
          </scenes>
      </document>
      """
    return try InterfaceDocument(bytes: Array(text.utf8), path: "Generated.storyboard")
  }

  static let navigationScenes = """
    <scene sceneID="s1"><objects>
      <navigationController id="nav" sceneMemberID="viewController">
        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar"><rect key="frame" x="0.0" y="44" width="414" height="44"/><autoresizingMask key="autoresizingMask"/></navigationBar>
        <connections><segue destination="list" kind="relationship" relationship="rootViewController" id="rel"/></connections>
      </navigationController>
      <placeholder placeholderIdentifier="IBFirstResponder" id="fr1" sceneMemberID="firstResponder"/>
    </objects></scene>
    <scene sceneID="s2"><objects>
      <tableViewController id="list" customClass="ItemsViewController" customModule="App" sceneMemberID="viewController">
        <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" dataMode="prototypes" style="plain" rowHeight="-1" estimatedRowHeight="65" sectionHeaderHeight="28" sectionFooterHeight="28" id="table">
          <rect key="frame" x="0.0" y="0.0" width="414" height="896"/>
          <prototypes>
            <tableViewCell clipsSubviews="YES" contentMode="scaleToFill" reuseIdentifier="ItemCell" id="cell" customClass="ItemCell" customModule="App">
              <rect key="frame" x="0.0" y="28" width="414" height="65"/>
              <tableViewCellContentView key="contentView" opaque="NO" clipsSubviews="YES" multipleTouchEnabled="YES" contentMode="center" tableViewCell="cell" id="content">
                <rect key="frame" x="0.0" y="0.0" width="414" height="65"/>
                <subviews><label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Name" translatesAutoresizingMaskIntoConstraints="NO" id="name"><rect key="frame" x="20" y="11" width="45" height="21"/><fontDescription key="fontDescription" type="system" pointSize="17"/><nil key="textColor"/><nil key="highlightedColor"/></label></subviews>
              </tableViewCellContentView>
              <connections><outlet property="nameLabel" destination="name" id="o1"/><segue destination="detail" kind="show" identifier="showItem" id="toDetail"/></connections>
            </tableViewCell>
          </prototypes>
          <connections><outlet property="dataSource" destination="list" id="o2"/><outlet property="delegate" destination="list" id="o3"/></connections>
        </tableView>
        <navigationItem key="navigationItem" title="Homepwner" id="item">
          <barButtonItem key="rightBarButtonItem" systemItem="add" id="add"><connections><action selector="addNewItem:" destination="list" id="a1"/></connections></barButtonItem>
        </navigationItem>
      </tableViewController>
      <placeholder placeholderIdentifier="IBFirstResponder" id="fr2" sceneMemberID="firstResponder"/>
    </objects></scene>
    <scene sceneID="s3"><objects>
      <viewController storyboardIdentifier="Detail" id="detail" sceneMemberID="viewController">
        <view key="view" contentMode="scaleToFill" id="detailView">
          <rect key="frame" x="0.0" y="0.0" width="414" height="896"/>
          <subviews><button opaque="NO" contentMode="scaleToFill" buttonType="system" translatesAutoresizingMaskIntoConstraints="NO" id="photo"><rect key="frame" x="20" y="60" width="80" height="30"/><state key="normal" title="Photo"/><connections><segue destination="nav" kind="presentation" modalPresentationStyle="formSheet" id="present"/></connections></button></subviews>
        </view>
        <connections><outlet property="photoButton" destination="photo" id="o4"/></connections>
      </viewController>
    </objects></scene>
    """

  /// A navigation controller's scene nib embeds its root controller (parent, children, view
  /// controllers); every scene has its nib and every view its own; the cell is a nested nib.
  @Test func navigationStoryboard() throws {
    let output = try UIKitStoryboardCompiler.compile(try Self.document(Self.navigationScenes))
    let names = Set(output.nibs.map(\.name))
    #expect(names == ["UINavigationController-nav", "UITableViewController-list", "list-view-table", "Detail", "detail-view-detailView"])
    guard case .dictionary(let info) = output.info, case .dictionary(let table)? = info["UIViewControllerIdentifiersToNibNames"] else {
      Issue.record("no Info.plist table")
      return
    }
    #expect(info["UIStoryboardDesignatedEntryPointIdentifier"] == .string("UINavigationController-nav"))
    #expect(Set(table.keys) == ["UINavigationController-nav", "UITableViewController-list", "Detail"])
    let graphs = Dictionary(uniqueKeysWithValues: output.nibs.map { ($0.name, $0.graph) })
    let navigation = try #require(graphs["UINavigationController-nav"])
    let embedded = navigation.objects.filter { $0.className == "UIClassSwapper" && navigation.text(of: $0, forKey: "UIClassName") == "_TtC3App19ItemsViewController" }
    #expect(embedded.count == 1)
    #expect(embedded.first?["UIParentViewController"] != nil)
    #expect(navigation.objects.contains { $0["UIChildViewControllers"] != nil && $0["UIViewControllers"] != nil && $0["UINavigationBar"] != nil })
    // The table's view nib: its prototype as a nested nib, the bar button item not (the scene's).
    let view = try #require(graphs["list-view-table"])
    let prototypes = try #require(view.objects.first { $0["UITableViewCellPrototypeNibs"] != nil })
    guard case .object(let nibs)? = prototypes["UITableViewCellPrototypeNibs"], let members = view.members(of: nibs), members.count == 2,
      case .object(let data)? = view.objects[members[1]]["archiveData"], case .data(let bytes)? = view.objects[data]["NS.bytes"]
    else {
      Issue.record("no prototype nib")
      return
    }
    let cell = NibGraph(try NIBArchive(bytes: bytes))
    #expect(cell.objects.contains { $0.className == "UIRuntimeOutletConnection" && cell.text(of: $0, forKey: "UILabel") == "nameLabel" })
    #expect(!view.objects.contains { $0.className == "UIBarButtonItem" })
    // The scene nib holds the item, its action, and the show segue's template.
    let scene = try #require(graphs["UITableViewController-list"])
    #expect(scene.objects.contains { $0.className == "UIBarButtonItem" })
    #expect(scene.objects.contains { $0.className.hasPrefix("UIRuntime") && scene.text(of: $0, forKey: "UILabel") == "addNewItem:" })
    let show = try #require(scene.objects.first { $0.className == "UIStoryboardShowSegueTemplate" })
    #expect(scene.text(of: show, forKey: "UIDestinationViewControllerIdentifier") == "Detail")
    #expect(scene.text(of: show, forKey: "UIActionName") == "showViewController:sender:")
    // The detail view's button performs the presentation through an upstream placeholder.
    let detailView = try #require(graphs["detail-view-detailView"])
    let perform = try #require(detailView.objects.first { $0.className == "UIRuntimeEventConnection" && detailView.text(of: $0, forKey: "UILabel") == "perform:" })
    guard case .object(let target)? = perform["UIDestination"] else {
      Issue.record("no perform: target")
      return
    }
    #expect(detailView.objects[target].className == "UIProxyObject")
    let detail = try #require(graphs["Detail"])
    #expect(detail.objects.contains { $0.className == "UIStoryboardPresentationSegueTemplate" })
    #expect(!detail.objects.contains { $0.className == "UIButton" })
  }

  /// Seeded scenes of plain controllers with random segues among them: every compile gives a
  /// nib per scene and per view, and every segue's template names a scene of the storyboard.
  @Test(arguments: [1, 2, 3, 5, 8, 13])
  func seededSegueGraphs(_ seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let count = Int.random(in: 2...6, using: &random)
    let kinds = ["show", "showDetail", "presentation", "push", "modal", "popoverPresentation", "custom"]
    var scenes = ""
    for index in 0..<count {
      var segues = ""
      for number in 0..<Int.random(in: 0...3, using: &random) {
        let kind = kinds.randomElement(using: &random) ?? "show"
        let extra = kind == "custom" ? " customClass=\"FadeSegue\"" : ""
        segues += "<segue destination=\"c\(Int.random(in: 0..<count, using: &random))\" kind=\"\(kind)\" identifier=\"s\(number)\"\(extra) id=\"g\(index)-\(number)\"/>"
      }
      scenes += """
        <scene sceneID="s\(index)"><objects><viewController id="c\(index)" sceneMemberID="viewController">
          <view key="view" contentMode="scaleToFill" id="v\(index)"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
            <subviews><button opaque="NO" contentMode="scaleToFill" id="b\(index)"><rect key="frame" x="10" y="10" width="50" height="30"/><connections>\(segues)</connections></button></subviews>
          </view>
        </viewController></objects></scene>
        """
    }
    let output = try UIKitStoryboardCompiler.compile(try Self.document(scenes, initial: "c0"))
    #expect(output.nibs.count == 2 * count)
    let scenesNames = Set((0..<count).map { "UIViewController-c\($0)" })
    for (_, graph) in output.nibs {
      for object in graph.objects where object.className.hasSuffix("SegueTemplate") {
        #expect(scenesNames.contains(graph.text(of: object, forKey: "UIDestinationViewControllerIdentifier") ?? ""))
      }
      // Every nib reads back.
      _ = try NIBArchive(bytes: NIBArchive(graph, keepingUnreachable: false).encoded())
    }
  }

  /// Refusals name the line: a relationship cycle, a segue of an unknown kind, a destination
  /// that is no scene.
  @Test func refusalsNameTheLine() throws {
    let cycle = """
      <scene sceneID="a"><objects><navigationController id="nav" sceneMemberID="viewController">
      <connections><segue destination="nav2" kind="relationship" relationship="rootViewController" id="r1"/></connections>
      </navigationController></objects></scene>
      <scene sceneID="b"><objects><navigationController id="nav2" sceneMemberID="viewController">
      <connections><segue destination="nav" kind="relationship" relationship="rootViewController" id="r2"/></connections>
      </navigationController></objects></scene>
      """
    for (scenes, expected) in [
      (cycle, "cycle"),
      (Self.navigationScenes.replacingOccurrences(of: "kind=\"show\"", with: "kind=\"teleport\""), "teleport"),
      (Self.navigationScenes.replacingOccurrences(of: "destination=\"detail\"", with: "destination=\"nowhere\""), "nowhere"),
    ] {
      #expect {
        _ = try UIKitStoryboardCompiler.compile(try Self.document(scenes))
      } throws: { error in
        "\(error)".contains(expected) && ((error as? InterfaceBuilderError)?.line ?? 0) > 0
      }
    }
  }
}
