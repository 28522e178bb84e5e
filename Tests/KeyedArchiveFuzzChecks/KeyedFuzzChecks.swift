// The checks FuzzKeyedUnarchiver runs on each input, in a library of their own that two packages
// use: KeyedArchiveTests (KeyedFuzzRegressionTests replays Fuzz/FailCases/FuzzKeyedUnarchiver/
// through it) and the fuzz target itself (Fuzz/Package.swift depends on the root package's
// KeyedArchiveFuzzChecks product). It uses only the libraries' public API and no test framework.
public import FoundationEssentials
public import KeyedArchive
import PropertyLists

/// A class decoded in two steps (`init()`, then `decode(from:)`), so cycles through it resolve:
/// an object reference, an array of its own kind and a string.
///
/// Archived cycles become strong reference cycles, which Swift never frees and LeakSanitizer
/// would report. Every instance is therefore recorded in ``live`` and its references are cut by
/// ``KeyedFuzzChecks/releaseNodes()`` when an input is done. Only nodes can close a cycle (a
/// leaf is built by `init(coder:)`, a point is a value), so that frees everything. One input is
/// checked at a time (libFuzzer runs one; the regression suite is serialized).
public final class KeyedFuzzNode: ArchiveEncodable, ArchiveDecodableInPlace, ArchiveDecodingCompletion {
  nonisolated(unsafe) static var live: [KeyedFuzzNode] = []

  public var name = ""
  public var link: KeyedFuzzNode?
  public var children: [KeyedFuzzNode] = []
  public var extra: Any?

  public init() { Self.live.append(self) }

  public func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(link, forKey: "link")
    try coder.encode(children, forKey: "children")
    try coder.encode(extra, forKey: "extra")
  }

  public func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decode(String.self, forKey: "name") ?? ""
    link = try coder.decode(KeyedFuzzNode.self, forKey: "link")
    children = try coder.decode([KeyedFuzzNode].self, forKey: "children") ?? []
    extra = try coder.decodeObject(of: [KeyedFuzzLeaf.self, KeyedFuzzPoint.self, String.self, [String: Int].self], forKey: "extra")
  }

  /// Runs after the whole archive is decoded: walks what the cycles produced.
  public func archiveDidFinishDecoding() throws {
    _ = link?.name.utf8.count
    _ = children.reduce(0) { $0 + $1.children.count }
  }
}

/// A class decoded in one step by `init(coder:)`: a cycle back to it must be an error.
public final class KeyedFuzzLeaf: ArchiveEncodable, ArchiveDecodable {
  public var count: Int
  public var flag: Bool
  public var ratio: Double
  public var bytes: Data?
  public var label: String?
  public var owner: KeyedFuzzNode?
  public var point: KeyedFuzzPoint?

  public init(count: Int, flag: Bool, ratio: Double, bytes: Data?, label: String?, owner: KeyedFuzzNode?, point: KeyedFuzzPoint?) {
    (self.count, self.flag, self.ratio, self.bytes) = (count, flag, ratio, bytes)
    (self.label, self.owner, self.point) = (label, owner, point)
  }

  public init(coder: ArchiveDecoder) throws {
    count = try coder.decodeInteger(forKey: "count")
    flag = try coder.decodeBool(forKey: "flag")
    ratio = try coder.decodeDouble(forKey: "ratio")
    bytes = try coder.decodeBytes(forKey: "bytes")
    label = try coder.decode(String.self, forKey: "label")
    owner = try coder.decode(KeyedFuzzNode.self, forKey: "owner")
    point = try coder.decode(KeyedFuzzPoint.self, forKey: "point")
  }

  public func encode(with coder: ArchiveEncoder) throws {
    coder.encode(count, forKey: "count")
    coder.encode(flag, forKey: "flag")
    coder.encode(ratio, forKey: "ratio")
    if let bytes { coder.encodeBytes(bytes, forKey: "bytes") }
    try coder.encode(label, forKey: "label")
    try coder.encode(owner, forKey: "owner")
    try coder.encode(point, forKey: "point")
  }
}

