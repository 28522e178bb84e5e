import InterfaceObjects
import Testing

/// The back pointers that are not weak references (superview, a cell's control, a menu item's
/// menu) are cleared when their owner goes, so they never dangle.
@MainActor
@Suite struct BackPointerTests {
  @Test func aSubviewOutlivingItsSuperviewHasNone() {
    let child = View()
    do {
      let parent = View()
      parent.addSubview(child)
      #expect(child.superview === parent)
    }
    #expect(child.superview == nil)
  }

  @Test func aChildControllerOutlivingItsParentHasNone() {
    let child = ViewController()
    weak var gone: ViewController?
    do {
      let parent = NavigationController()
      parent.pushViewController(child)
      #expect(child.parent === parent)
      let other = TabBarController()
      other.setViewControllers([child])   // moved: taken from the navigation stack
      #expect(child.parent === other && parent.viewControllers.isEmpty)
      other.setViewControllers([])
      #expect(child.parent == nil)
      parent.pushViewController(child)
      gone = parent
    }
    #expect(gone == nil)
    #expect(child.parent == nil)
  }

  @Test func aViewOutlivingItsControllerHasNone() {
    let view = View()
    let other = View()
    weak var gone: ViewController?
    do {
      let controller = ViewController()
      controller.view = view
      #expect(view.viewController === controller)
      controller.view = other   // the controller takes another view: the first has none
      #expect(view.viewController == nil && other.viewController === controller)
      controller.view = view
      gone = controller
    }
    #expect(gone == nil)
    #expect(view.viewController == nil)
    #expect(other.viewController == nil)
    // A view another controller took keeps its new controller when the first one goes.
    let keeper = ViewController()
    do {
      let first = ViewController()
      first.view = view
      keeper.view = view
      gone = first
    }
    #expect(gone == nil)
    #expect(view.viewController === keeper)
  }

  @Test func aRemovedSubviewHasNone() {
    let parent = View()
    let child = View()
    parent.addSubview(child)
    child.removeFromSuperview()
    #expect(child.superview == nil && parent.subviews.isEmpty)
    let other = View()
    other.addSubview(child)
    parent.addSubview(child)   // moved: taken from `other`
    #expect(child.superview === parent && other.subviews.isEmpty)
  }

  @Test func aCellOutlivingItsControlHasNone() {
    let cell = ButtonCell()
    do {
      let button = Button()
      button.cell = cell
      #expect(cell.controlView === button)
      let other = Button()
      other.cell = cell       // shared by a second control: it points at the last
      #expect(cell.controlView === other)
    }
    #expect(cell.controlView == nil)
  }

  @Test func aCellGivenAwayByItsControlHasNone() {
    let button = Button()
    let cell = ButtonCell()
    button.cell = cell
    button.cell = ButtonCell()
    #expect(cell.controlView == nil)
  }

  @Test func anItemOutlivingItsMenuHasNone() {
    let item = MenuItem()
    do {
      let menu = Menu()
      menu.addItem(item)
      #expect(item.menu === menu)
    }
    #expect(item.menu == nil)
  }

  /// `nextKeyView` and a constraint's view items are weak without Swift's `weak` (no side
  /// table on the view): they read nil once the view goes, whichever side goes first.
  @Test func aKeyViewLinkReadsNilOnceItsViewGoes() {
    let first = View()
    do {
      let second = View()
      first.nextKeyView = second
      second.nextKeyView = first      // a loop
      #expect(first.nextKeyView === second && second.nextKeyView === first)
    }
    #expect(first.nextKeyView == nil)
    first.nextKeyView = first         // itself
    #expect(first.nextKeyView === first)
    do {
      let gone = View()
      gone.nextKeyView = first        // the referrer goes first: the view forgets it
      let replaced = View()
      first.nextKeyView = replaced
      first.nextKeyView = nil
    }
    #expect(first.nextKeyView == nil)
  }

  @Test func aConstraintsItemsReadNilOnceTheirViewsGo() {
    let constraint = LayoutConstraint()
    let guide = NibObject()
    do {
      let view = View()
      constraint.firstItem = view
      constraint.secondItem = view    // the same view twice
      #expect(constraint.firstItem === view && constraint.secondItem === view)
      constraint.secondItem = guide   // not a view: held weakly
      #expect(constraint.secondItem === guide)
    }
    #expect(constraint.firstItem == nil && constraint.secondItem === guide)
    let view = View()
    do {
      let shortLived = LayoutConstraint()
      shortLived.firstItem = view
      shortLived.secondItem = view
    }
    constraint.firstItem = view
    #expect(constraint.firstItem === view)
  }
}

