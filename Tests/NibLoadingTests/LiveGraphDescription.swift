import Foundation
import InterfaceObjects
import NibLoading
import ObjectModel

/// A text description of a loaded nib's live objects, independent of object ids: each object is
/// named by its path from the top-level objects (`top[1].contentView.subviews[0]`), so that
/// two loads of the same interface — Apple's compiled nib and Stasis's — describe alike when
/// their classes, properties and connections agree.
@MainActor struct LiveGraphDescription {
  private(set) var lines: [String] = []
  private var paths: [ObjectIdentifier: String] = [:]
  private var queue: [(AnyObject, String)] = []

  init(_ loaded: LoadedNib, owner: GenericObject) {
    paths[ObjectIdentifier(owner)] = "owner"
    paths[ObjectIdentifier(loaded.application)] = "application"
    for (index, object) in loaded.topLevelObjects.enumerated() { name(object, "top[\(index)]") }
    // Breadth first, so that an object's path is its shortest one.
    var position = 0
    while position < queue.count {
      let (object, path) = queue[position]
      visitChildren(object, path)
      position += 1
    }
    for (object, path) in queue { lines.append(path + " " + describe(object)) }
    lines.append("owner " + owner.keys.sorted().map { "\($0)=\(reference(owner[$0]))" }.joined(separator: " "))
  }

  private mutating func name(_ object: AnyObject, _ path: String) {
    guard paths[ObjectIdentifier(object)] == nil else { return }
    paths[ObjectIdentifier(object)] = path
    queue.append((object, path))
  }

  private mutating func visitChildren(_ object: AnyObject, _ path: String) {
    if let window = object as? Window, let content = window.contentView { name(content, path + ".contentView") }
    if let controller = object as? WindowController, let window = controller.window { name(window, path + ".window") }
    if let view = object as? View {
      for (index, subview) in view.subviews.enumerated() { name(subview, path + ".subviews[\(index)]") }
    }
    if let control = object as? Control, let cell = control.cell { name(cell, path + ".cell") }
    if let menu = object as? Menu {
      for (index, item) in menu.items.enumerated() { name(item, path + ".items[\(index)]") }
    }
    if let item = object as? MenuItem, let submenu = item.submenu { name(submenu, path + ".submenu") }
    if let cell = object as? PopUpButtonCell, let menu = cell.menu { name(menu, path + ".menu") }
    if let table = object as? TableView {
      for (index, column) in table.tableColumns.enumerated() { name(column, path + ".columns[\(index)]") }
    }
    if let scroll = object as? ScrollView, let clip = scroll.contentView { name(clip, path + ".contentView") }
    if let controller = object as? ViewController, let view = controller.viewIfLoaded { name(view, path + ".view") }
  }

  private func reference(_ value: Any?) -> String {
    guard let value else { return "nil" }
    if type(of: value) is AnyClass {
      let object = value as AnyObject
      return paths[ObjectIdentifier(object)] ?? "<\(type(of: object)) outside>"
    }
    if let array = value as? [Any] { return "[" + array.map(reference).joined(separator: ",") + "]" }
    return "\(value)"
  }

  private func describe(_ object: AnyObject) -> String {
    var parts = [String(describing: type(of: object))]
    if let generic = object as? GenericObject { parts[0] = "Generic(\(generic.className))" }
    func add(_ key: String, _ value: Any?) { parts.append("\(key)=\(reference(value))") }
    if let view = object as? View {
      add("frame", "\(view.frame)")
      add("hidden", view.isHidden)
      add("tag", view.tag)
      add("mask", view.autoresizingMask)
      add("tip", view.toolTip)
      add("constraints", view.constraints.count)
      add("nextKeyView", view.nextKeyView)
    }
    if let control = object as? Control {
      add("enabled", control.isEnabled)
      add("target", control.target)
      add("action", control.action)
    }
    if let cell = object as? Cell {
      add("title", cell.title)
      add("state", cell.state)
      add("font", cell.font)
      add("editable", cell.isEditable)
    }
    if let cell = object as? TextFieldCell {
      add("textColor", cell.textColor?.name)
      add("placeholder", cell.placeholder)
    }
    if let window = object as? Window {
      add("title", window.title)
      add("frame", "\(window.frame)")
      add("style", window.styleMask)
      add("delegate", window.delegate)
      add("visible", window.isVisible)
    }
    if let menu = object as? Menu { add("title", menu.title) }
    if let item = object as? MenuItem {
      add("title", item.title)
      add("key", item.keyEquivalent)
      add("mask", item.keyEquivalentModifierMask)
      add("action", item.action)
      add("target", item.target)
      add("tag", item.tag)
    }
    if let column = object as? TableColumn {
      add("identifier", column.identifier)
      add("width", column.width)
      add("title", column.title)
    }
    if let table = object as? TableView {
      add("delegate", table.delegate)
      add("dataSource", table.dataSource)
    }
    if let controller = object as? ViewController { add("title", controller.title) }
    return parts.joined(separator: " ")
  }
}
