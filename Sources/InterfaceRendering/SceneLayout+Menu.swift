import Foundation
public import InterfaceObjects

extension SceneLayout {
  /// The height of the menu bar drawn for a main menu (22 points, macOS's menu bar).
  public static let menuBarHeight = 22.0

  /// A main menu (`NSMenu`: a storyboard's application scene, `NSStoryboardMainMenu`) as a
  /// scene: a menu bar with the titles of its top-level items side by side, the first (the
  /// application menu) in bold, as Interface Builder's canvas shows it. Hidden items and
  /// separators are left out; an item without a title shows its submenu's.
  public func scene(for menu: Menu, identifier: String, caption: String) -> RenderedScene {
    var primitives: [DrawingPrimitive] = []
    var x = 10.0
    for item in menu.items where !item.isHidden && !item.isSeparatorItem {
      let title = item.title.isEmpty ? item.submenu?.title ?? "" : item.title
      var textRun = run(title, font: nil, color: nil, alignment: .center, size: 13, opacity: 1)
      if primitives.isEmpty { textRun.font.weight = 700 }
      let width = textRun.font.estimatedWidth(of: Substring(title)) + 18
      primitives.append(DrawingPrimitive(frame: CGRect(x: x, y: 0, width: width, height: Self.menuBarHeight), content: .text(textRun)))
      x += width
    }
    let size = CGSize(width: max(x + 10, 200), height: Self.menuBarHeight)
    primitives.insert(DrawingPrimitive(frame: CGRect(origin: .zero, size: size), content: .fill(palette.bar, cornerRadius: 0)), at: 0)
    return RenderedScene(identifier: identifier, caption: caption, size: size, background: palette.bar, primitives: primitives)
  }
}
