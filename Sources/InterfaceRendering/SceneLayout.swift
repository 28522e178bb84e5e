public import Foundation
public import InterfaceObjects

/// Lays a loaded view tree out as drawing primitives: each visible view at its frame in scene
/// coordinates (points, top left origin, y down), back to front (a view before its subviews,
/// subviews in order), clipped to its ancestors where the platform clips, each kind of view as
/// its content (text with its font, colour and alignment; images by name; controls; borders and
/// backgrounds). Hidden views and views with alpha 0 are left out with everything in them.
///
/// Frames: UIKit's are in the superview's coordinates with y down (a scroll view's subviews
/// moved by its `contentOffset`); AppKit's with y up from the superview's bottom edge, except in
/// the views AppKit flips (scroll, clip, table, outline, text and stack views: y down).
///
/// ```swift
/// let layout = SceneLayout(platform: .appKit)
/// let primitives = layout.primitives(for: window.contentView!)
/// ```
@MainActor public struct SceneLayout {
  /// Whose frames and defaults: UIKit's (`UIView`) or AppKit's (`NSView`).
  public enum Platform: Sendable { case uiKit, appKit }

  public var platform: Platform
  /// The colours of the appearance drawn.
  public var palette: Palette
  /// The view drawn as focused (a cursor in a text field, a focused button inverse on a terminal).
  public var focusedView: View?
  /// How a date picker's date reads (the app's language and format).
  public var formatDate: (Date, DatePicker.Mode) -> String = { date, _ in date.formatted() }
  /// A date picker's parts (UIKit's wheels: labels, values, the selected one), when the app
  /// shows them.
  public var datePickerParts: ((DatePicker) -> (labels: [String], values: [String], selected: Int?))?
  /// A table's rows as text, and which of them is highlighted (a nib holds no rows).
  public var tableRows: (TableView) -> (rows: [String], highlighted: Int?) = { _ in ([], nil) }
  /// The file of an image by name (`+[UIImage imageNamed:]`'s lookup in the app's bundle), or `nil`.
  public var imagePath: (String) -> String? = { _ in nil }

  public init(platform: Platform = .uiKit, palette: Palette = Palette()) {
    self.platform = platform
    self.palette = palette
  }

  /// The default size of text in points: UIKit's label (17) or AppKit's system font (13).
  public var defaultTextSize: Double { platform == .uiKit ? 17 : 13 }

  /// `view`'s frame in the coordinates of its topmost ancestor's superview (the root's own
  /// origin included), as ``primitives(for:)`` places it.
  public func sceneFrame(of view: View) -> CGRect {
    var chain: [View] = []
    var current: View? = view
    while let next = current, chain.count < 100_000 {
      chain.append(next)
      current = next.superview
    }
    var origin = CGPoint.zero
    var parentHeight = 0.0
    var parentFlipped = true
    for (index, ancestor) in chain.reversed().enumerated() {
      let frame = placed(ancestor.frame, parentHeight: parentHeight, flipped: parentFlipped || index == 0)
      origin = CGPoint(x: origin.x + frame.minX, y: origin.y + frame.minY)
      if ancestor === view { return CGRect(origin: origin, size: ancestor.frame.size) }
      origin = contentOrigin(of: ancestor, at: origin)
      parentHeight = ancestor.frame.height
      parentFlipped = isFlipped(ancestor)
    }
    return CGRect(origin: origin, size: view.frame.size)
  }

  /// Everything in `root` and below, the root's own background first (`backgroundColor`, else
  /// the scene's default: `systemBackgroundColor` on UIKit, `windowBackgroundColor` on AppKit).
  public func primitives(for root: View) -> [DrawingPrimitive] {
    var list: [DrawingPrimitive] = []
    let frame = CGRect(origin: root.frame.origin, size: root.frame.size)
    let background = palette.resolve(root.backgroundColor) ?? (platform == .uiKit ? palette.sceneBackground : palette.windowBackground)
    list.append(DrawingPrimitive(frame: frame, content: .fill(background, cornerRadius: 0), view: root))
    walk(root, origin: .zero, parentHeight: 0, parentFlipped: true, clip: nil, opacity: 1, into: &list, skippingOwnBackground: true)
    return list
  }

  /// Everything below `root`, not `root` itself (a terminal screen is its background).
  public func primitives(ofSubviewsOf root: View) -> [DrawingPrimitive] {
    var list: [DrawingPrimitive] = []
    let origin = contentOrigin(of: root, at: root.frame.origin)
    for subview in root.subviews {
      walk(subview, origin: origin, parentHeight: root.frame.height, parentFlipped: isFlipped(root), clip: nil, opacity: 1, into: &list)
    }
    return list
  }

  /// The frame `frame` (in its superview) measured from the superview's top edge.
  func placed(_ frame: CGRect, parentHeight: Double, flipped: Bool) -> CGRect {
    guard platform == .appKit, !flipped else { return frame }
    return CGRect(x: frame.minX, y: parentHeight - frame.maxY, width: frame.width, height: frame.height)
  }

  /// Where `view`'s subviews' coordinates start, given its own scene origin: moved by a UIKit
  /// scroll view's content offset.
  func contentOrigin(of view: View, at origin: CGPoint) -> CGPoint {
    guard let scroll = view as? ScrollView else { return origin }
    return CGPoint(x: origin.x - scroll.contentOffset.x, y: origin.y - scroll.contentOffset.y)
  }

  /// Whether `view` lays its subviews out y down: every UIKit view; AppKit's flipped classes.
  func isFlipped(_ view: View) -> Bool {
    platform == .uiKit || view is ScrollView || view is ClipView || view is TableView || view is TextView || view is StackView
  }

  /// Whether `view` clips its subviews: every AppKit view; UIKit's scroll and table views.
  func clipsSubviews(_ view: View) -> Bool { platform == .appKit || view is ScrollView || view is TableView }

  private func walk(
    _ view: View, origin: CGPoint, parentHeight: Double, parentFlipped: Bool, clip: CGRect?, opacity: Double,
    into list: inout [DrawingPrimitive], skippingOwnBackground: Bool = false
  ) {
    guard !view.isHidden, view.alpha > 0 else { return }
    let local = placed(view.frame, parentHeight: parentHeight, flipped: parentFlipped)
    let frame = CGRect(x: origin.x + local.minX, y: origin.y + local.minY, width: local.width, height: local.height)
    let alpha = opacity * min(1, view.alpha)
    if !skippingOwnBackground, let background = palette.resolve(view.backgroundColor), background.alpha > 0 {
      list.append(DrawingPrimitive(frame: frame, clip: clip, content: .fill(background.fading(alpha), cornerRadius: 0), view: view))
    }
    for content in contents(of: view, frame: frame, opacity: alpha) {
      list.append(DrawingPrimitive(frame: content.frame ?? frame, clip: clip, content: content.content, view: view))
    }
    let childClip = clipsSubviews(view) ? (clip.map { $0.intersection(frame) } ?? frame) : clip
    let childOrigin = contentOrigin(of: view, at: frame.origin)
    for subview in view.subviews {
      walk(subview, origin: childOrigin, parentHeight: view.frame.height, parentFlipped: isFlipped(view), clip: childClip, opacity: alpha, into: &list)
    }
  }
}
