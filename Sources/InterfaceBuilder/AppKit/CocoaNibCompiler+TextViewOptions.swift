import Interface

extension CocoaNibCompiler {
  // MARK: Text view options without an Apple sample

  /// What a `<textView>`'s less common attributes change in its archive. None of them is in a
  /// corpus pair, so each one given is reported with ``noteUnverified(_:_:)``.
  struct TextViewOptions {
    /// `NSTextViewSharedData` NSFlags bits to clear and to set.
    var clearedFlags = 0
    var setFlags = 0
    /// Bits added to the layout manager's NSLMFlags (0x66 in every pair).
    var layoutManagerFlags = 0
    /// `NSTextViewSharedData` NSAutomaticTextCompletionDisabled.
    var completionDisabled = false
    /// `NSTextViewSharedData` NSMoreFlags (1 in every pair).
    var moreFlags = 1
  }

  /// The options of `element`, from AppKit's decoders (GNUstep's NSTextView and public
  /// re-implementations of AppKit that read Apple's nibs):
  ///
  /// - `drawsBackground="NO"` clears NSFlags 0x100 (set in every pair, none of which says
  ///   drawsBackground): a public ibtool re-implementation's probes of Apple's ibtool, and its
  ///   reading of Apple's compile of NetNewsWire's AboutWindowController.xib (two text views with
  ///   drawsBackground="NO": 0x801, 0x4000A05), keep 0x800 and clear 0x100.
  /// - `incrementalSearchingEnabled="YES"` sets NSFlags 0x40000000 (a re-implementation's bit
  ///   table, whose upper bits — 0x2000 find panel, 0x4000 document background color, 0x40000
  ///   link detection, 0x4000000 spelling correction — agree with the pairs).
  /// - `allowsNonContiguousLayout="YES"` sets NSLMFlags 0x80 (the same re-implementation's
  ///   layout manager decoder).
  /// - `textCompletion="NO"` is NSAutomaticTextCompletionDisabled true: the key the pairs' text
  ///   views write false, and the one search fields write true for the same attribute
  ///   (searchfield_no_completion).
  /// - `allowsCharacterPickerTouchBarItem="NO"` sets NSMoreFlags 0x2 (NSMoreFlags 3): the same
  ///   re-implementation's probes and its reading of the same About window.
  mutating func textViewOptions(_ element: InterfaceDocument.Element) -> TextViewOptions {
    var options = TextViewOptions()
    if let draws = element["drawsBackground"] {
      if draws == "NO" { options.clearedFlags |= 0x100 }
      noteUnverified(element, "<textView drawsBackground=\"\(draws)\"> as NSTextViewSharedData NSFlags 0x100")
    }
    if let incremental = element["incrementalSearchingEnabled"] {
      if incremental == "YES" { options.setFlags |= 0x4000_0000 }
      noteUnverified(element, "<textView incrementalSearchingEnabled=\"\(incremental)\"> as NSTextViewSharedData NSFlags 0x40000000")
    }
    if let nonContiguous = element["allowsNonContiguousLayout"] {
      if nonContiguous == "YES" { options.layoutManagerFlags |= 0x80 }
      noteUnverified(element, "<textView allowsNonContiguousLayout=\"\(nonContiguous)\"> as NSLayoutManager NSLMFlags 0x80")
    }
    if let completion = element["textCompletion"] {
      options.completionDisabled = completion == "NO"
      noteUnverified(element, "<textView textCompletion=\"\(completion)\"> as NSTextViewSharedData NSAutomaticTextCompletionDisabled")
    }
    if let picker = element["allowsCharacterPickerTouchBarItem"], picker == "NO" {
      options.moreFlags |= 0x2
      noteUnverified(element, "<textView allowsCharacterPickerTouchBarItem=\"NO\"> as NSTextViewSharedData NSMoreFlags 0x2")
    }
    return options
  }
}
