internal import Interface
internal import InterfaceObjects

extension NibLoader {
  /// The help key AppKit's tool tips go under: an `NSIBHelpConnector` whose `NSFile` is this name
  /// carries the tool tip's text in `NSMarker` (Apple's compile of `tooltip_attr.xib` and
  /// `tooltip_child.xib`: NSFile "NSToolTipHelpKey", NSMarker "Tooltip via attribute").
  static let toolTipHelpKey = "NSToolTipHelpKey"

  /// `NSIBHelpConnector` {NSDestination, NSFile, NSMarker}: with NSFile `NSToolTipHelpKey`,
  /// `destination.toolTip = NSMarker`. Any other NSFile names a help book file for context help
  /// (`NSHelpManager setContextHelp:forObject:`), which has no headless counterpart: skipped with
  /// a warning (an error in strict mode).
  mutating func connectHelp(_ connector: NibGraph.Object, _ connection: Int) throws(NibLoadingError) {
    let (destination, index) = try end(connector, "NSDestination", in: connection)
    guard let file = text(connector, "NSFile") else { return try malformed(connection, "a help connector without NSFile") }
    guard file == Self.toolTipHelpKey else {
      return try missing(
        .undefinedKey, object: index, key: file,
        detail: "help connector for the help file \(file) (context help): only tool tips (\(Self.toolTipHelpKey)) are kept headless")
    }
    try set("toolTip", isPath: false, what: "tool tip", of: destination, at: index, to: text(connector, "NSMarker"))
  }

  /// The property each accessibility attribute of an `NSNibAXAttributeConnector` sets
  /// (`accessibilitySetOverrideValue:forAttribute:`, by the NSAccessibility protocol's names).
  static let accessibilityProperties: [String: String] = [
    "AXDescription": "accessibilityLabel", "AXHelp": "accessibilityHelp", "AXTitle": "accessibilityTitle",
    "AXIdentifier": "accessibilityIdentifier", "AXRoleDescription": "accessibilityRoleDescription",
    "AXValueDescription": "accessibilityValueDescription",
  ]

  /// `NSNibAXAttributeConnector` {AXDestinationArchiveKey, AXAttributeTypeArchiveKey,
  /// AXAttributeValueArchiveKey} (one of `NSIBObjectData`'s `NSAccessibilityConnectors`): the
  /// destination's accessibility property for the attribute set to the value; an attribute
  /// without a named property goes to a view's ``View/accessibilityOverrides``.
  mutating func connectAccessibilityAttribute(_ connector: NibGraph.Object, _ connection: Int) throws(NibLoadingError) {
    let (destination, index) = try end(connector, "AXDestinationArchiveKey", in: connection)
    guard let attribute = text(connector, "AXAttributeTypeArchiveKey") else {
      return try malformed(connection, "an accessibility connector without AXAttributeTypeArchiveKey")
    }
    var value: Any?
    do {
      if let payload = connector["AXAttributeValueArchiveKey"] { value = try unarchiver.value(of: payload) }
    } catch {
      throw wrap(error)
    }
    if let property = Self.accessibilityProperties[attribute] {
      try set(property, isPath: false, what: "accessibility attribute \(attribute)", of: destination, at: index, to: value)
    } else if let view = destination as? View {
      view.accessibilityOverrides[attribute] = value
    } else {
      try missing(
        .undefinedKey, object: index, key: attribute,
        detail: "accessibility attribute \(attribute): \(destination.map { "\(type(of: $0))" } ?? "nil") keeps no accessibility overrides")
    }
  }
}
