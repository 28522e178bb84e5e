import Interface
import InterfaceBuilder
import Testing
import TestSupport

/// A stack view without `distribution` (AppKit's gravity areas): compiled when it holds no views,
/// from the public ibtool clone's reading of Apple's compile (viraptor/ibtool `stackView.py`) and
/// AppKit's decoder keys; no corpus pair has one, so it is reported as unverified.
@Suite struct StackViewGravityAreaTests {
  static func stack(_ attributes: String, subviews: String = "") -> String {
    """
        <stackView orientation="vertical" alignment="leading" horizontalStackHuggingPriority="249.99998474121094" verticalStackHuggingPriority="249.99998474121094" \(attributes) id="st">
            <rect key="frame" x="10" y="10" width="100" height="40"/>
            \(subviews)
        </stackView>
    """
  }

  static let button = """
    <subviews>
        <button verticalHuggingPriority="750" id="b1">
            <rect key="frame" x="0" y="0" width="80" height="32"/>
            <buttonCell key="cell" type="push" title="OK" bezelStyle="rounded" alignment="center" borderStyle="border" inset="2" id="c1">
                <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
                <font key="font" metaFont="system"/>
            </buttonCell>
        </button>
    </subviews>
    """

  @Test func anEmptyGravityAreaStackViewHasThreeEmptyContainersAndNoDistribution() throws {
    let compilation = try AppKitDecoderKeyTests.compile(Self.stack(#"detachesHiddenViews="YES""#))
    let graph = compilation.graph
    let stack = try AppKitDecoderKeyTests.only(graph, "NSStackView")
    #expect(graph[stack]["NSStackViewdistribution"] == nil)
    #expect(graph[stack]["NSStackViewHasEqualSpacing"] == .bool(false))
    #expect(graph[stack]["NSStackViewDetachesHiddenViews"] == .bool(true))
    let keys = graph[stack].entries.map(\.key)
    let containerKeys = ["NSStackViewBeginningContainer", "NSStackViewMiddleContainer", "NSStackViewEndContainer"]
    var containers: Set<Int> = []
    for key in containerKeys {
      let container = try AppKitDecoderKeyTests.target(graph, stack, key)
      containers.insert(container)
      #expect(graph[container].className == "NSStackViewContainer")
      #expect(try AppKitDecoderKeyTests.target(graph, container, "NSStackViewContainerStackView") == stack)
      let views = try AppKitDecoderKeyTests.target(graph, container, "NSStackViewContainerNonDroppedViews")
      #expect(graph[views].className == "NSMutableArray")
      #expect(graph.members(of: views)?.isEmpty == true)
    }
    #expect(containers.count == 3, "three distinct containers")
    // After the edge insets, in gravity order, before detachesHiddenViews (inferred).
    let positions = containerKeys.compactMap { keys.firstIndex(of: $0) }
    #expect(positions == positions.sorted())
    #expect(try #require(keys.firstIndex(of: "NSStackViewEdgeInsets.bottom")) < positions[0])
    #expect(try #require(keys.firstIndex(of: "NSStackViewDetachesHiddenViews")) > positions[2])
    #expect(AppKitDecoderKeyTests.warned(compilation, "stackView"))
  }

  @Test func aStackViewWithADistributionKeepsItsKeysAndIsNotWarned() throws {
    let compilation = try AppKitDecoderKeyTests.compile(Self.stack(#"distribution="fill""#))
    let graph = compilation.graph
    let stack = try AppKitDecoderKeyTests.only(graph, "NSStackView")
    #expect(graph[stack]["NSStackViewdistribution"] == .int8(0))
    #expect(graph[stack]["NSStackViewHasEqualSpacing"] == nil)
    #expect(graph[stack]["NSStackViewMiddleContainer"] == nil)
    #expect(!AppKitDecoderKeyTests.warned(compilation, "stackView"))
  }

  @Test func viewsInGravityAreasAreRefusedWithTheirLine() {
    let error = expectError(InterfaceBuilderError.self, .unsupported) {
      try AppKitDecoderKeyTests.compile(Self.stack("", subviews: Self.button))
    }
    #expect(error?.line != nil)
    // With a distribution the same views compile.
    #expect(throws: Never.self) { try AppKitDecoderKeyTests.compile(Self.stack(#"distribution="fill""#, subviews: Self.button)) }
  }
}
