import FoundationEssentials

// What the decoder's containers read: a tree's arrays and dictionaries, or a binary document's
// containers in place (their object references, each value made only when it is asked for).

/// The elements of an array being decoded.
struct PlistArrayElements {
  private let values: [PropertyListValue]
  private let objects: PlistBinaryObjects?
  /// Where a binary array's references start.
  private let payload: Int
  let count: Int

  init(_ values: [PropertyListValue], node: PlistDecodingNode, objects: PlistBinaryObjects?) {
    if node.isBinaryContainer, let objects {
      (count, payload) = objects.members(of: node.object)
      self.values = []
      self.objects = objects
    } else {
      self.values = values
      self.objects = nil
      payload = 0
      count = values.count
    }
  }

  /// The element at `index` (below `count`).
  @inline(__always)
  func node(at index: Int) throws -> PlistDecodingNode {
    guard let objects else { return PlistDecodingNode(values[index]) }
    return try objects.node(objects.reference(at: payload &+ index &* objects.referenceSize))
  }
}

/// The entries of a dictionary being decoded, in document order, no key repeated (the binary
/// document's dictionaries that repeat a key come as trees; see `PlistBinaryObjects.node(_:)`).
struct PlistDictionaryEntries {
  private let keys: [String]
  private let values: [PropertyListValue]
  private let index: [String: Int]?
  private let objects: PlistBinaryObjects?
  /// Where a binary dictionary's key references start; its value references follow them.
  private let payload: Int
  /// A binary dictionary's index of keys, made at its first search when it is larger than a
  /// tree dictionary without an index.
  private let lazyIndex: PlistLazyKeyIndex?
  let count: Int

  init(_ dictionary: PropertyListDictionary, node: PlistDecodingNode, objects: PlistBinaryObjects?) {
    if node.isBinaryContainer, let objects {
      (count, payload) = objects.members(of: node.object)
      keys = []
      values = []
      index = nil
      self.objects = objects
      lazyIndex = count > PropertyListDictionary.indexThreshold ? PlistLazyKeyIndex() : nil
    } else {
      keys = dictionary.storedKeys
      values = dictionary.storedValues
      index = dictionary.index
      self.objects = nil
      payload = 0
      lazyIndex = nil
      count = keys.count
    }
  }

  @inline(__always)
  private func keyObject(_ objects: PlistBinaryObjects, at position: Int) -> Int {
    objects.reference(at: payload &+ position &* objects.referenceSize)
  }

  /// The key object at `position` of a binary dictionary; -1 for a tree's.
  @inline(__always)
  func keyObject(at position: Int) -> Int {
    guard let objects else { return -1 }
    return keyObject(objects, at: position)
  }

  /// Whether the key at `position` is `wanted`, known to be the text of key object `keyObject`
  /// (for a tree's dictionary, the strings are compared).
  @inline(__always)
  func key(at position: Int, is keyObject: Int, _ wanted: String) throws -> Bool {
    guard position >= 0, position < count else { return false }
    guard let objects else { return keys[position] == wanted }
    return self.keyObject(objects, at: position) == keyObject
  }

  /// The key at `position`.
  func key(at position: Int) throws -> String {
    guard let objects else { return keys[position] }
    return try objects.keyText(keyObject(objects, at: position))
  }

  /// The value at `position`.
  @inline(__always)
  func value(at position: Int) throws -> PlistDecodingNode {
    guard let objects else { return PlistDecodingNode(values[position]) }
    return try objects.node(objects.reference(at: payload &+ (count &+ position) &* objects.referenceSize))
  }

  /// Whether the key at `position` is `wanted` (`String`'s `==`).
  @inline(__always)
  func key(at position: Int, equals wanted: String) throws -> Bool {
    guard let objects else { return keys[position] == wanted }
    var text = wanted
    return try text.withUTF8 { bytes in
      try objects.key(keyObject(objects, at: position), equals: bytes, wantedIsASCII: nil, wanted)
    }
  }

  /// The position of `wanted`, if it is a key, and — in a binary document that stores each key
  /// once — `wanted`'s one key object, whether this dictionary has it or not (else -1).
  func search(_ wanted: String) throws -> (position: Int?, keyObject: Int) {
    guard let objects else {
      if let index { return (index[wanted], -1) }
      return (keys.firstIndex(of: wanted), -1)
    }
    if let lazyIndex {
      if lazyIndex.table == nil {
        var table: [String: Int] = [:]
        table.reserveCapacity(count)
        for position in 0..<count { table[try key(at: position)] = position }
        lazyIndex.table = table
      }
      return (lazyIndex.table?[wanted], -1)
    }
    if let keyObjectsByText = objects.keyObjectsByText {
      // Each key text has one key object: look for that object among the key references.
      guard let wantedObject = keyObjectsByText[wanted] else { return (nil, -1) }
      return (locate(objects, keyObject: wantedObject), wantedObject)
    }
    var text = wanted
    let found = try text.withUTF8 { bytes in
      let ascii = PlistBinaryObjects.isASCII(bytes)
      for position in 0..<count where try objects.key(keyObject(objects, at: position), equals: bytes, wantedIsASCII: ascii, wanted) {
        return Optional(position)
      }
      return nil
    }
    return (found, -1)
  }

  /// Where key object `keyObject` is among the keys (`.some(nil)`: nowhere), when that settles
  /// whether a key text is here: in a small binary dictionary of a document that stores each
  /// key once. Otherwise `nil`.
  @inline(__always)
  func locate(keyObject: Int) -> Int?? {
    guard keyObject >= 0, lazyIndex == nil, let objects, objects.keyObjectsByText != nil else { return nil }
    return .some(locate(objects, keyObject: keyObject))
  }

  @inline(__always)
  private func locate(_ objects: PlistBinaryObjects, keyObject: Int) -> Int? {
    for position in 0..<count where self.keyObject(objects, at: position) == keyObject { return position }
    return nil
  }
}

/// A large binary dictionary's key index, made when first needed.
final class PlistLazyKeyIndex {
  var table: [String: Int]?
}
