import Interface

/// A stack view's distribution and its `NSStackViewContainer`s, including the gravity areas of a
/// stack view whose document gives no `distribution` (AppKit's NSStackViewDistributionGravityAreas,
/// -1, the only layout before OS X 10.11).
extension CocoaNibCompiler {
  /// `distribution` → AppKit's NSStackViewDistribution (fill 0, fillEqually 1,
  /// fillProportionally 2, equalSpacing 3, equalCentering 4), or `nil` for gravity areas (the
  /// attribute left out).
  ///
  /// A gravity-area stack view is compiled only without arranged views: where Interface Builder
  /// keeps the views of each area and how Apple archives them no sample shows.
  ///
  /// - Throws: `.invalidDocument` for a distribution AppKit does not have; `.unsupported` (naming
  ///   the line) for a gravity-area stack view that holds views.
  func stackViewDistribution(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int? {
    guard let name = element["distribution"] else {
      if let subviews = element.child("subviews"), let view = subviews.children.first {
        throw unsupported(view, "views in a stack view's gravity areas (a stack view without distribution) are not compiled yet (no sample of Apple's)")
      }
      return nil
    }
    let distributions = ["fill": 0, "fillEqually": 1, "fillProportionally": 2, "equalSpacing": 3, "equalCentering": 4]
    guard let distribution = distributions[name] else { throw invalid(element, "distribution \"\(name)\" is not known") }
    return distribution
  }

  /// An `NSStackViewContainer` of `stack` holding `views` (its NSStackViewContainerNonDroppedViews):
  /// a zero-sized view that autoresizes its subviews and keeps its mask out of constraints
  /// (stackview_identifier, test19_layouts).
  mutating func stackViewContainer(_ stack: Int, views: [Int]) -> Int {
    let container = graph.add("NSStackViewContainer")
    graph[container].entries = [
      .init("NSNextResponder", .null), .init("NSNibTouchBar", .null), .init("NSvFlags", NibGraph.integer(0x100)),
      .init("NSFrameSize", string("{0, 0}")), .init("NSViewWantsBestResolutionOpenGLSurface", .bool(true)),
      .init("NSDoNotTranslateAutoresizingMask", .bool(true)), .init("IBNSSafeAreaLayoutGuide", .null), .init("IBNSLayoutMarginsGuide", .null),
      .init("IBNSClipsToBounds", .int8(0)), .init("NSStackViewContainerStackView", .object(stack)),
      .init("NSStackViewContainerViewToCustomAfterSpaceMap", .null), .init("NSStackViewContainerVisibilityPriorities", .null),
      .init("NSStackViewContainerNonDroppedViews", .object(graph.collection("NSMutableArray", views))),
    ]
    return container
  }

  /// A gravity-area stack view (no `distribution`, no arranged views) → no NSStackViewdistribution
  /// (AppKit's decoder reads its absence as the gravity areas), NSStackViewHasEqualSpacing false
  /// (written by ``compileStackView(_:parent:superview:)``), and three empty containers,
  /// `NSStackViewBeginningContainer`, `NSStackViewMiddleContainer` and `NSStackViewEndContainer`,
  /// after the edge insets. Rests on the public ibtool clone (viraptor/ibtool `stackView.py`, its
  /// reading of Apple's compile of an empty gravity-area stack view) and on the keys AppKit's
  /// decoder reads; no corpus pair has one, and the containers' place among the keys is inferred.
  /// Reported as unverified.
  mutating func appendGravityAreaContainers(_ element: InterfaceDocument.Element, stack: Int) {
    noteUnverified(element, "a stack view without distribution as gravity areas: three empty NSStackViewContainers and no NSStackViewdistribution")
    for key in ["NSStackViewBeginningContainer", "NSStackViewMiddleContainer", "NSStackViewEndContainer"] {
      graph.append(key, .object(stackViewContainer(stack, views: [])), to: stack)
    }
  }
}
