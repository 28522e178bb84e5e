public import Foundation
public import InterfaceObjects

extension SceneLayout {
  /// A navigation bar (`UINavigationBar`) in `frame` for `stack`, root first (a navigation
  /// controller's `viewControllers`, or one controller alone): the top controller's navigation
  /// item title (else its `title`); when a controller is below it, that controller's navigation
  /// item `backButtonTitle` (else its title) for the back button; the top item's bar button items.
  /// `nil` for an empty stack.
  public func navigationBar(for stack: [ViewController], in frame: CGRect) -> DrawingPrimitive? {
    guard let top = stack.last else { return nil }
    let title = top.navigationItem.title ?? top.title ?? ""
    var backTitle: String?
    if stack.count > 1 {
      let below = stack[stack.count - 2]
      backTitle = below.navigationItem.backButtonTitle ?? below.navigationItem.title ?? below.title ?? ""
    }
    var textRun = run(title, font: nil, color: nil, alignment: .center, opacity: 1)
    textRun.font.weight = 600
    textRun.isEmphasized = true
    textRun.isInverse = true
    let content = NavigationBarContent(
      title: title, backTitle: backTitle, leftItems: top.navigationItem.leftBarButtonItems, rightItems: top.navigationItem.rightBarButtonItems,
      background: palette.bar, run: textRun)
    return DrawingPrimitive(frame: frame, content: .navigationBar(content))
  }

  /// A tab bar (`UITabBar`) in `frame` for `tabs`: each child's tab bar item title (else its
  /// `title`), the selected one.
  public func tabBar(for tabs: TabBarController, in frame: CGRect) -> DrawingPrimitive {
    let titles = tabs.viewControllers.map { $0.tabBarItem?.title ?? $0.title ?? "" }
    var textRun = run("", font: nil, color: nil, alignment: .center, size: 10, opacity: 1)
    textRun.color = palette.named("secondaryLabel")!
    let selected = tabs.viewControllers.isEmpty ? nil : tabs.selectedIndex
    return DrawingPrimitive(
      frame: frame, content: .tabBar(TabBarContent(titles: titles, selected: selected, atBottom: true, background: palette.bar, run: textRun)))
  }
}
