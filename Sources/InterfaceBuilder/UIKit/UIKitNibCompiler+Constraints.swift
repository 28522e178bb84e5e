import Interface

/// Layout constraints in both of UIKit's forms, and the layout guides they use.
extension UIKitNibCompiler {
  static let layoutAttributes: [String: Int] = [
    "left": 1, "right": 2, "top": 3, "bottom": 4, "leading": 5, "trailing": 6, "width": 7, "height": 8, "centerX": 9, "centerY": 10,
    "lastBaseline": 11, "baseline": 11, "firstBaseline": 12, "leftMargin": 13, "rightMargin": 14, "topMargin": 15,
    "bottomMargin": 16, "leadingMargin": 17, "trailingMargin": 18, "centerXWithinMargins": 19, "centerYWithinMargins": 20,
  ]

  /// The legacy attribute of a margin attribute (`NSFirstAttribute` beside `NSFirstAttributeV2`):
  /// the edge itself, the margin folded into the constant.
  static func legacyAttribute(_ attribute: Int) -> Int { (13...20).contains(attribute) ? [1, 2, 3, 4, 5, 6, 9, 10][attribute - 13] : attribute }

  /// How far a margin attribute of a view with `margins` (top, left, bottom, right) lies inside
  /// its edge, signed so that `edge = margin − offset`: leading edges inward (+), trailing (−).
  static func marginOffset(_ attribute: Int, margins: [Double]) -> Double {
    switch attribute {
    case 13, 17: margins[1]
    case 15: margins[0]
    case 14, 18: -margins[3]
    case 16: -margins[2]
    case 19: (margins[1] - margins[3]) / 2
    case 20: (margins[0] - margins[2]) / 2
    default: 0
    }
  }

  mutating func compileConstraints() throws(InterfaceBuilderError) {
    // Constraints a size-class variation installs are objects of the nib, not the view's own.
    let uninstalled = Self.excludedByDefault(document.root)
    for (list, view, viewID) in deferredConstraints {
      var constraints: [Int] = []
      for element in list.children where element.name == "constraint" {
        // Placeholder constraints stand in for the ones code adds at run time: not archived.
        if element.flag("placeholder") { continue }
        let object = try constraint(element, view: view, viewID: viewID)
        if let id = element["id"], uninstalled.contains(id) { continue }
        constraints.append(object)
      }
      appendConstraints(constraints, to: view)
    }
    compilePrototypingConstraints()
  }

  /// Adds constraints to a view's `UIViewAutolayoutConstraints`, made when it has none yet.
  mutating func appendConstraints(_ constraints: [Int], to view: Int) {
    if case .object(let list)? = graph[view]["UIViewAutolayoutConstraints"] {
      graph.objects[list].entries += constraints.map { NibGraph.Entry("UINibEncoderEmptyKey", .object($0)) }
    } else {
      graph.objects[view].entries.insertOrdered(.init("UIViewAutolayoutConstraints", .object(graph.collection("NSMutableArray", constraints))))
    }
  }

  /// A view that Interface Builder placed at a fixed frame (`fixedFrame="YES"`) and that does not
  /// translate its autoresizing mask: ibtool pins its frame with four
  /// `NSIBPrototypingLayoutConstraint`s on its superview (left and top from the superview's,
  /// width and height), identified "IB auto generated at build time for view with fixed frame",
  /// not listed among the nib's objects. One sample: mixpanel's MPNotification storyboard
  /// (Xcode 7.3.1, a document saved by Xcode 5).
  mutating func compilePrototypingConstraints() {
    let identifier = "IB auto generated at build time for view with fixed frame"
    for (view, superview, frame) in fixedFrames {
      let constraints = [
        systemConstraint("NSIBPrototypingLayoutConstraint", view, 1, superview, 1, constant: frame[0], identifier: identifier),
        systemConstraint("NSIBPrototypingLayoutConstraint", view, 3, superview, 3, constant: frame[1], identifier: identifier),
        systemConstraint("NSIBPrototypingLayoutConstraint", view, 7, nil, 0, constant: frame[2], identifier: identifier),
        systemConstraint("NSIBPrototypingLayoutConstraint", view, 8, nil, 0, constant: frame[3], identifier: identifier),
      ]
      appendConstraints(constraints, to: superview)
    }
  }

