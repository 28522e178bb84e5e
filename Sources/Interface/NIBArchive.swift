/// A compiled nib in Apple's NIBArchive format (iOS 6+, macOS 10.13+), kept as its four tables so
/// that writing it back gives Apple's bytes: objects (a class and a run of values), keys, values
/// (a key and a typed payload) and class names (with fallbacks); <doc:NIBArchiveFormat> describes
/// the layout.
///
/// ```swift
/// let nib = try NIBArchive(contentsOfFile: "Main.nib")
/// for (key, value) in nib.values(of: 0) { print(key, value) }   // the root's top-level keys
/// ```
public struct NIBArchive: Hashable, Sendable {
  /// One entry of the objects table: its class and its slice of the values table.
  public struct Object: Hashable, Sendable {
    /// Index into ``classNames``.
    public var classIndex: Int
    /// Index of the object's first value in ``values``.
    public var firstValue: Int
    /// How many values the object has.
    public var valueCount: Int

    public init(classIndex: Int, firstValue: Int, valueCount: Int) {
      self.classIndex = classIndex
      self.firstValue = firstValue
      self.valueCount = valueCount
    }
  }

  /// A typed value (the byte after the key index: 0 int8 … 10 object reference).
  public enum Payload: Hashable, Sendable {
    case int8(Int8), int16(Int16), int32(Int32), int64(Int64)
    /// Types 4 (false) and 5 (true).
    case bool(Bool)
    case float32(Float), float64(Double)
    case data([UInt8])
    case null
    /// An index into ``objects``.
    case object(Int)

    /// The type byte Apple writes for this payload.
    public var typeByte: UInt8 {
      switch self {
      case .int8: 0
      case .int16: 1
      case .int32: 2
      case .int64: 3
      case .bool(let flag): flag ? 5 : 4
      case .float32: 6
      case .float64: 7
      case .data: 8
      case .null: 9
      case .object: 10
      }
    }

    /// The value of an integer payload, whatever its width (`nil` for any other payload).
    public var integerValue: Int? {
      switch self {
      case .int8(let value): Int(value)
      case .int16(let value): Int(value)
      case .int32(let value): Int(value)
      case .int64(let value): Int(value)
      default: nil
      }
    }

    /// Exact equality: floats by bit pattern (so `-0.0` and NaN payloads survive a round trip).
    public static func == (left: Payload, right: Payload) -> Bool {
      switch (left, right) {
      case (.int8(let x), .int8(let y)): x == y
      case (.int16(let x), .int16(let y)): x == y
      case (.int32(let x), .int32(let y)): x == y
      case (.int64(let x), .int64(let y)): x == y
      case (.bool(let x), .bool(let y)): x == y
      case (.float32(let x), .float32(let y)): x.bitPattern == y.bitPattern
      case (.float64(let x), .float64(let y)): x.bitPattern == y.bitPattern
      case (.data(let x), .data(let y)): x == y
      case (.null, .null): true
      case (.object(let x), .object(let y)): x == y
      default: false
      }
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(typeByte)
      switch self {
      case .int8(let v): hasher.combine(v)
      case .int16(let v): hasher.combine(v)
      case .int32(let v): hasher.combine(v)
      case .int64(let v): hasher.combine(v)
      case .bool, .null: break
      case .float32(let v): hasher.combine(v.bitPattern)
      case .float64(let v): hasher.combine(v.bitPattern)
      case .data(let v): hasher.combine(v)
      case .object(let v): hasher.combine(v)
      }
    }
  }

  /// One entry of the values table.
  public struct Value: Hashable, Sendable {
    /// Index into ``keys``.
    public var keyIndex: Int
    public var payload: Payload

    public init(keyIndex: Int, payload: Payload) {
      self.keyIndex = keyIndex
      self.payload = payload
    }
  }

  /// One entry of the class-names table.
  public struct ClassName: Hashable, Sendable {
    public var name: String
    /// Indices (into the class-names table) of the classes to use when this one is unknown.
    public var fallbacks: [Int32]

    public init(name: String, fallbacks: [Int32] = []) {
      self.name = name
      self.fallbacks = fallbacks
    }
  }

  /// The header's format version (1).
  public var formatVersion: UInt32
  /// The header's coder version (9, or 10 from newer Xcode).
  public var coderVersion: UInt32
  public var objects: [Object]
  public var keys: [String]
  public var values: [Value]
  public var classNames: [ClassName]
  /// Bytes after the last table (some coder-version-10 files have them), kept for a faithful rewrite.
  public var trailingBytes: [UInt8]

  public init(
    formatVersion: UInt32 = 1, coderVersion: UInt32 = 9, objects: [Object] = [], keys: [String] = [], values: [Value] = [],
    classNames: [ClassName] = [], trailingBytes: [UInt8] = []
  ) {
    self.formatVersion = formatVersion
    self.coderVersion = coderVersion
    self.objects = objects
    self.keys = keys
    self.values = values
    self.classNames = classNames
    self.trailingBytes = trailingBytes
  }

  /// The class name of object `index`.
  public func className(of index: Int) -> String { classNames[objects[index].classIndex].name }

  /// The keys and payloads of object `index`, in archive order.
  public func values(of index: Int) -> [(key: String, payload: Payload)] {
    let object = objects[index]
    return values[object.firstValue..<(object.firstValue + object.valueCount)].map { (keys[$0.keyIndex], $0.payload) }
  }
}
