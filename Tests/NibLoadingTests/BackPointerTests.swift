import InterfaceObjects
import Testing

/// The back pointers that are not weak references (superview, a cell's control, a menu item's
/// menu) are cleared when their owner goes, so they never dangle.
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
}