/// A value type archived as an object of its own.
public struct KeyedFuzzPoint: ArchiveValueCodable {
  public var x: Double
  public var y: Float
  public var small: Int16
  public var tag: String?
  public var leaf: KeyedFuzzLeaf?

  public init(x: Double, y: Float, small: Int16, tag: String?, leaf: KeyedFuzzLeaf?) {
    (self.x, self.y, self.small, self.tag, self.leaf) = (x, y, small, tag, leaf)
  }

  public init(coder: ArchiveDecoder) throws {
    x = try coder.decodeDouble(forKey: "x")
    y = try coder.decodeFloat(forKey: "y")
    small = try coder.decodeInteger(Int16.self, forKey: "small")
    tag = try coder.decode(String.self, forKey: "tag")
    leaf = try coder.decode(KeyedFuzzLeaf.self, forKey: "leaf")
  }

  public func encode(with coder: ArchiveEncoder) throws {
    coder.encode(x, forKey: "x")
    coder.encode(y, forKey: "y")
    coder.encode(small, forKey: "small")
    try coder.encode(tag, forKey: "tag")
    try coder.encode(leaf, forKey: "leaf")
  }
}

/// What the harness does with one input; ``run(_:)`` returns a description of a bug, or `nil`.
///
/// The first byte chooses the mode, the rest is the archive (binary or XML, detected):
/// * bit 0: secure decoding on;
/// * bits 1–3: the decode call (see ``decodeRoot(_:mode:)``);
/// * bit 4: a `cannotDecodeClass` delegate that offers `KeyedFuzzNode` for unknown classes;
/// * bit 5: a `didDecode` hook that replaces every decoded `KeyedFuzzLeaf`'s label;
/// * bit 6: `preservesArchivedForm` (Foundation objects in their archived form: mutable classes,
///   member order, time-zone rules, equal instances apart), also when the root is read again.
///
/// A thrown ``KeyedArchiveError`` is a correct answer anywhere (and a `PropertyListError` from
/// reading the plist for the dump). Any other error is reported; traps, hangs and sanitizer
/// reports are the fuzzer's to catch.
public enum KeyedFuzzChecks {
  public static let limits: KeyedUnarchiver.Limits = {
    var limits = KeyedUnarchiver.Limits()
    limits.maximumDepth = 128
    limits.maximumObjectCount = 1 << 16
    limits.maximumByteCount = 1 << 20
    return limits
  }()

  static let plistOptions = PropertyListReadingOptions(
    maximumDepth: 512, maximumObjectCount: 1 << 16, maximumByteCount: 1 << 20)

  public static let registry: ArchiveClassRegistry = {
    var registry = ArchiveClassRegistry.foundation
    registry.register(KeyedFuzzNode.self, as: "KeyedFuzzNode", supportsSecureCoding: true)
    registry.register(KeyedFuzzLeaf.self, as: "KeyedFuzzLeaf", supportsSecureCoding: false)
    registry.register(KeyedFuzzPoint.self, as: "KeyedFuzzPoint", supportsSecureCoding: true)
    return registry
  }()

  /// Every type `decodeObject(of:)` may be given in mode 6.
  static let manyTypes: [Any.Type] = [
    KeyedFuzzNode.self, KeyedFuzzLeaf.self, KeyedFuzzPoint.self, String.self, Data.self, Date.self, URL.self,
    UUID.self, [String: Int].self, [AnyHashable: Any].self, [Any].self, Set<AnyHashable>.self, ArchiveNull.self,
    ArchivedOrderedSet.self, ArchivedIndexSet.self, IndexPath.self, ArchivedAttributedString.self,
    ArchivedError.self, ArchivedRect.self, ArchivedRange.self, Locale.self, TimeZone.self,
  ]

