public import Foundation

/// A scroll view (`UIScrollView` / `NSScrollView`): on macOS a clip view holding the document
/// view, and the scrollers.
open class ScrollView: View {
  /// Its strong references for cycle breaking (see ``NibReferences``).
  open override func collectStrongReferences(into references: inout NibReferences) {
    super.collectStrongReferences(into: &references)
    references.cuttable(contentView) { { [weak self] in self?.contentView = nil } }
  }
  /// `contentView` (`NSContentView`, a ``ClipView``).
  public var contentView: ClipView?
  /// `documentView`: what scrolls.
  public var documentView: View? { contentView?.documentView }
  public var hasVerticalScroller = false
  public var hasHorizontalScroller = false
  /// `contentOffset`: how far the content is scrolled. No run-time exclusivity checks: a value
  /// read or assigned whole (see ``View``).
  @exclusivity(unchecked) public var contentOffset = CGPoint.zero
  public required init() { super.init() }

  /// Keeps the content offset (UIKit restores a scroll view's position).
  open override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode([Double(contentOffset.x), Double(contentOffset.y)], forKey: RestorableStateKey.contentOffset)
  }

  open override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    if let offset = restoredPoint(coder.decodeObject(forKey: RestorableStateKey.contentOffset)) { contentOffset = offset }
  }
  /// A scroller is there when its key refers to one (`NSVScroller`, `NSHScroller`).
  public static let scrollViewKeys = NibKeyTable(for: ScrollView.self, inheriting: viewKeys) {
    $0.object(\.contentView, from: "NSContentView") { $0.contentView = $1 }
    $0.decode { view, coder throws(InterfaceObjectsError) in
      view.hasVerticalScroller = try coder.decodeReference(forKey: "NSVScroller") != nil
      view.hasHorizontalScroller = try coder.decodeReference(forKey: "NSHScroller") != nil
    }
  }
  open override class var nibKeyTable: NibKeyTable { scrollViewKeys }
}

/// `NSClipView`: the visible part of a scroll view's document.
open class ClipView: View {
  /// `documentView`, weak: the clip view's subviews own it.
  public weak var documentView: View?
  public var drawsBackground = true
  public required init() { super.init() }
  public static let clipViewKeys = NibKeyTable(for: ClipView.self, inheriting: viewKeys) {
    $0.object(\.documentView, from: "NSDocView") { $0.documentView = $1 }
  }
  open override class var nibKeyTable: NibKeyTable { clipViewKeys }
}
