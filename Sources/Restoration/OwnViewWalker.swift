internal import InterfaceObjects

/// Walks a view controller's own views — its root view and the subviews below it that no other
/// controller owns — depth first and front to back, the order in which preservation saves them and
/// restoration looks for them. One stack serves every walk.
///
/// An iterator (``start(at:)``, then ``next(owner:)`` until `nil`) rather than a method taking a
/// closure: a closure formed in the main actor's code checks at run time that it runs there,
/// once per view (profiled: a tenth of finding a restore's views).
@MainActor struct OwnViewWalker {
  private var stack: [View] = []
  private var steps = 0

  /// Starts a walk of the views under `root` (at most 100,000 views).
  mutating func start(at root: View) {
    stack.removeAll(keepingCapacity: true)
    stack.append(root)
    steps = 0
  }

  /// The next view of `owner`'s own views, or `nil` when the walk is over.
  mutating func next(owner: ViewController) -> View? {
    while let view = stack.popLast(), steps < 100_000 {
      steps += 1
      if let other = view.viewController, other !== owner { continue }
      let subviews = view.subviews
      var position = subviews.count
      while position > 0 {
        position -= 1
        stack.append(subviews[position])
      }
      return view
    }
    return nil
  }

  /// Ends the walk, letting go of the views still on the stack.
  mutating func reset() {
    stack.removeAll(keepingCapacity: true)
  }
}
