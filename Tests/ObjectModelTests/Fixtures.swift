import ObjectModel

/// A small class hierarchy in the shape of UIKit's: a responder base, a view, a control.
class Responder: KeyValueCoding, ActionResponding {
  var nextResponderName: String?
  class var keyTable: KeyTable { Responder.keys }
  private static let keys = KeyTable(for: Responder.self) { $0.key("nextResponderName", \.nextResponderName) }
  class var actionTable: ActionTable { ActionTable() }

  // Implemented here, in the class that adopts the protocol, so that subclasses can override them.
  func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { throw .undefinedKey(key, of: self) }
  func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) { throw .undefinedKey(key, of: self) }
}

class View: Responder {
  var tag = 0
  var alpha = 1.0
  var hidden = false
  var title: String?
  var subviews: [View] = []
  var superviewTag: Int { tag * 10 }
  var width: Float = 0
  var count: UInt8 = 0
  var attributes: [String: Any] = [:]
  override class var keyTable: KeyTable { View.keys }
  private static let keys = KeyTable(for: View.self, inheriting: Responder.keyTable) {
    $0.key("tag", \.tag)
    $0.key("alpha", \.alpha)
    $0.key("hidden", \.hidden)
    $0.key("title", \.title)
    $0.key("subviews", \.subviews)
    $0.readOnlyKey("superviewTag", \.superviewTag)
    $0.key("width", \.width)
    $0.key("count", \.count)
    $0.key("attributes", \.attributes)
  }
}

class Button: View {
  var presses: [String] = []
  var extra: [String: Any] = [:]
  override class var keyTable: KeyTable { Button.keys }
  private static let keys = KeyTable(for: Button.self, inheriting: View.keyTable) {
    $0.key("label", get: { $0.title ?? "" }, set: { $0.title = $1 })
  }
  override class var actionTable: ActionTable { Button.actions }
  private static let actions = ActionTable(for: Button.self) {
    $0.action("press:") { button, sender in button.presses.append("press from \(sender ?? "nil")") }
    $0.action("fail") { _, _ in throw Failure() }
  }

  /// Accepts any key that starts with `x-`, as a class overriding `setValue:forUndefinedKey:` does.
  override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) {
    guard key.hasPrefix("x-") else { throw .undefinedKey(key, of: self) }
    extra[key] = value
  }

  struct Failure: Error {}
}

/// A value type registered by name (no instances can be made).
struct Point { var x = 0.0 }
