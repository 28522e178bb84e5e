import Interface

/// The order in which AppKit's key view loop visits sibling views (`NSNextKeyView`), as it
/// recalculates the loop of a tab view item's views.
///
/// Siblings fall into rows: two views whose vertical extents overlap (in the superview's
/// unflipped coordinates) share a row, and overlap chains (A overlaps B, B overlaps C: one
/// row). Rows run from the top down, by the highest top edge among their views; inside a row
/// views run left to right, by the left edge, then the higher origin first; views that tie on
/// both keep their document order. Rows are disjoint bands, so the order is total.
///
/// Evidence: nkv_simple (corpus; A and B side by side above C: tab view → item view → custom
/// view → A → B → C → tab view), which both this rule and a plain top-then-left sort give; the
/// grouping of overlapping views into rows is the Python clone's reading of Apple's nibs
/// (viraptor/ibtool `tabView.py`, "_sort_views_for_key_loop"), not shown by a corpus pair.
enum KeyViewOrder {
  /// The indices of `frames` in key view order.
  static func order(_ frames: [ViewRect]) -> [Int] {
    var row = Array(frames.indices)
    func root(_ index: Int) -> Int {
      var index = index
      while row[index] != index {
        row[index] = row[row[index]]  // path halving: finds stay short however the rows join
        index = row[index]
      }
      return index
    }
    for i in frames.indices {
      for j in frames.indices where j > i && overlap(frames[i], frames[j]) {
        let (a, b) = (root(i), root(j))
        if a != b { row[max(a, b)] = min(a, b) }
      }
    }
    var rows: [Int: [Int]] = [:]
    for index in frames.indices { rows[root(index), default: []].append(index) }
    let top = { (members: [Int]) in members.map { frames[$0].y + frames[$0].height }.max() ?? 0 }
    let bottom = { (members: [Int]) in members.map { frames[$0].y }.min() ?? 0 }
    let sortedRows = rows.values.sorted { first, second in
      let (a, b) = (top(first), top(second))
      if a != b { return a > b }
      // Equal tops in two rows: a view of no height at the other's top edge; the band that
      // lies higher (the flat one) first.
      let (c, d) = (bottom(first), bottom(second))
      return c != d ? c > d : first[0] < second[0]
    }
    return sortedRows.flatMap { members in
      members.sorted { a, b in
        if frames[a].x != frames[b].x { return frames[a].x < frames[b].x }
        if frames[a].y != frames[b].y { return frames[a].y > frames[b].y }
        return a < b
      }
    }
  }

  /// Whether the open vertical extents of `a` and `b` overlap.
  static func overlap(_ a: ViewRect, _ b: ViewRect) -> Bool {
    a.y < b.y + b.height && b.y < a.y + a.height
  }
}
