import ObjectModel

/// A small class hierarchy in the shape of UIKit's: a responder base, a view, a control.
class Responder: KeyValueCoding, ActionResponding {
  var nextResponderName: String?
  class var keyTable: KeyTable { Responder.keys }
  private static let keys = KeyTable(for: Responder.self).key("nextResponderName", \.nextResponderName)
  class var actionTable: ActionTable { ActionTable() }
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
  private static let keys = Responder.keyTable.merged(
    with: KeyTable(for: View.self)
      .key("tag", \.tag).key("alpha", \.alpha).key("hidden", \.hidden).key("title", \.title)
      .key("subviews", \.subviews).readOnlyKey("superviewTag", \.superviewTag).key("width", \.width)
      .key("count", \.count).key("attributes", \.attributes))
}

class Button: View {
  var presses: [String] = []
  var extra: [String: Any] = [:]
  override class var keyTable: KeyTable { Button.keys }
  private static let keys = View.keyTable.merged(
    with: KeyTable(for: Button.self).key("label", of: Button.self, as: String.self, get: { $0.title ?? "" }, set: { $0.title = $1 }))
  override class var actionTable: ActionTable { Button.actions }
  private static let actions = ActionTable(for: Button.self)
    .action("press:") { (button: Button, sender: Any?) in button.presses.append("press from \(sender ?? "nil")") }
    .action("fail") { (_: Button, _: Any?) in throw Failure() }

  /// Accepts any key that starts with `x-`, as a class overriding `setValue:forUndefinedKey:` does.
  func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) {
    guard key.hasPrefix("x-") else {
      throw ObjectModelError(.undefinedKey, className: "Button", name: key, detail: "this class is not key value coding-compliant for the key \(key)")
    }
    extra[key] = value
  }

  struct Failure: Error {}
}

/// A value type registered by name (no instances can be made).
struct Point { var x = 0.0 }
