public import ObjectModel

/// An object that reads its archived keys from a nib (`initWithCoder:`): the loader makes it
/// with the class registry's factory, then calls ``decode(from:)`` once.
@MainActor public protocol NibDecodable: AnyObject {
  /// Reads the object's archived values. Classes in a hierarchy call `super` first.
  func decode(from coder: NibCoder) throws(InterfaceObjectsError)
}

/// An object that wants `awakeFromNib` after every object of its nib is made and connected.
@MainActor public protocol NibAwaking: AnyObject {
  /// Called once the nib's objects exist and their outlets and actions are connected
  /// (`-awakeFromNib`). Subclasses call `super`.
  func awakeFromNib()
}

/// The base of Stasis's headless interface classes (`NSObject` in a nib's world): key-value
/// coding through a key table, actions through an action table, decoding from a nib and
/// `awakeFromNib`.
///
/// App classes subclass it (or ``Responder``, ``View``, ``ViewController``) and extend the
/// tables:
///
/// ```swift
/// final class ItemsViewController: ViewController {
///   var headerView: View?
///   override class var keyTable: KeyTable { Self.keys }
///   private static let keys = KeyTable(for: ItemsViewController.self, inheriting: ViewController.viewControllerKeys) {
///     $0.key("headerView", \.headerView)
///   }
/// }
/// ```
@MainActor open class NibObject: KeyValueCoding, ActionResponding, NibDecodable, NibAwaking {
  /// Adds the objects this one holds strongly, for ``NibUnarchiver/breakReferenceCycles()``: a
  /// subclass with references of its own overrides it, calls `super` first, then adds them —
  /// with ``NibReferences/keep(_:)`` for references of its own type that cannot close a cycle,
  /// ``NibReferences/cuttable(_:_:)`` for `Any` values and views held beside the subviews.
  open func collectStrongReferences(into references: inout NibReferences) {}

  /// Makes an object with default values (`-init`).
  public required init() {}

  /// The keys of `NibObject` itself: none.
  public static let objectKeys = NibKeyTable()

  /// The class's archived and key-value-coding keys, declared once (see ``NibKeyTable``).
  open class var nibKeyTable: NibKeyTable { objectKeys }

  /// The class's keys for key-value coding (outlets and runtime attributes go through them):
  /// ``NibObject/nibKeyTable``'s, unless a subclass overrides it with a table of its own.
  open class var keyTable: KeyTable { nibKeyTable.keyTable }
  /// The class's actions (target–action).
  open class var actionTable: ActionTable { ActionTable() }

  /// Reads the archived keys of ``NibObject/nibKeyTable`` (`initWithCoder:`); a subclass that reads more
  /// overrides it and calls `super` first.
  open func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try type(of: self).nibKeyTable.decode(self, from: coder)
  }

  /// Does nothing; subclasses override it (and call `super`).
  open func awakeFromNib() {}

  /// Throws `ObjectModelError.Code.undefinedKey`; override it to accept extra keys.
  open func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? {
    throw .undefinedKey(key, of: self)
  }

  /// Throws `ObjectModelError.Code.undefinedKey`; override it to accept extra keys.
  open func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) {
    throw .undefinedKey(key, of: self)
  }
}

/// An object of a class nobody registered, kept in lenient mode with every archived value (UIKit
/// logs "Unknown class … in Interface Builder file" and goes on with a plain object).
///
/// Its values answer key-value coding, so outlets and runtime attributes set on it are kept too.
/// References back up the tree (`NSSuperview`, `NSNextResponder`, `NSControlView`, key-view and
/// delegate links) are held weakly, as the real classes hold them; any other reference that
/// closes a cycle (a value, or a member of an array value, which then reads as a
/// ``WeakReference``) is made weak by ``NibUnarchiver/breakReferenceCycles()`` once the nib is
/// decoded, so that a generic object never keeps its nib alive, even in a hostile file.
public final class GenericObject: NibObject, @MainActor CustomStringConvertible {
  /// Every object it holds strongly, each cut by making its reference weak (see ``NibReferences``).
  public override func collectStrongReferences(into references: inout NibReferences) {
    for reference in strongReferences {
      references.add(reference.object) { self.weakenReference(at: reference.slot, path: reference.path) }
    }
  }

  /// The archived class name no registered class answered.
  public private(set) var className: String
  private var storage: [(key: String, value: Value)] = []