  /// A constraint ibtool makes itself (not in the document, not listed among the nib's objects),
  /// its keys in the Xcode's order: `first.attribute = second.secondAttribute + constant`.
  mutating func systemConstraint(
    _ className: String, _ first: Int, _ attribute: Int, _ second: Int?, _ secondAttribute: Int, constant: Double = 0,
    priority: Int? = nil, identifier: String? = nil
  ) -> Int {
    var keys: [String: NIBArchive.Payload] = [
      "NSFirstItem": .object(first), "NSFirstAttributeV2": NibGraph.integer(attribute), "NSFirstAttribute": NibGraph.integer(attribute),
      "NSShouldBeArchived": .bool(true),
    ]
    if let second { keys["NSSecondItem"] = .object(second) }
    if second != nil || options.xcode < 800 {
      (keys["NSSecondAttributeV2"], keys["NSSecondAttribute"]) = (NibGraph.integer(secondAttribute), NibGraph.integer(secondAttribute))
    }
    if constant != 0 { (keys["NSConstantV2"], keys["NSConstant"]) = (.float64(constant), .float64(constant)) }
    if let priority { keys["NSPriority"] = NibGraph.integer(priority) }
    if let identifier { keys["NSLayoutIdentifier"] = .object(graph.string(identifier)) }
    let order = options.xcode < 800 ? Self.constraintKeyOrderXcode7 : Self.constraintKeyOrder
    // Private UIKit classes are archived with their public superclass as the fallback.
    let fallbacks = className.hasPrefix("NSLayout") ? [] : ["NSLayoutConstraint"]
    return graph.add(className, fallbacks: fallbacks, order.compactMap { key in keys[key].map { NibGraph.Entry(key, $0) } })
  }

  /// An item of a constraint: an object of the document, or a layout guide (made on first use).
  mutating func item(_ id: String, of element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    if let object = constraintItems[id] ?? objectsByID[id] { return object }
    if let guide = guideObjects[id] { return guide }
    guard let (view, key) = layoutGuides[id] else {
      throw invalid(element, "<constraint> refers to \(id), which the document does not define")
    }
    if options.withoutSafeAreaGuides, key == "safeArea" { return view }
    let guide = layoutGuide(owner: view, key: key)
    guideObjects[id] = guide
    return guide
  }

  /// The order of a constraint's keys: Xcode 8 and later write each legacy attribute beside its
  /// V2 form; Xcode 7 wrote the V2 forms, then `NSShouldBeArchived`, then the legacy ones (and a
  /// second attribute of 0 when there is no second item).
  static let constraintKeyOrder = [
    "NSFirstItem", "NSFirstAttributeV2", "NSFirstAttribute", "NSRelation", "NSMultiplier", "NSSecondItem", "NSSecondAttributeV2",
    "NSSecondAttribute", "NSSymbolicConstant", "NSConstantV2", "NSShouldBeArchived", "NSPriority", "NSConstant", "NSLayoutIdentifier",
  ]
  /// (Xcode 7's identifier before the legacy keys: the prototyping constraints of one storyboard
  /// pair; no xib pair has an identified constraint.)
  static let constraintKeyOrderXcode7 = [
    "NSFirstItem", "NSFirstAttributeV2", "NSRelation", "NSMultiplier", "NSSecondItem", "NSSecondAttributeV2", "NSSymbolicConstant",
    "NSConstantV2", "NSShouldBeArchived", "NSPriority", "NSLayoutIdentifier", "NSFirstAttribute", "NSSecondAttribute", "NSConstant",
  ]

  mutating func constraint(_ element: InterfaceDocument.Element, view: Int, viewID: String) throws(InterfaceBuilderError) -> Int {
    var keys: [String: NIBArchive.Payload] = [:]
    let first = try item(element["firstItem"] ?? viewID, of: element)
    let firstAttribute = Self.layoutAttributes[element["firstAttribute"] ?? ""] ?? 0
    keys["NSFirstItem"] = .object(first)
    keys["NSFirstAttributeV2"] = NibGraph.integer(firstAttribute)
    keys["NSFirstAttribute"] = NibGraph.integer(Self.legacyAttribute(firstAttribute))
    let relations = ["lessThanOrEqual": -1, "greaterThanOrEqual": 1]
    if let relation = element["relation"].flatMap({ relations[$0] }) { keys["NSRelation"] = NibGraph.integer(relation) }
    var multiplier = 1.0
    if let text = element["multiplier"] {
      let parts = text.split(separator: ":").compactMap { Double($0) }
      multiplier = parts.count == 2 && parts[1] != 0 ? parts[0] / parts[1] : parts.first ?? 1
      // Interface Builder holds the multiplier as a float: the double written is the float's.
      if multiplier != 1 { keys["NSMultiplier"] = .float64(Double(Float(multiplier))) }
    }
    let constant = element.double("constant") ?? 0
    var legacy = constant
    var second: Int?
    var secondAttribute = 0
    if let attribute = element["secondAttribute"] {
      secondAttribute = Self.layoutAttributes[attribute] ?? 0
      let target = try item(element["secondItem"] ?? viewID, of: element)
      second = target
      keys["NSSecondItem"] = .object(target)
    }
    if second != nil || options.xcode < 800 {
      keys["NSSecondAttributeV2"] = NibGraph.integer(secondAttribute)
      keys["NSSecondAttribute"] = NibGraph.integer(Self.legacyAttribute(secondAttribute))
    }
    // The legacy constant holds the margins: first.edge = first.margin − offset.
    legacy -= Self.marginOffset(firstAttribute, margins: margins[first] ?? [8, 8, 8, 8])
    if let second { legacy += multiplier * Self.marginOffset(secondAttribute, margins: margins[second] ?? [8, 8, 8, 8]) }
    // A standard spacing is its symbol alone (MPSurvey, Xcode 7.3.1; no xib pair has one).
    let symbolic = element["symbolic"] == "YES"
    if symbolic { legacy = 0 }
    if symbolic { keys["NSSymbolicConstant"] = .object(graph.string("NSSpace")) }
    if constant != 0, !symbolic { keys["NSConstantV2"] = .float64(constant) }
    keys["NSShouldBeArchived"] = .bool(true)
    if let priority = element.wholeNumber("priority"), priority != 1000 { keys["NSPriority"] = NibGraph.integer(priority) }
    if legacy != 0 { keys["NSConstant"] = .float64(legacy) }
    if let identifier = element["identifier"] { keys["NSLayoutIdentifier"] = .object(graph.string(identifier)) }
    let order = options.xcode < 800 ? Self.constraintKeyOrderXcode7 : Self.constraintKeyOrder
    let constraint = graph.add("NSLayoutConstraint", order.compactMap { key in keys[key].map { NibGraph.Entry(key, $0) } })
    try register(constraint, element)
    objects.append(constraint)
    return constraint
  }

