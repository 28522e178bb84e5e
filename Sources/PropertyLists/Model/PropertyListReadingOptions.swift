/// Limits that every reader enforces, so hostile input cannot exhaust the stack or memory.
///
/// The defaults follow CoreFoundation: containers nest at most 512 deep (CF's limit on 64-bit
/// macOS and Linux). Documents up to 1 GiB and 16 million objects are accepted.
public struct PropertyListReadingOptions: Sendable, Hashable {
  /// Containers nested deeper than this throw `PropertyListError.Code.tooDeep`. Default 512.
  public var maximumDepth: Int = 512
  /// A document with more objects than this throws `PropertyListError.Code.limitExceeded`.
  /// Default 16,777,216 (2^24).
  public var maximumObjectCount: Int = 1 << 24
  /// A document larger than this many bytes throws `PropertyListError.Code.limitExceeded`.
  /// Default 1 GiB.
  public var maximumByteCount: Int = 1 << 30

  public init(maximumDepth: Int = 512, maximumObjectCount: Int = 1 << 24, maximumByteCount: Int = 1 << 30) {
    self.maximumDepth = maximumDepth
    self.maximumObjectCount = maximumObjectCount
    self.maximumByteCount = maximumByteCount
  }

  /// The defaults described above.
  public static let `default` = PropertyListReadingOptions()
}
