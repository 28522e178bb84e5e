import Interface
import InterfaceBuilder
import PropertyLists
import Testing
import TestSupport

/// Storyboard controllers compiled without an Apple sample (CocoaStoryboardCompiler+Controllers):
/// a view controller's own nib by identifier, tab and split view controllers with their
/// relationship segues' children, a container view's embed segue, and connections across scenes.
@Suite struct StoryboardControllerTests {
  /// A window whose content is a tab view controller of two items (the first with a container
  /// view embedding a split view controller of one item), and `extra` scenes.
  static func storyboard(tabAttributes: String = #"selectedTabViewItemIndex="1" tabStyle="toolbar""#, extraItem: String = "", extraOutlet: String = "") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB" version="3.0" toolsVersion="23504" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" useAutolayout="YES" initialViewController="wc1">
          <scenes>
              <scene sceneID="s1">
                  <objects>
                      <windowController id="wc1" sceneMemberID="viewController">
                          <window key="window" title="Prefs" allowsToolTipsWhenApplicationIsInactive="NO" autorecalculatesKeyViewLoop="NO" releasedWhenClosed="NO" visibleAtLaunch="NO" animationBehavior="default" id="win1">
                              <windowStyleMask key="styleMask" titled="YES" closable="YES"/>
                              <rect key="contentRect" x="100" y="100" width="400" height="300"/>
                              <rect key="screenRect" x="0.0" y="0.0" width="1920" height="1080"/>
                          </window>
                          <connections>
                              <segue destination="tab1" kind="relationship" relationship="window.shadowedContentViewController" id="sg1"/>
                          </connections>
                      </windowController>
                      <customObject id="fr1" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="s2">
                  <objects>
                      <tabViewController \(tabAttributes) id="tab1" sceneMemberID="viewController">
                          <tabViewItems>
                              <tabViewItem label="General" image="NSAdvanced" id="ti1"/>
                              <tabViewItem label="Other" id="ti2"/>
                              \(extraItem)
                          </tabViewItems>
                          <viewControllerTransitionOptions key="transitionOptions" allowUserInteraction="YES"/>
                          <tabView key="tabView" type="noTabsNoBorder" id="tv1">
                              <rect key="frame" x="0.0" y="0.0" width="400" height="300"/>
                              <autoresizingMask key="autoresizingMask"/>
                              <font key="font" metaFont="system"/>
                              <connections>
                                  <outlet property="delegate" destination="tab1" id="o1"/>
                              </connections>
                          </tabView>
                          <connections>
                              <outlet property="tabView" destination="tv1" id="o2"/>
                              <segue destination="vc1" kind="relationship" relationship="tabItems" id="sg2"/>
                              <segue destination="vc2" kind="relationship" relationship="tabItems" id="sg3"/>
                          </connections>
                      </tabViewController>
                      <customObject id="fr2" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="s3">
                  <objects>
                      <viewController title="General" storyboardIdentifier="General" showSeguePresentationStyle="single" id="vc1" customClass="GeneralController" customModule="App" sceneMemberID="viewController">
                          <view key="view" id="v1">
                              <rect key="frame" x="0.0" y="0.0" width="400" height="300"/>
                              <autoresizingMask key="autoresizingMask"/>
                              <subviews>
                                  <containerView id="cv1">
                                      <rect key="frame" x="0.0" y="0.0" width="400" height="300"/>
                                      <autoresizingMask key="autoresizingMask"/>
                                      <connections>
                                          <segue destination="split1" kind="embed" id="sg4"/>
                                      </connections>
                                  </containerView>
                              </subviews>
                          </view>
                          \(extraOutlet)
                      </viewController>
                      <customObject id="fr3" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="s4">
                  <objects>
                      <viewController id="vc2" sceneMemberID="viewController">
                          <view key="view" id="v2">
                              <rect key="frame" x="0.0" y="0.0" width="400" height="300"/>
                              <autoresizingMask key="autoresizingMask"/>
                              <subviews>
                                  <button verticalHuggingPriority="750" id="b2">
                                      <rect key="frame" x="10" y="10" width="80" height="32"/>
                                      <buttonCell key="cell" type="push" title="Go" bezelStyle="rounded" alignment="center" borderStyle="border" imageScaling="proportionallyDown" inset="2" id="bc2">
                                          <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                                          <font key="font" metaFont="system"/>
                                      </buttonCell>
                                  </button>
                              </subviews>
                          </view>
                      </viewController>
                      <customObject id="fr4" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="s5">
                  <objects>
                      <splitViewController id="split1" sceneMemberID="viewController">
                          <splitViewItems>
                              <splitViewItem canCollapse="YES" holdingPriority="260" behavior="sidebar" id="si1"/>
                          </splitViewItems>
                          <splitView key="splitView" dividerStyle="thin" vertical="YES" id="sv1">
                              <rect key="frame" x="0.0" y="0.0" width="400" height="300"/>
                              <autoresizingMask key="autoresizingMask"/>
                              <connections>
                                  <outlet property="delegate" destination="split1" id="o3"/>
                              </connections>
                          </splitView>
                          <connections>
                              <outlet property="splitView" destination="sv1" id="o4"/>
                              <segue destination="vc3" kind="relationship" relationship="splitItems" id="sg5"/>
                          </connections>
                      </splitViewController>
                      <customObject id="fr5" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
              <scene sceneID="s6">
                  <objects>
                      <viewController id="vc3" sceneMemberID="viewController">
                          <view key="view" id="v3">
                              <rect key="frame" x="0.0" y="0.0" width="200" height="300"/>
                              <autoresizingMask key="autoresizingMask"/>
                          </view>
                      </viewController>
                      <customObject id="fr6" userLabel="First Responder" customClass="NSResponder" sceneMemberID="firstResponder"/>
                  </objects>
              </scene>
          </scenes>
      </document>
      """.utf8)
  }

  static func compile(_ bytes: [UInt8]) throws(InterfaceBuilderError) -> CompiledStoryboardOutput {
    try CocoaStoryboardCompiler.compile(try InterfaceDocument(bytes: bytes, path: "t.storyboard"), options: .init(omitsColorProfiles: true))
  }

  static func nib(_ output: CompiledStoryboardOutput, _ name: String) throws -> NibGraph {
    try #require(output.nibs.first { $0.name == name }?.graph, "no nib \(name) in \(output.nibs.map(\.name))")
  }

  /// The one object of `className` in `graph`.
  static func only(_ className: String, in graph: NibGraph) throws -> Int {
    let found = graph.objects.indices.filter { graph[$0].className == className }
    try #require(found.count == 1, "\(found.count) objects of class \(className)")
    return found[0]
  }

  static func object(_ graph: NibGraph, _ index: Int, _ key: String) -> Int? {
    if case .object(let value)? = graph[index][key] { return value }
    return nil
  }

  static func text(_ graph: NibGraph, _ index: Int, _ key: String) -> String? {
    object(graph, index, key).flatMap { graph.text(of: $0) }
  }

  /// The outlet connectors of `graph`'s NSConnections as (source, label, destination).
  static func outlets(_ graph: NibGraph) -> [(source: Int, label: String, destination: Int)] {
    let connections = object(graph, graph.root, "IB.objectdata").flatMap { object(graph, $0, "NSConnections") }.flatMap { graph.members(of: $0) } ?? []
    return connections.compactMap { index in
      guard graph[index].className == "NSNibOutletConnector", let source = object(graph, index, "NSSource"),
        let destination = object(graph, index, "NSDestination"), let label = text(graph, index, "NSLabel")
      else { return nil }
      return (source, label, destination)
    }
  }

  /// The names Info.plist maps to nibs.
  static func nibNames(_ output: CompiledStoryboardOutput) -> [String] {
    guard case .dictionary(let info) = output.info, case .dictionary(let names)? = info["NSViewControllerIdentifiersToNibNames"] else { return [] }
    return names.keys.sorted()
  }

  @Test func aViewControllerWithAStoryboardIdentifierGetsANibOfItsOwn() throws {
    let output = try Self.compile(Self.storyboard())
    // The tab view controller is compiled into its window's nib; the split view controller, an
    // embed segue's destination, is instantiated by name.
    #expect(Self.nibNames(output) == ["General", "NSSplitViewController-split1", "NSWindowController-wc1"])
    let graph = try Self.nib(output, "General")
    let controller = try Self.only("NSClassSwapper", in: graph)
    #expect(Self.text(graph, controller, "NSClassName") == "_TtC3App17GeneralController")
    #expect(Self.text(graph, controller, "NSOriginalClassName") == "NSViewController")
    #expect(Self.text(graph, controller, "NSNibName") == "vc1-view-v1")
    #expect(Self.text(graph, controller, "NSTitle") == "General")
    #expect(Self.text(graph, controller, "NSStoryboardIdentifier") == "General")
    #expect(graph[controller]["showSeguePresentationStyle"] == .int8(1))
    #expect(graph[controller]["connectionsRequireClassSwapperForStoryboardCompilation"] == .bool(true))
    let options = try #require(Self.object(graph, controller, "NSStoryboardSegueDestinationOptions"))
    let pair = try #require(graph.members(of: options))
    #expect(pair.count == 2 && graph.text(of: pair[0]) == "NSSingleInstancePresentationIdentifier")
    #expect(graph.text(of: pair[1]) == Self.text(graph, controller, "uniqueIdentifierForStoryboardCompilation"))
    let labels = Self.outlets(graph).map(\.label)
    #expect(labels == ["sceneController", "storyboard"])
    #expect(Self.outlets(graph).first?.destination == controller)
    #expect(output.warnings["General"]?.contains { $0.detail.contains("nib of its own") } == true)
  }

  @Test func aTabViewControllerAsAWindowsContentHoldsItsItemsAndChildren() throws {
    let output = try Self.compile(Self.storyboard())
    let graph = try Self.nib(output, "NSWindowController-wc1")
    let tab = try Self.only("NSTabViewController", in: graph)
    #expect(graph[tab]["NSSelectedTabViewItemIndex"] == NibGraph.integer(1))
    #expect(graph[tab]["NSViewControllerTabStyle"] == NibGraph.integer(2))
    #expect(graph[tab]["NSViewControllerTransitionOption"] == NibGraph.integer(0x1000))
    let tabView = try #require(Self.object(graph, tab, "NSTabView"))
    #expect(graph[tabView].className == "NSTabView")
    let items = try #require(Self.object(graph, tab, "privateRelationshipSegueTrackingItems").flatMap { graph.members(of: $0) })
    #expect(items.map { graph[$0].className } == ["NSTabViewItem", "NSTabViewItem"])
    #expect(items.map { Self.text(graph, $0, "NSLabel") } == ["General", "Other"])
    #expect(graph[items[0]]["NSImage"] != nil && graph[items[1]]["NSImage"] == nil)
    // Each item's viewController outlet: the children, view controllers naming their view nibs.
    let outlets = Self.outlets(graph)
    let children = items.compactMap { item in outlets.first { $0.source == item && $0.label == "viewController" }?.destination }
    #expect(children.map { Self.text(graph, $0, "NSNibName") } == ["vc1-view-v1", "vc2-view-v2"])
    #expect(children.allSatisfy { child in outlets.contains { $0.source == child && $0.label == "storyboard" } })
    #expect(outlets.contains { $0.source == tab && $0.label == "tabView" && $0.destination == tabView })
    #expect(outlets.contains { $0.source == tabView && $0.label == "delegate" && $0.destination == tab })
    let runtime = graph.objects.indices.filter { graph[$0].className == "NSIBUserDefinedRuntimeAttributesConnector" }
    let keyPaths = runtime.flatMap { Self.object(graph, $0, "NSKeyPaths").flatMap { graph.members(of: $0) } ?? [] }.compactMap { graph.text(of: $0) }
    #expect(Set(keyPaths) == ["tabViewItems", "image", "contentViewController"])
    // The window's content view controller is the tab view controller.
    let windowController = try Self.only("NSWindowController", in: graph)
    #expect(Self.object(graph, windowController, "IBWindowTemplateContentViewController") == tab)
    #expect(output.warnings["NSWindowController-wc1"]?.contains { $0.detail.contains("NSTabViewController") } == true)
  }

  @Test func aSplitViewControllerHoldsItsItems() throws {
    let output = try Self.compile(Self.storyboard())
    let graph = try Self.nib(output, "NSSplitViewController-split1")
    let split = try Self.only("NSSplitViewController", in: graph)
    let splitView = try #require(Self.object(graph, split, "NSSplitView"))
    #expect(graph[splitView].className == "NSSplitView")
    let items = try #require(Self.object(graph, split, "NSSplitViewItems").flatMap { graph.members(of: $0) })
    #expect(items.count == 1)
    let item = items[0]
    #expect(graph[item].className == "NSSplitViewItem")
    #expect(graph[item]["NSBehavior"] == NibGraph.integer(1))
    #expect(graph[item]["NSHoldingPriority"] == .float32(260))
    #expect(graph[item]["NSCanCollapse"] == .bool(true))
    #expect(graph[item]["NSCollapsed"] == nil)
    let child = try #require(Self.object(graph, item, "NSSplitViewItemViewController"))
    #expect(Self.text(graph, child, "NSNibName") == "vc3-view-v3")
    let outlets = Self.outlets(graph)
    #expect(outlets.contains { $0.source == split && $0.label == "splitView" && $0.destination == splitView })
    #expect(outlets.contains { $0.label == "sceneController" && $0.destination == split })
  }

  @Test func aContainerViewsEmbedSegueIsATemplateOfItsController() throws {
    let output = try Self.compile(Self.storyboard())
    // The controller (in the window's nib) holds the template and lists it for its view's nib.
    let window = try Self.nib(output, "NSWindowController-wc1")
    let template = try Self.only("NSStoryboardEmbedSegueTemplate", in: window)
    #expect(Self.text(window, template, "NSDestinationControllerIdentifier") == "NSSplitViewController-split1")
    let source = try #require(window.objects.indices.first { Self.text(window, $0, "NSNibName") == "vc1-view-v1" })
    #expect(Self.object(window, source, "NSStoryboardSegueTemplates").flatMap { window.members(of: $0) } == [template])
    let table = try #require(Self.object(window, source, "NSExternalObjectsTableForViewLoading").flatMap { window.members(of: $0) })
    #expect(table.count == 2 && window.text(of: table[0]) == "UpstreamPlaceholder-1" && table[1] == template)
    // The view's nib: the container view, a plain NSView, is the template's containerView.
    let view = try Self.nib(output, "vc1-view-v1")
    let placeholders = view.objects.indices.filter {
      view[$0].className == "NSNibExternalObjectPlaceholder" && Self.text(view, $0, "NSExternalObjectPlaceholderIdentifier") == "UpstreamPlaceholder-1"
    }
    #expect(placeholders.count == 1)
    let outlet = try #require(Self.outlets(view).first { $0.label == "containerView" })
    #expect(outlet.source == placeholders.first)
    #expect(view[outlet.destination].className == "NSView")
    #expect(output.warnings["vc1-view-v1"]?.contains { $0.element == "containerView" } == true)
  }

  @Test func aConnectionToAnotherScenesObjectIsLeftOutWithAWarning() throws {
    let output = try Self.compile(Self.storyboard(extraOutlet: #"<connections><outlet property="goButton" destination="b2" id="o9"/></connections>"#))
    let view = try Self.nib(output, "vc1-view-v1")
    #expect(!Self.outlets(view).contains { $0.label == "goButton" })
    let warnings = output.warnings["vc1-view-v1"] ?? []
    #expect(warnings.contains { $0.element == "connection" && $0.detail.contains("cannot cross scenes") && $0.detail.contains("b2") })
    // An id the document does not define is still refused.
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) {
      try Self.compile(Self.storyboard(extraOutlet: #"<connections><outlet property="goButton" destination="nowhere" id="o9"/></connections>"#))
    }
    #expect(error?.line != nil)
  }

  @Test func aTabViewControllerWithAnIdentifierIsAlsoANibOfItsOwn() throws {
    let output = try Self.compile(Self.storyboard(tabAttributes: #"storyboardIdentifier="Tabs" tabStyle="segmentedControlOnBottom""#))
    #expect(Self.nibNames(output) == ["General", "NSSplitViewController-split1", "NSWindowController-wc1", "Tabs"])
    let graph = try Self.nib(output, "Tabs")
    let tab = try Self.only("NSTabViewController", in: graph)
    #expect(Self.text(graph, tab, "NSStoryboardIdentifier") == "Tabs")
    #expect(graph[tab]["NSViewControllerTabStyle"] == NibGraph.integer(1))
    #expect(graph[tab]["NSSelectedTabViewItemIndex"] == NibGraph.integer(0))
    let outlets = Self.outlets(graph)
    #expect(outlets.contains { $0.label == "sceneController" && $0.destination == tab })
    // The tab view controller, its two children and the scene each reach the storyboard.
    #expect(outlets.filter { $0.label == "storyboard" }.count == 3)
  }

  /// The nib loader's lenient compile makes the same nibs, with nothing to warn about.
  @Test func theLenientCompileAgrees() throws {
    let document = try InterfaceDocument(bytes: Self.storyboard(), path: "t.storyboard")
    let strict = try CocoaStoryboardCompiler.compile(document, options: .init(omitsColorProfiles: true))
    let lenient = try CocoaStoryboardCompiler.compileLeniently(document, options: .init(omitsColorProfiles: true))
    #expect(lenient.nibs.map(\.name) == strict.nibs.map(\.name))
    #expect(lenient.warnings.values.allSatisfy { $0.isEmpty }, "\(lenient.warnings)")
    #expect(lenient.info == strict.info)
    for (name, graph) in strict.nibs {
      let other = try #require(lenient.nibs.first { $0.name == name }?.graph)
      #expect(other.objects.map(\.className) == graph.objects.map(\.className), "\(name)")
    }
  }

  @Test func unknownTabStylesAndUnmatchedItemsAreRefused() throws {
    let style = expectError(InterfaceBuilderError.self, .unsupported) { try Self.compile(Self.storyboard(tabAttributes: #"tabStyle="sideways""#)) }
    #expect(style?.line != nil)
    let unmatched = expectError(InterfaceBuilderError.self, .invalidDocument) {
      try Self.compile(Self.storyboard(extraItem: #"<tabViewItem label="Third" id="ti3"/>"#))
    }
    #expect(unmatched?.detail.contains("3 <tabViewItems> but 2 tabItems") == true)
  }
}
