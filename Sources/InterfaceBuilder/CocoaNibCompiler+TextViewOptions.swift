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
  }

  /// The options of `element`, from AppKit's decoders (GNUstep's NSTextView and public
  /// re-implementations of AppKit that read Apple's nibs):
  ///
  /// - `drawsBackground="NO"` clears NSFlags 0x800, the bit AppKit's decoder reads as
  ///   drawsBackground (set in every pair, none of which says drawsBackground).
  /// - `incrementalSearchingEnabled="YES"` sets NSFlags 0x40000000 (a re-implementation's bit
  ///   table, whose upper bits — 0x2000 find panel, 0x4000 document background color, 0x40000
  ///   link detection, 0x4000000 spelling correction — agree with the pairs).
  /// - `allowsNonContiguousLayout="YES"` sets NSLMFlags 0x80 (the same re-implementation's
  ///   layout manager decoder).
  /// - `textCompletion="NO"` is NSAutomaticTextCompletionDisabled true: the key the pairs' text
  ///   views write false, and the one search fields write true for the same attribute
  ///   (searchfield_no_completion).
  /// - `allowsCharacterPickerTouchBarItem="NO"` is not written: no decoder shows where a text
  ///   view keeps it (text field cells have NSCharacterPickerEnabled; a text view's shared data
  ///   has no such key in the pairs), so AppKit's default (YES) stays, with a warning.
  mutating func textViewOptions(_ element: InterfaceDocument.Element) -> TextViewOptions {
    var options = TextViewOptions()
    if let draws = element["drawsBackground"] {
      if draws == "NO" { options.clearedFlags |= 0x800 }
      noteUnverified(element, "<textView drawsBackground=\"\(draws)\"> as NSTextViewSharedData NSFlags 0x800 (AppKit's drawsBackground bit)")
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
      noteUnverified(
        element, "<textView allowsCharacterPickerTouchBarItem=\"NO\"> not written: no archive key for a text view's is known, so AppKit's default (YES) stays")
    }
    return options
  }
}
