internal import InterfaceObjects

/// Walks a view controller's own views — its root view and the subviews below it that no other
/// controller owns — depth first and front to back, the order in which preservation saves them and
/// restoration looks for them. One stack serves every walk.
@MainActor struct OwnViewWalker {
  private var stack: [View] = []

  /// Calls `visit` on each view in order until it returns false (at most 100,000 views).
  mutating func walk(under root: View, owner: ViewController, _ visit: (View) -> Bool) {
    stack.removeAll(keepingCapacity: true)
    stack.append(root)
    var steps = 0
    while let view = stack.popLast(), steps < 100_000 {
      steps += 1
      if let other = view.viewController, other !== owner { continue }
      guard visit(view) else { return }
      let subviews = view.subviews
      var position = subviews.count
      while position > 0 {
        position -= 1
        stack.append(subviews[position])
      }
    }
  }
}
