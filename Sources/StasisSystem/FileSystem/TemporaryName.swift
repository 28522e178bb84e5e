/// The name a crash-safe writer gives the file or folder it builds beside its destination,
/// `.<name>.stasis-tmp.<writer>.<hex>`: hidden, naming what it will replace and the process that
/// writes it, so the next run can tell a dead writer's debris from a live writer's work. Every
/// ``FileSystem`` uses it.
public enum TemporaryName {
  /// The marker between the destination's name and the writer's process id.
  public static let marker = ".stasis-tmp."

  /// The temporary name for `name` written by process `writer`; `unique` tells two of one
  /// writer's apart. The destination's name is shortened (to 200 UTF-8 bytes, whole characters)
  /// so that the temporary name still fits in a folder entry (255 bytes).
  public static func make(for name: String, writer: Int32, unique: UInt64) -> String {
    "." + shortened(name, toBytes: 200) + marker + "\(writer)." + String(unique, radix: 16)
  }

  /// The prefix every temporary name for `name` starts with.
  public static func prefix(for name: String) -> String { "." + shortened(name, toBytes: 200) + marker }

  /// The writer's process id if `name` is a temporary name, else nil.
  public static func writer(of name: String) -> Int32? {
    guard name.hasPrefix("."), let found = name.firstRange(of: marker) else { return nil }
    let fields = name[found.upperBound...].split(separator: ".", omittingEmptySubsequences: false)
    guard fields.count == 2, let writer = Int32(fields[0]), writer > 0, UInt64(fields[1], radix: 16) != nil else { return nil }
    return writer
  }

  /// The longest prefix of `name` made of whole characters that fits in `limit` UTF-8 bytes.
  static func shortened(_ name: String, toBytes limit: Int) -> Substring {
    guard name.utf8.count > limit else { return name[...] }
    var end = name.startIndex
    var bytes = 0
    for index in name.indices {
      let next = name.index(after: index)
      bytes += name.utf8.distance(from: index, to: next)
      if bytes > limit { break }
      end = next
    }
    return name[..<end]
  }
}
