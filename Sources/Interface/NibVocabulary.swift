/// The long keys and class names of Apple's nibs, as string literals.
///
/// A string of more than 15 UTF-8 bytes lives in a heap buffer that every copy retains and every
/// drop releases, atomically; a string literal is immortal and copies for free. A nib graph copies
/// its keys into every entry and its class names into every object (13,000 copies of long keys
/// for a 1,000-object window: profiled at a tenth of reading the nib and freeing it), so the
/// readers give each long key and class name they know the literal's storage instead of a new
/// buffer. The strings are equal either way; only where the bytes live differs.
///
/// The lists are the keys and class names longer than 15 bytes found in at least two of the 155
/// NIBArchives Apple's ibtool compiled in the shared corpus (`corpus/nib`, read 2026-11-26). A name
/// not listed is read as before.
enum NibVocabulary {
  /// The literal equal to `text`, or `text` itself when it is short or not a known name.
  static func interned(_ text: String) -> String {
    guard text.utf8.count > 15, let literal = literals[text] else { return text }
    return literal
  }

  private static let literals: [String: String] = {
    var table: [String: String] = [:]
    for name in keys + classNames { table[name] = name }
    return table
  }()

  static let keys: [String] = [
    "IB.systemFontUpdateVersion", "IBClassReference", "IBDesignImageConfiguration", "IBModuleProvider",
    "IBNSBoxIsUsingDocumentContentView", "IBNSClipsToBounds", "IBNSLayoutMarginsGuide", "IBNSSafeAreaLayoutGuide",
    "IBNSShadowedSymbolConfiguration", "IBWindowTemplate", "IBWindowTemplateContentViewController", "NS.negativeattrs",
    "NS.negativeformat", "NS.positiveattrs", "NS.positiveformat", "NS.raise.dividebyzero", "NS.raise.overflow",
    "NS.raise.underflow", "NS.resolvesNaturalAlignmentWithBaseWritingDirection", "NSAccessibilityConnectors",
    "NSAccessibilityOidsKeys", "NSAccessibilityOidsValues", "NSAccessibilityOverriddenAttributes",
    "NSAllowTruncatedLabels", "NSAllowsKeyEquivalentLocalization", "NSAllowsKeyEquivalentMirroring",
    "NSAllowsLogicalLayoutDirection", "NSAllowsTickMarkValuesOnly", "NSAllowsTypeSelect", "NSAllowsWritingTools",
    "NSAlternateContents", "NSAlternateImage", "NSAntiCompressionPriority", "NSAutomaticTextCompletionDisabled",
    "NSAutomaticTextCompletionStored", "NSAutomaticallyAdjustsContentInsets", "NSBackgroundColor", "NSCancelButtonCell",
    "NSCharacterPickerEnabled", "NSChildControllerCreationSelectorName", "NSColumnAutoresizingStyle",
    "NSControlAllowsExpansionToolTips", "NSControlContinuous", "NSControlLineBreakMode",
    "NSControlRefusesFirstResponder", "NSControlSendActionMask", "NSControlTextAlignment", "NSControlUsesSingleLineMode",
    "NSControlWritingDirection", "NSCustomColorSpace", "NSDefaultParagraphStyle", "NSDoNotTranslateAutoresizingMask",
    "NSDraggingSourceMaskForLocal", "NSDraggingSourceMaskForNonLocal", "NSDrawsBackground",
    "NSExternalObjectPlaceholderIdentifier", "NSExternalObjectsTableForViewLoading", "NSFirstAttribute",
    "NSFirstAttributeV2", "NSFontDescriptorAttributes", "NSFontDescriptorOptions", "NSFontUsesAppearanceFontSize",
    "NSGestureRecognizer.action", "NSGestureRecognizer.allowedTouchTypes", "NSGestureRecognizer.delegate",
    "NSGestureRecognizer.target", "NSGestureRecognizers", "NSHasActionImage", "NSHeaderClipView",
    "NSHiddenInRepresentation", "NSHuggingPriority", "NSImageAnimation", "NSImageViewPlaceholderPrecedence",
    "NSInitializeWithInit", "NSInsertionColor", "NSIntercellSpacingHeight", "NSIntercellSpacingWidth",
    "NSInternalLayoutDirection", "NSKeyEquivModMask", "NSLinearExposure", "NSLinkAttributes", "NSMarkedAttributes",
    "NSMaxFullScreenContentSize", "NSMaxMagnification", "NSMaximumRecents", "NSMenuItemRespectAlignment",
    "NSMinFullScreenContentSize", "NSMinMagnification", "NSNibBindingConnectorVersion", "NSNibFileIsKeyed",
    "NSNibFileUseParentBundle", "NSNumberOfTickMarks", "NSOriginalClassName", "NSOutineViewStronglyReferencesItems",
    "NSOutlineViewAutoresizesOutlineColumnKey", "NSOutlineViewIndentationPerLevelKey",
    "NSPanGestureRecognizer.buttonMask", "NSPanGestureRecognizer.numberOfTouchesRequired", "NSPeriodicInterval",
    "NSPredicateEditorPredicate", "NSPredicateTemplateLeftAttributeType", "NSPredicateTemplateLeftIsWildcard",
    "NSPredicateTemplateModifier", "NSPredicateTemplateOptions", "NSPredicateTemplateRightAttributeType",
    "NSPredicateTemplateRightIsWildcard", "NSPredicateTemplateType", "NSPredicateTemplateViews", "NSPredicateTemplates",
    "NSPreferredTextFinderStyle", "NSRepresentedObject", "NSReuseIdentifierKey", "NSRuleEditorAlignmentGridWidth",
    "NSRuleEditorAllowsEmptyCompoundRows", "NSRuleEditorBoundArrayKeyPath", "NSRuleEditorBoundArrayOwner",
    "NSRuleEditorDelegate", "NSRuleEditorDisallowEmpty", "NSRuleEditorEditable", "NSRuleEditorFormattingDictionary",
    "NSRuleEditorItemsKeyPath", "NSRuleEditorNestingMode", "NSRuleEditorRowClass", "NSRuleEditorRowTypeKeyPath",
    "NSRuleEditorSliceHeight", "NSRuleEditorSlices", "NSRuleEditorSlicesHolder", "NSRuleEditorSubrowsArrayKeyPath",
    "NSRuleEditorValuesKeyPath", "NSSearchButtonCell", "NSSearchFieldFlags", "NSSecondAttribute", "NSSecondAttributeV2",
    "NSSegmentDistribution", "NSSegmentItemImageScaling", "NSSegmentItemLabel", "NSSegmentItemTag",
    "NSSelectedAttributes", "NSSelectedSegment", "NSShouldBeArchived", "NSStackViewAlignment",
    "NSStackViewBeginningContainer", "NSStackViewContainerNonDroppedViews", "NSStackViewContainerStackView",
    "NSStackViewContainerViewToCustomAfterSpaceMap", "NSStackViewContainerVisibilityPriorities",
    "NSStackViewDetachesHiddenViews", "NSStackViewEdgeInsets.bottom", "NSStackViewEdgeInsets.left",
    "NSStackViewEdgeInsets.right", "NSStackViewEdgeInsets.top", "NSStackViewHasEqualSpacing",
    "NSStackViewHasFlatViewHierarchy", "NSStackViewHorizontalClippingResistance", "NSStackViewHorizontalHugging",
    "NSStackViewOrientation", "NSStackViewSecondaryAlignment", "NSStackViewSpacing",
    "NSStackViewVerticalClippingResistance", "NSStackViewVerticalHugging", "NSStackViewdistribution",
    "NSStepperAutorepeat", "NSStepperIncrement", "NSStepperMaxValue", "NSStepperMinValue", "NSSymbolicConstant",
    "NSTIFFRepresentation", "NSTableViewArchivedReusableViewsKey", "NSTableViewDraggingDestinationStyle",
    "NSTableViewGroupRowStyle", "NSTextBezelStyle", "NSTextCheckingTypes", "NSTextContainers",
    "NSTextFieldAlignmentRectInsetsVersion", "NSTextFieldAllowsWritingToolsAffordance", "NSTextHighlightAttributes",
    "NSTextLayoutManager", "NSTextStyleDescriptor", "NSTextViewTextColor", "NSTickMarkPosition",
    "NSToolbarAllowsUserCustomization", "NSToolbarAutosavesConfiguration", "NSToolbarCenteredItemIdentifier",
    "NSToolbarDelegate", "NSToolbarDisplayMode", "NSToolbarIBAllowedItems", "NSToolbarIBDefaultItems",
    "NSToolbarIBIdentifiedItems", "NSToolbarIBSelectableItems", "NSToolbarIdentifier", "NSToolbarIsUserRemovable",
    "NSToolbarItemAction", "NSToolbarItemAutovalidates", "NSToolbarItemBordered", "NSToolbarItemEnabled",
    "NSToolbarItemIdentifier", "NSToolbarItemIgnoreMinMaxSizes", "NSToolbarItemImage", "NSToolbarItemLabel",
    "NSToolbarItemMaxSize", "NSToolbarItemMenuFormRepresentation", "NSToolbarItemMinSize", "NSToolbarItemNavigational",
    "NSToolbarItemPaletteLabel", "NSToolbarItemStyle", "NSToolbarItemTag", "NSToolbarItemTarget", "NSToolbarItemTitle",
    "NSToolbarItemToolTip", "NSToolbarItemView", "NSToolbarItemVisibilityPriority", "NSToolbarPrefersToBeShown",
    "NSToolbarSizeMode", "NSUserInterfaceItemIdentifier", "NSUsesItemFromMenu", "NSViewClipsToBoundsKeyName",
    "NSViewConstraints", "NSViewIsLayerTreeHost", "NSViewWantsBestResolutionOpenGLSurface", "NSVisibleWindows",
    "NSWindowCollectionBehavior", "NSWindowContentMinSize", "NSWindowIsRestorable", "NSWindowStyleMask",
    "NSWindowSubtitle", "NSWindowTabbingMode", "NSWritingToolsFlags", "UINibEncoderEmptyKey",
    "explicitStoryboardIdentifier", "showSeguePresentationStyle", "uniqueIdentifierForStoryboardCompilation",
  ]

  static let classNames: [String] = [
    "IBClassReference", "NSAttributedString", "NSBitmapImageRep", "NSButtonImageSource", "NSCustomResource",
    "NSDecimalNumberHandler", "NSFontDescriptor", "NSIBHelpConnector", "NSIBUserDefinedRuntimeAttributesConnector",
    "NSLayoutConstraint", "NSLocalizableString", "NSMutableDictionary", "NSNibBindingConnector", "NSNibControlConnector",
    "NSNibExternalObjectPlaceholder", "NSNibOutletConnector", "NSNumberFormatter", "NSPanGestureRecognizer",
    "NSPopUpButtonCell", "NSPredicateEditor", "NSPredicateEditorRowTemplate", "NSSearchFieldCell", "NSSegmentedControl",
    "NSStackViewContainer", "NSTableHeaderCell", "NSTableHeaderView", "NSTextViewSharedData",
    "NSToolbarFlexibleSpaceItem", "NSToolbarSpaceItem", "NSWindowController", "NSWindowTemplate",
    "_NSRuleEditorViewSliceHolder", "_NSRuleEditorViewUnboundRowHolder",
  ]
}
