/// The objects one nib object holds strongly, as ``NibUnarchiver/breakReferenceCycles()`` walks
/// them: each class adds its own in ``NibObject/collectStrongReferences(into:)`` (after its
/// superclass's), so a new class declares its references where it declares the properties.
public struct NibReferences {
  typealias Edge = (target: AnyObject, cut: (() -> Void)?)
  private(set) var edges: [Edge] = []

  init() {}

  /// A reference the walk follows and never cuts: a known class's own, which cannot close a
  /// cycle by itself (a view's subviews, a window's content view).
  public mutating func keep(_ object: AnyObject?) {
    if let object { edges.append((object, nil)) }
  }

  /// An `Any` value, or a view held beside the subviews, which a hostile nib can point back up
  /// the tree: an object, or the objects inside an array or dictionary (to a depth of 8); cutting
  /// any of them drops the whole value through `makeCut`'s closure. The cut is made only for a
  /// value that is there: a `[weak …]` capture gives the holder a side table, which makes every
  /// later retain and release of it slow (profiled: every menu item of a nib).
  public mutating func cuttable(_ value: Any?, _ makeCut: () -> () -> Void) {
    guard let value else { return }
    let cut = makeCut()
    func add(_ value: Any, depth: Int) {
      guard depth < 8 else { return }
      if type(of: value) is AnyClass {
        edges.append((value as AnyObject, cut))
      } else if let array = value as? [Any] {
        for element in array { add(element, depth: depth + 1) }
      } else if let dictionary = value as? [String: Any] {
        for element in dictionary.values { add(element, depth: depth + 1) }
      }
    }
    add(value, depth: 0)
  }

  /// A reference cut by `cut` (a generic object's value, made weak).
  mutating func add(_ object: AnyObject, cut: @escaping () -> Void) {
    edges.append((object, cut))
  }
}