  public static func run(_ input: Data) -> String? {
    defer { releaseNodes() }
    guard let selector = input.first else { return nil }
    let archive = Data(input.dropFirst())
    if let failure = dump(archive) { return failure }
    let root: Any
    do {
      let unarchiver = try KeyedUnarchiver(data: archive, registry: registry, limits: limits)
      unarchiver.requiresSecureCoding = selector & 1 != 0
      unarchiver.preservesArchivedForm = selector & 0x40 != 0
      if selector & 0x10 != 0 {
        unarchiver.cannotDecodeClass = { _, _ in KeyedFuzzNode.self }
      }
      if selector & 0x20 != 0 {
        unarchiver.didDecode = { object in
          if let leaf = object as? KeyedFuzzLeaf { leaf.label = "replaced" }
          return object
        }
      }
      _ = unarchiver.topLevelKeys
      guard let decoded = try decodeRoot(unarchiver, mode: Int(selector >> 1) & 7) else { return nil }
      try unarchiver.finishDecoding()
      root = decoded
    } catch is KeyedArchiveError {
      return nil
    } catch {
      return "unarchiving threw \(type(of: error)), not a KeyedArchiveError: \(error)"
    }
    return rearchive(root, preservingArchivedForm: selector & 0x40 != 0)
  }

  /// Cuts the references of every node made while checking the input (see ``KeyedFuzzNode``).
  public static func releaseNodes() {
    for node in KeyedFuzzNode.live {
      node.link = nil
      node.children = []
      node.extra = nil
    }
    KeyedFuzzNode.live = []
  }

  /// The decode call for `mode` 0–7, on the top-level key `root`.
  public static func decodeRoot(_ unarchiver: KeyedUnarchiver, mode: Int) throws -> Any? {
    switch mode {
    case 0: return try unarchiver.decodeObject(forKey: "root")
    case 1: return try unarchiver.decode(KeyedFuzzNode.self, forKey: "root")
    case 2: return try unarchiver.decode(KeyedFuzzLeaf.self, forKey: "root")
    case 3: return try unarchiver.decode(KeyedFuzzPoint.self, forKey: "root")
    case 4: return try unarchiver.decode([KeyedFuzzNode].self, forKey: "root")
    case 5: return try unarchiver.decode([String: KeyedFuzzPoint].self, forKey: "root")
    case 6: return try unarchiver.decodeObject(of: manyTypes, forKey: "root")
    default: return try unarchiver.decodeObject(of: [KeyedFuzzNode.self, String.self], forKey: "root")
    }
  }

  /// `ArchiveDump.render` on the archive's plist, when the bytes read as one.
  static func dump(_ archive: Data) -> String? {
    let plist: PropertyListValue
    do {
      plist = try PropertyListValue(decoding: archive, options: plistOptions)
    } catch {
      return nil  // the unarchiver must then refuse it too, with a KeyedArchiveError
    }
    do {
      let text = try ArchiveDump.render(plist, maximumLines: 100_000)
      if text.isEmpty { return "ArchiveDump.render returned nothing for a keyed archive" }
    } catch is KeyedArchiveError {
    } catch {
      return "ArchiveDump.render threw \(type(of: error)), not a KeyedArchiveError: \(error)"
    }
    return nil
  }

  /// Archives a decoded root again (binary) and unarchives the result without restrictions (in
  /// the archived form when the root was decoded in it).
  static func rearchive(_ root: Any, preservingArchivedForm: Bool = false) -> String? {
    do {
      let data = try KeyedArchiver.archivedData(
        withRootObject: root, registry: registry, format: .binary, maximumObjectCount: limits.maximumObjectCount)
      let unarchiver = try KeyedUnarchiver(data: data, registry: registry, limits: limits)
      unarchiver.preservesArchivedForm = preservingArchivedForm
      _ = try unarchiver.decodeObject(forKey: "root")
      try unarchiver.finishDecoding()
    } catch is KeyedArchiveError {
    } catch {
      return "re-archiving a decoded \(type(of: root)) threw \(type(of: error)), not a KeyedArchiveError: \(error)"
    }
    return nil
  }
}
