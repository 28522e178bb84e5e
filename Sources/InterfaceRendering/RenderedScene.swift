public import Foundation
public import InterfaceObjects

/// One picture: a window, a top-level view or a storyboard scene laid out as primitives in its
/// own coordinates (origin at its top left).
public struct RenderedScene {
  /// How the scene is named (a storyboard identifier, a window's title): the suffix of its file.
  public var identifier: String
  /// The caption (a contact sheet's label, the SVG's title).
  public var caption: String
  public var size: CGSize
  /// What is behind everything (`nil`: transparent).
  public var background: RGBAColor?
  public var primitives: [DrawingPrimitive]

  public init(identifier: String, caption: String, size: CGSize, background: RGBAColor?, primitives: [DrawingPrimitive]) {
    self.identifier = identifier
    self.caption = caption
    self.size = size
    self.background = background
    self.primitives = primitives
  }
}

extension DrawingPrimitive {
  /// The primitive moved by (`dx`, `dy`).
  public func offsetBy(dx: Double, dy: Double) -> DrawingPrimitive {
    var moved = self
    moved.frame = frame.offsetBy(dx: dx, dy: dy)
    moved.clip = clip?.offsetBy(dx: dx, dy: dy)
    func shifted(_ point: CGPoint) -> CGPoint { CGPoint(x: point.x + dx, y: point.y + dy) }
    switch content {
    case .line(let from, let to, let color, let width): moved.content = .line(from: shifted(from), to: shifted(to), color, width: width)
    case .arrow(let from, let to, let label): moved.content = .arrow(from: shifted(from), to: shifted(to), label: label)
    default: break
    }
    return moved
  }
}

extension SceneLayout {
  /// The height of a window's title bar (AppKit's standard titled window, 28 points).
  public static let titleBarHeight = 28.0
  /// UIKit's status bar (20) and navigation bar (44), as Interface Builder simulates them on a
  /// phone of the size the documents in the corpus are laid out for.
  public static let statusBarHeight = 20.0
  public static let navigationBarHeight = 44.0
  public static let tabBarHeight = 49.0
  /// The size of a UIKit scene with no view frame (an iPhone 8's 375 × 667 points).
  public static let defaultPhoneSize = CGSize(width: 375, height: 667)

  /// A top-level view (a xib's view) as a scene.
  public func scene(for view: View, identifier: String, caption: String) -> RenderedScene {
    let primitives = self.primitives(for: view).map { $0.offsetBy(dx: -view.frame.minX, dy: -view.frame.minY) }
    return RenderedScene(identifier: identifier, caption: caption, size: view.frame.size, background: nil, primitives: primitives)
  }

  /// A window as a scene: its title bar (titled windows, style mask bit 0) above its content view,
  /// at the content view's size — or the window's own, when the content view has none (a
  /// storyboard window whose content view controller's view was laid out by no one).
  public func scene(for window: Window, identifier: String, caption: String) -> RenderedScene {
    let titled = window.styleMask & 1 != 0
    let bar = titled ? Self.titleBarHeight : 0
    let content = window.contentView
    let contentSize = content?.frame.size ?? .zero
    let size = contentSize.width > 0 && contentSize.height > 0 ? contentSize : window.frame.size
    var primitives: [DrawingPrimitive] = []
    if titled {
      primitives.append(DrawingPrimitive(frame: CGRect(x: 0, y: 0, width: size.width, height: bar), content: .titleBar(title: window.title)))
    }
    if let content {
      primitives += self.primitives(for: content).map { $0.offsetBy(dx: -content.frame.minX, dy: bar - content.frame.minY) }
    }
    return RenderedScene(
      identifier: identifier, caption: caption, size: CGSize(width: size.width, height: size.height + bar), background: palette.windowBackground,
      primitives: primitives)
  }

  /// A view controller as a scene: its view (loaded by the caller), with UIKit's bars where its
  /// container puts them — a navigation controller's bar (the top item's title), a navigation
  /// bar over a controller that is in a navigation controller or has navigation items, a tab bar
  /// controller's tabs.
  public func scene(for controller: ViewController, identifier: String, caption: String) -> RenderedScene {
    let view = controller.viewIfLoaded
    let size = view.map { $0.frame.size.width > 0 && $0.frame.size.height > 0 ? $0.frame.size : Self.defaultPhoneSize } ?? Self.defaultPhoneSize
    var primitives = view.map { root in self.primitives(for: root).map { $0.offsetBy(dx: -root.frame.minX, dy: -root.frame.minY) } } ?? []
    if view == nil || controller is NavigationController || controller is TabBarController {
      primitives.insert(DrawingPrimitive(frame: CGRect(origin: .zero, size: size), content: .fill(platform == .uiKit ? palette.sceneBackground : palette.windowBackground, cornerRadius: 0)), at: 0)
    }
    guard platform == .uiKit else {
      return RenderedScene(identifier: identifier, caption: caption, size: size, background: palette.windowBackground, primitives: primitives)
    }
    let barFrame = CGRect(x: 0, y: Self.statusBarHeight, width: size.width, height: Self.navigationBarHeight)
    if let navigation = controller as? NavigationController {
      if let bar = navigationBar(for: navigation.viewControllers.isEmpty ? [navigation] : navigation.viewControllers, in: barFrame) { primitives.append(bar) }
    } else if !(controller is TabBarController), controller.navigationController != nil || hasNavigationItems(controller) {
      let stack = controller.navigationController?.viewControllers.prefix { $0 !== controller }.map { $0 } ?? []
      if let bar = navigationBar(for: stack + [controller], in: barFrame) { primitives.append(bar) }
    }
    if let tabs = controller as? TabBarController ?? controller.tabBarController {
      primitives.append(tabBar(for: tabs, in: CGRect(x: 0, y: size.height - Self.tabBarHeight, width: size.width, height: Self.tabBarHeight)))
    }
    return RenderedScene(identifier: identifier, caption: caption, size: size, background: palette.sceneBackground, primitives: primitives)
  }

  /// Whether the controller's navigation item says anything a bar would show.
  func hasNavigationItems(_ controller: ViewController) -> Bool {
    let item = controller.navigationItem
    return item.title != nil || !item.leftBarButtonItems.isEmpty || !item.rightBarButtonItems.isEmpty
  }
}
