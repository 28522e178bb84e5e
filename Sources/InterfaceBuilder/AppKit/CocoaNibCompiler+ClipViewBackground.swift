import Interface

extension CocoaNibCompiler {
  /// Whether a clip view draws its background (`NScvFlags` bit 0x4, AppKit's
  /// `drawsBackground`) when the document says nothing: Interface Builder changed the default
  /// at toolsVersion 14269 (Xcode 10), and documents saved before it keep the old one.
  ///
  /// - `drawsBackground="YES"`/`"NO"`: as written.
  /// - Not in a scroll view (a window's or a top-level clip view): yes (test6_whitecolor,
  ///   test7_clipview, textview_attributedstring, textview_multiattr: toolsVersion 11762, a
  ///   text view's top-level clip view with a calibrated white background, Apple's NScvFlags 4).
  /// - Saved by toolsVersion 14269 or later: yes (every corpus pair of that age: sb_textview,
  ///   test7_clipview, the table pairs).
  /// - In a scroll view, saved earlier: no, except for a table or outline view's clip view, a clip view whose
  ///   document view is a custom view (not a text view), and one with a System catalog
  ///   background color — the public Python clone's reading of Apple's compiles
  ///   (viraptor/ibtool `clipView.py`; its test13_clip_flags sample, toolsVersion 11762: a text
  ///   view's clip view in a scroll view, with a calibrated white background, draws none;
  ///   clipview_customview_drawsbg: a custom view's does — two public samples). The corpus's
  ///   older scroll views (sv_nohs_small_vs, 9059, and test_table_no_header, 11762: tables)
  ///   agree with it.
  func clipViewDrawsBackground(_ element: InterfaceDocument.Element, documentName: String?, inScrollView: Bool) -> Bool {
    if let given = element["drawsBackground"] { return given == "YES" }
    if !inScrollView || (Int(document.toolsVersion) ?? Int.max) >= 14269 { return true }
    if Self.isTable(documentName) { return true }
    if let documentName, documentName != "textView" { return true }
    return element.child("color", key: "backgroundColor")?["colorSpace"] == "catalog"
  }

  /// Whether a document view's element is a table or outline view.
  static func isTable(_ name: String?) -> Bool { name == "tableView" || name == "outlineView" }
}
