/// An integer as a property list holds it: any value from `Int64.min` through `UInt64.max`.
///
/// Binary property lists store integers of 1, 2, 4 and 8 bytes (the narrow ones unsigned, the
/// 8-byte one signed) and a 16-byte form that CoreFoundation uses for values above `Int64.max`.
/// XML stores decimal or hexadecimal text in the same range. This type holds exactly that range,
/// so `UInt64.max` and `-1` stay distinct.
public struct PropertyListInteger: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The two's-complement bit pattern of the value's low 64 bits.
  public let bitPattern: UInt64
  /// `true` when the value is below zero (then `bitPattern` is an `Int64` bit pattern).
  public let isNegative: Bool

  /// A signed value.
  @inlinable public init(_ value: Int64) {
    bitPattern = UInt64(bitPattern: value)
    isNegative = value < 0
  }

  /// An unsigned value, which may be above `Int64.max`.
  @inlinable public init(_ value: UInt64) {
    bitPattern = value
    isNegative = false
  }

  /// Any standard integer; `nil` when it is outside `Int64.min ... UInt64.max`.
  @inlinable public init?<T: BinaryInteger>(exactly value: T) {
    if value < 0 {
      guard let signed = Int64(exactly: value) else { return nil }
      self.init(signed)
    } else {
      guard let unsigned = UInt64(exactly: value) else { return nil }
      self.init(unsigned)
    }
  }

  /// The value as `Int64`, or `nil` when it is above `Int64.max`.
  @inlinable public var int64Value: Int64? {
    if isNegative { return Int64(bitPattern: bitPattern) }
    return bitPattern <= UInt64(Int64.max) ? Int64(bitPattern) : nil
  }

  /// The value as `UInt64`, or `nil` when it is negative.
  @inlinable public var uint64Value: UInt64? { isNegative ? nil : bitPattern }

  /// The value converted to `T`, or `nil` when `T` cannot hold it.
  @inlinable public func exactly<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
    isNegative ? T(exactly: Int64(bitPattern: bitPattern)) : T(exactly: bitPattern)
  }

  /// The nearest `Double`.
  @inlinable public var doubleValue: Double {
    isNegative ? Double(Int64(bitPattern: bitPattern)) : Double(bitPattern)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool {
    if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
    if lhs.isNegative { return Int64(bitPattern: lhs.bitPattern) < Int64(bitPattern: rhs.bitPattern) }
    return lhs.bitPattern < rhs.bitPattern
  }

  public var description: String {
    isNegative ? String(Int64(bitPattern: bitPattern)) : String(bitPattern)
  }
}

extension PropertyListInteger: ExpressibleByIntegerLiteral {
  public init(integerLiteral value: Int64) { self.init(value) }
}
