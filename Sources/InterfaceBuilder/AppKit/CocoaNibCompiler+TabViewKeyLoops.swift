import Interface

extension CocoaNibCompiler {
  // MARK: A tab view item's key view loop

  /// The key view loop AppKit builds when a tab view shows its selected item, as Apple's ibtool
  /// archives it (`NSNextKeyView`, right after each view's NSSuperview).
  ///
  /// Without scroll views: the tab view → the item's view → every view inside it, depth first,
  /// each view's subviews in AppKit's geometric order (rows top down, left to right in a row:
  /// ``KeyViewOrder``) → back to the tab view. nkv_simple is the only corpus sample (tab view →
  /// item view → custom view → A → B → C → tab view, A and B side by side above C).
  ///
  /// With scroll views (and no other control): ``scrollViewKeyViewLoop(_:itemView:scrollViews:)``.
  /// Scroll views among other controls are refused: how the two loops join is not known.
  mutating func tabViewKeyViewLoop(_ tabView: Int, itemView: (object: Int, element: InterfaceDocument.Element)) throws(InterfaceBuilderError) {
    let scrollViews = scrollViewsForKeyLoop(in: itemView.object)
    if !scrollViews.isEmpty {
      if let other = firstControl(in: itemView.element) {
        throw unsupported(
          other, "a tab view item holding scroll views beside other controls (<\(other.name)>) is not compiled yet (how their key view loops join is not known here)")
      }
      noteUnverified(itemView.element, "the key view loop of a tab view item holding scroll views (each scroll view's document → scrollers → the next)")
      try scrollViewKeyViewLoop(tabView, itemView: itemView, scrollViews: scrollViews)
      return
    }
    var chain: [(object: Int, element: InterfaceDocument.Element)] = []
    func visit(_ view: (object: Int, element: InterfaceDocument.Element)) throws(InterfaceBuilderError) {
      chain.append(view)
      let siblings = view.element.child("subviews")?.children ?? []
      for subview in KeyViewOrder.order(siblings.map(\.frameRect)).map({ siblings[$0] }) {
        guard let id = subview["id"], let object = objectsByID[id] else {
          throw unsupported(subview, "a view without an id inside a tab view item is not compiled yet (its place in the key view loop is not known)")
        }
        try visit((object, subview))
      }
    }
    try visit(itemView)
    let loop = [tabView] + chain.map(\.object)
    for (position, view) in loop.enumerated() {
      let next = loop[(position + 1) % loop.count]
      let entries = graph[view].entries
      guard !entries.contains(where: { $0.key == "NSNextKeyView" }), entries.contains(where: { $0.key == "NSSuperview" }) else {
        let element = position == 0 ? nil : chain[position - 1].element
        throw unsupported(
          element ?? itemView.element, "a tab view item holding a view with its own key view loop or no superview is not compiled yet (how the loops join is not known here)")
      }
      setNextKeyView(view, .object(next))
    }
  }

