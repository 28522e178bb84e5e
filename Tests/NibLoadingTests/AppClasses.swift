import Foundation
import Interface
import InterfaceObjects
import ObjectModel
import TestSupport

/// Stand-ins for the corpus documents' own classes (their `customClass`es and File's Owners), as
/// an app registers its classes before loading its nibs: each is a subclass of the AppKit or UIKit
/// class the document names as its base, keeps every outlet set on it by key, and answers every
/// action selector the corpus connects (the selectors are the app's methods). With them
/// registered, strict loading must apply every connection; whatever still fails is the model's.
@MainActor enum AppClasses {
  /// Every action selector a corpus nib or document connects.
  nonisolated static let selectors: [String] = {
    var found: Set<String> = []
    for file in Corpus.files(in: "xib") where file.path.hasSuffix(".xib") || file.path.hasSuffix(".storyboard") {
      let text = (try? String(contentsOf: file.url, encoding: .utf8)) ?? ""
      var rest = text[...]
      while let range = rest.range(of: "selector=\"") {
        let tail = rest[range.upperBound...]
        guard let end = tail.firstIndex(of: "\"") else { break }
        found.insert(String(tail[..<end]))
        rest = tail[end...]
      }
    }
    for file in Corpus.files(in: "nib") where file.path.hasSuffix(".nib") {
      guard let bytes = try? file.bytes(), NIBArchive.isNIBArchive(bytes), let nib = try? NIBArchive(bytes: bytes) else { continue }
      let graph = NibGraph(nib)
      for object in graph.objects where object.className == "NSNibControlConnector" {
        if let label = graph.text(of: object, forKey: "NSLabel") { found.insert(label) }
      }
    }
    return found.sorted()
  }()

  static func actions(inheriting table: ActionTable) -> ActionTable {
    ActionTable(for: NibObject.self, inheriting: table) { builder in
      for selector in selectors { builder.action(selector) { _, _ in } }
    }
  }

  /// The app classes by the headless class they extend, most specific first.
  nonisolated static let bases: [(matches: @Sendable (Any.Type) -> Bool, type: AnyClass, make: @MainActor @Sendable () -> AnyObject)] = [
    ({ $0 is NavigationController.Type }, AppNavigationController.self, { AppNavigationController() }),
    ({ $0 is ViewController.Type }, AppViewController.self, { AppViewController() }),
    ({ $0 is WindowController.Type }, AppWindowController.self, { AppWindowController() }),
    ({ $0 is Window.Type }, AppWindow.self, { AppWindow() }),
    ({ $0 is TableCellView.Type }, AppTableCellView.self, { AppTableCellView() }),
    ({ $0 is TableView.Type }, AppTableView.self, { AppTableView() }),
    ({ $0 is Button.Type }, AppButton.self, { AppButton() }),
    ({ $0 is TextField.Type }, AppTextField.self, { AppTextField() }),
    ({ $0 is SegmentedControl.Type }, AppSegmentedControl.self, { AppSegmentedControl() }),
    ({ $0 is Control.Type }, AppControl.self, { AppControl() }),
    ({ $0 is TextView.Type }, AppTextView.self, { AppTextView() }),
    ({ $0 is StackView.Type }, AppStackView.self, { AppStackView() }),
    ({ $0 is ScrollView.Type }, AppScrollView.self, { AppScrollView() }),
    ({ $0 is ClipView.Type }, AppClipView.self, { AppClipView() }),
    ({ $0 is SplitView.Type }, AppSplitView.self, { AppSplitView() }),
    ({ $0 is View.Type }, AppView.self, { AppView() }),
    ({ $0 is Application.Type }, AppApplication.self, { AppApplication() }),
    ({ $0 is Responder.Type }, AppResponder.self, { AppResponder() }),
    ({ $0 is NibObject.Type }, AppObject.self, { AppObject() }),
  ]

  /// `registry` with `name` registered as an app class extending the class registered as `base`.
  static func register(_ name: String, base: String, in registry: inout ClassRegistry) {
    guard !registry.contains(className: name), let entry = registry.entry(named: base) else { return }
    if let candidate = bases.first(where: { $0.matches(entry.swiftType) }) {
      registry.register(candidate.type, as: name, makeInstanceOnMainActor: candidate.make)
    } else if let factory = entry.mainActorFactory {
      registry.register(entry.swiftType, as: name, makeInstanceOnMainActor: factory)
    }
  }

  /// The registry for the graphs of one document or nib: the interface classes plus an app class
  /// for every custom class the graphs name (`NSClassSwapper`, `NSCustomObject`, `NSCustomView`,
  /// `NSWindowTemplate`, `UIClassSwapper`, UIKit's custom-class holders).
  static func registry(for graphs: [NibGraph]) -> ClassRegistry {
    var registry = ClassRegistry.interfaceObjects
    // NetNewsWire extends UIBarButtonItem with inspectable keys (accLabelText, accEnabled): the
    // app's extension, as an app subclass registered under the UIKit name.
    registry.register(AppBarButtonItem.self, as: "UIBarButtonItem", makeInstanceOnMainActor: { AppBarButtonItem() })
    for graph in graphs {
      for object in graph.objects {
        switch object.className {
        case "NSClassSwapper", "UIClassSwapper":
          let prefix = object.className.hasPrefix("NS") ? "NS" : "UI"
          if let name = graph.text(of: object, forKey: prefix + "ClassName"),
            let original = graph.text(of: object, forKey: prefix + "OriginalClassName")
          {
            register(name, base: original, in: &registry)
          }
        case "NSCustomObject":
          if let name = graph.text(of: object, forKey: "NSClassName"), name != "FirstResponder" {
            register(name, base: name.hasSuffix("Application") ? "NSApplication" : "NSObject", in: &registry)
          }
        case "NSCustomView":
          if let name = graph.text(of: object, forKey: "NSClassName") { register(name, base: "NSView", in: &registry) }
        case "NSWindowTemplate":
          if let name = graph.text(of: object, forKey: "NSWindowClass") { register(name, base: "NSWindow", in: &registry) }
        default:
          break
        }
        // A custom class archived under its own name with its AppKit/UIKit ancestors as fallbacks.
        if let base = object.fallbacks.first(where: { registry.contains(className: $0) }) {
          register(object.className, base: base, in: &registry)
        }
      }
    }
    return registry
  }
}

/// What every app class does: keeps undefined keys (its outlets) and answers the corpus's actions.
@MainActor final class AppObject: NibObject {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: NibObject.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppResponder: Responder {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: Responder.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppApplication: Application {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: Application.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppView: View {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: View.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppControl: Control {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: Control.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppButton: Button {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: Button.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppTextField: TextField {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: TextField.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppSegmentedControl: SegmentedControl {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: SegmentedControl.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppTableView: TableView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: TableView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppTableCellView: TableCellView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: TableCellView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppTextView: TextView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: TextView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppStackView: StackView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: StackView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppScrollView: ScrollView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: ScrollView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppClipView: ClipView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: ClipView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppSplitView: SplitView {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: SplitView.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppWindow: Window {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: Window.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppWindowController: WindowController {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: WindowController.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppViewController: ViewController {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: ViewController.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

@MainActor final class AppNavigationController: NavigationController {
  var outlets: [String: Any] = [:]
  static let table = AppClasses.actions(inheriting: NavigationController.actionTable)
  override class var actionTable: ActionTable { table }
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}

final class AppBarButtonItem: BarButtonItem {
  var outlets: [String: Any] = [:]
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { outlets[key] = value }
  override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { outlets[key] }
}