  /// A view's layout guide as UIKit archives it: `UILayoutGuide` owned by the view, locked, with
  /// the system constraints that tie it to the view's edges (not archived themselves); the view
  /// lists it under `UIViewLayoutGuides`. The document's `<viewLayoutGuide>` object itself is
  /// listed in `UINibObjectsKey` as an empty guide. Evidence: the safe-area guides of the
  /// YPImagePicker pairs (Xcode 9 to 12).
  mutating func layoutGuide(owner view: Int, key: String, listed: Bool = true) -> Int {
    let identifier = key == "safeArea" ? "UIViewSafeAreaLayoutGuide" : "UIViewLayoutMarginsGuide"
    let guide = graph.add("UILayoutGuide")
    var system: [Int] = []
    for (attribute, name, guideFirst) in [(3, "top", true), (1, "left", true), (4, "bottom", false), (2, "right", false)] {
      let (first, second) = guideFirst ? (guide, view) : (view, guide)
      system.append(
        graph.add(
          "NSLayoutConstraint",
          [
            .init("NSFirstItem", .object(first)), .init("NSFirstAttributeV2", NibGraph.integer(attribute)),
            .init("NSFirstAttribute", NibGraph.integer(attribute)), .init("NSSecondItem", .object(second)),
            .init("NSSecondAttributeV2", NibGraph.integer(attribute)), .init("NSSecondAttribute", NibGraph.integer(attribute)),
            .init("NSShouldBeArchived", .bool(false)), .init("NSLayoutIdentifier", .object(graph.string("\(identifier)-\(name)"))),
          ]))
    }
    graph[guide].entries = [
      .init("UILayoutGuideOwningView", .object(view)), .init("UILayoutGuideIdentifier", .object(graph.string(identifier))),
      .init("UILayoutGuideOwningViewIsLocked", .bool(true)), .init("UILayoutGuideShouldBeArchived", .bool(true)),
      .init("UILayoutGuideAllowsNegativeDimensions", .bool(true)),
      .init("UILayoutGuideSystemConstraints", .object(graph.collection("NSArray", system))),
    ]
    if case .object(let list)? = graph[view]["UIViewLayoutGuides"] {
      graph.objects[list].entries.append(.init("UINibEncoderEmptyKey", .object(guide)))
    } else {
      graph.objects[view].entries.insertOrdered(.init("UIViewLayoutGuides", .object(graph.collection("NSMutableArray", [guide]))))
    }
    guard listed else { return guide }
    objects.append(
      graph.add(
        "UILayoutGuide",
        [
          .init("UILayoutGuideOwningView", .null), .init("UILayoutGuideIdentifier", .object(graph.string(""))),
          .init("UILayoutGuideOwningViewIsLocked", .bool(false)), .init("UILayoutGuideShouldBeArchived", .bool(false)),
          .init("UILayoutGuideAllowsNegativeDimensions", .bool(false)),
        ]))
    return guide
  }
}

extension [NibGraph.Entry] {
  /// Inserts a UIView key where ``UIKitNibCompiler/keyOrder`` puts it among the view's keys.
  mutating func insertOrdered(_ entry: NibGraph.Entry) {
    guard let rank = UIKitNibCompiler.keyRank[entry.key] else { append(entry); return }
    let position = firstIndex { UIKitNibCompiler.keyRank[$0.key].map { $0 > rank } ?? true } ?? count
    insert(entry, at: position)
  }
}