  /// The loop through a tab view item's scroll views, as the public Python clone reads it off
  /// Apple's compiles (viraptor/ibtool `tabView.py`, "_build_scrollview_chain"; no corpus pair
  /// has one, so it is reported as unverified). The scroll views are taken in archive order
  /// (each view's NSSubviews, not inside a scroll view); for each:
  /// - its clip view → its document view (as every scroll view has it);
  /// - its document view → its horizontal scroller → its vertical scroller when the horizontal
  ///   one is on screen; → its vertical scroller when the horizontal one is parked off screen
  ///   (a negative origin), and then the scroll view → that scroller → nil;
  /// - its vertical scroller → the next scroll view, the last one → the tab view.
  /// The tab view → the item's view → its first subview → … → the first scroll view (or the
  /// view where first subviews end), which ends there (nil) unless it leads to its parked
  /// scroller; every other scroll view leads nowhere (no NSNextKeyView).
  mutating func scrollViewKeyViewLoop(
    _ tabView: Int, itemView: (object: Int, element: InterfaceDocument.Element), scrollViews: [Int]
  ) throws(InterfaceBuilderError) {
    for (position, scrollView) in scrollViews.enumerated() {
      let horizontal = objectEntry(scrollView, "NSHScroller"), vertical = objectEntry(scrollView, "NSVScroller")
      let document = objectEntry(scrollView, "NSContentView").flatMap { objectEntry($0, "NSDocView") }
      let parked = horizontal.map(isParkedOffScreen) ?? true
      if let horizontal, parked {
        setNextKeyView(scrollView, .object(horizontal))
        setNextKeyView(horizontal, .null)
      } else {
        graph[scrollView].entries.removeAll { $0.key == "NSNextKeyView" }
      }
      if let document {
        if let horizontal, !parked {
          setNextKeyView(document, .object(horizontal))
          if let vertical { setNextKeyView(horizontal, .object(vertical)) }
        } else if let vertical {
          setNextKeyView(document, .object(vertical))
        }
      }
      if let vertical { setNextKeyView(vertical, .object(position + 1 < scrollViews.count ? scrollViews[position + 1] : tabView)) }
    }
    // The tab view → the item's view → first subviews down to the first scroll view.
    var path = [tabView, itemView.object]
    while path.last != scrollViews[0], let last = path.last, let first = subviews(of: last).first, path.count < 256 { path.append(first) }
    for (view, next) in zip(path, path.dropFirst()) { setNextKeyView(view, .object(next)) }
    if let last = path.last, !graph[last].entries.contains(where: { $0.key == "NSNextKeyView" }) { setNextKeyView(last, .null) }
  }

  /// The scroll views under `view` in archive order, not looking inside a scroll view.
  func scrollViewsForKeyLoop(in view: Int) -> [Int] {
    var found: [Int] = []
    var pending = [view]
    while let next = pending.popLast() {
      if originalClassName(of: next) == "NSScrollView" {
        found.append(next)
      } else {
        pending += subviews(of: next).reversed()
      }
    }
    return found
  }

  /// The first element under a tab view item's view, outside scroll views, that is neither a
  /// plain view nor a scroll view (a control, a box, a label…).
  func firstControl(in element: InterfaceDocument.Element) -> InterfaceDocument.Element? {
    for subview in element.child("subviews")?.children ?? [] {
      switch subview.name {
      case "scrollView": continue
      case "view", "customView": if let found = firstControl(in: subview) { return found }
      default: return subview
      }
    }
    return nil
  }

  /// A horizontal scroller Interface Builder parks off screen (a negative origin): kept in the
  /// nib, not tabbed through.
  func isParkedOffScreen(_ scroller: Int) -> Bool {
    guard let frame = graph.text(of: graph[scroller], forKey: "NSFrame") else { return false }
    let numbers = frame.split(whereSeparator: { "{}, ".contains($0) }).compactMap { Double($0) }
    return numbers.count == 4 && (numbers[0] < 0 || numbers[1] < 0)
  }

  /// The object `key` of `object` refers to.
  func objectEntry(_ object: Int, _ key: String) -> Int? {
    if case .object(let target)? = graph[object][key] { return target }
    return nil
  }

  /// The members of `view`'s NSSubviews.
  func subviews(of view: Int) -> [Int] {
    objectEntry(view, "NSSubviews").flatMap { graph.members(of: $0) } ?? []
  }

  /// `object`'s class, or the class a class swapper stands for.
  func originalClassName(of object: Int) -> String {
    graph[object].className == "NSClassSwapper" ? graph.text(of: graph[object], forKey: "NSOriginalClassName") ?? "" : graph[object].className
  }

  /// Sets `view`'s NSNextKeyView, in place or right after its NSSuperview (else last).
  mutating func setNextKeyView(_ view: Int, _ next: NIBArchive.Payload) {
    if let index = graph[view].entries.firstIndex(where: { $0.key == "NSNextKeyView" }) {
      graph[view].entries[index].value = next
    } else if let superview = graph[view].entries.firstIndex(where: { $0.key == "NSSuperview" }) {
      graph[view].entries.insert(.init("NSNextKeyView", next), at: superview + 1)
    } else {
      graph[view].entries.append(.init("NSNextKeyView", next))
    }
  }
}