  private enum Value {
    case strong(Any?)
    case weak(WeakReference)
  }

  public required init() {
    className = "NSObject"
  }

  /// A generic object standing for the archived class `className`.
  public init(className: String) {
    self.className = className
  }

  /// The keys held, in archive order (then the keys set later).
  public var keys: [String] { storage.map(\.key) }

  /// The value kept for `key` (the first, for a repeated key).
  public subscript(key: String) -> Any? {
    guard let found = storage.first(where: { $0.key == key }) else { return nil }
    switch found.value {
    case .strong(let value): return value
    case .weak(let reference): return reference.object
    }
  }

  /// Keys whose references point back up the tree, held weakly.
  static let weakKeys: Set<String> = [
    "NSSuperview", "NSNextResponder", "NSControlView", "NSNextKeyView", "NSPreviousKeyView", "NSTableView", "NSWindow",
    "NSTarget", "NSDelegate", "NSDataSource", "NSMenu", "NSTabView", "NSFirstItem", "NSSecondItem", "UISuperview",
    "UINextKeyView", "UIDelegate", "UIDataSource", "UITarget",
  ]

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    for (key, value) in try coder.decodeAllValues() { store(value, forKey: key) }
  }

  /// A place inside a stored value: an array's member or a dictionary's value.
  enum PathStep: Hashable {
    case member(Int)
    case key(String)
  }

  /// The objects held strongly — values, and objects inside array and dictionary values, to a
  /// depth of 8 — with their places (for ``NibUnarchiver/breakReferenceCycles()``).
  var strongReferences: [(slot: Int, path: [PathStep], object: AnyObject)] {
    var references: [(slot: Int, path: [PathStep], object: AnyObject)] = []
    func collect(_ value: Any, slot: Int, path: [PathStep]) {
      if type(of: value) is AnyClass {
        if !(value is WeakReference) { references.append((slot, path, value as AnyObject)) }
      } else if path.count < 8, let array = value as? [Any] {
        for (member, element) in array.enumerated() { collect(element, slot: slot, path: path + [.member(member)]) }
      } else if path.count < 8, let dictionary = value as? [String: Any] {
        for (key, element) in dictionary { collect(element, slot: slot, path: path + [.key(key)]) }
      }
    }
    for slot in storage.indices {
      guard case .strong(let value?) = storage[slot].value else { continue }
      collect(value, slot: slot, path: [])
    }
    return references
  }

  /// Holds the reference at `slot` (or at `path` inside its value) weakly from now on: an object
  /// inside an array or a dictionary becomes a ``WeakReference``.
  func weakenReference(at slot: Int, path: [PathStep]) {
    guard case .strong(let value?) = storage[slot].value else { return }
    guard !path.isEmpty else {
      if type(of: value) is AnyClass { storage[slot].value = .weak(WeakReference(value as AnyObject)) }
      return
    }
    func weakened(_ value: Any, _ path: ArraySlice<PathStep>) -> Any {
      guard let step = path.first else { return type(of: value) is AnyClass ? WeakReference(value as AnyObject) : value }
      switch step {
      case .member(let member):
        guard var array = value as? [Any], array.indices.contains(member) else { return value }
        array[member] = weakened(array[member], path.dropFirst())
        return array
      case .key(let key):
        guard var dictionary = value as? [String: Any], let element = dictionary[key] else { return value }
        dictionary[key] = weakened(element, path.dropFirst())
        return dictionary
      }
    }
    storage[slot].value = .strong(weakened(value, path[...]))
  }

  private func store(_ value: Any?, forKey key: String) {
    if Self.weakKeys.contains(key), let value, type(of: value) is AnyClass {
      storage.append((key, .weak(WeakReference(value as AnyObject))))
    } else {
      storage.append((key, .strong(value)))
    }
  }

  public override func value(forUndefinedKey key: String) throws(ObjectModelError) -> Any? { self[key] }

  public override func setValue(_ value: Any?, forUndefinedKey key: String) throws(ObjectModelError) {
    storage.removeAll { $0.key == key }
    storage.append((key, .strong(value)))
  }

  public var description: String { "<\(className) (generic): \(keys.count) values>" }
}

/// A weak reference to an object, for lists that must not keep their members alive.
public struct WeakReference {
  /// The object, while something else keeps it alive.
  public weak var object: AnyObject?
  public init(_ object: AnyObject?) { self.object = object }
}
