/// The 32-byte trailer at the end of every `bplist00` document, and the checks CoreFoundation
/// makes on it before reading any object (`__CFBinaryPlistGetTopLevelInfo`).
///
/// ```text
/// byte  0 ... 4   unused (0)
///       5         sort version (0)
///       6         offsetIntSize   bytes per offset-table entry
///       7         objectRefSize   bytes per object reference inside containers
///       8 ... 15  numObjects      (u64 big-endian)
///      16 ... 23  topObject       index of the root object (u64)
///      24 ... 31  offsetTableOffset  where the offset table starts (u64)
/// ```
struct BinaryPlistTrailer {
  var offsetSize: Int
  var referenceSize: Int
  var objectCount: Int
  var topObject: Int
  var offsetTableStart: Int

  static let byteCount = 32
  static let headerCount = 8

  /// Reads and validates the trailer and the whole offset table of `buffer`.
  init(validating buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) {
    let length = buffer.count
    guard length >= Self.headerCount + 1 + Self.byteCount else {
      throw BinaryPlistReader.failure(.truncated, at: 0, "document of \(length) bytes is shorter than the 41-byte minimum (header, one object, trailer)")
    }
    guard buffer.starts(with: "bplist0".utf8) else {
      throw BinaryPlistReader.failure(.unknownFormat, at: 0, "header is not \"bplist0x\"")
    }
    let trailerStart = length - Self.byteCount
    offsetSize = Int(buffer[trailerStart + 6])
    referenceSize = Int(buffer[trailerStart + 7])
    let rawCount = BinaryPlistReader.bigEndian(buffer, at: trailerStart + 8, width: 8)
    let rawTop = BinaryPlistReader.bigEndian(buffer, at: trailerStart + 16, width: 8)
    let rawTableStart = BinaryPlistReader.bigEndian(buffer, at: trailerStart + 24, width: 8)

    guard offsetSize >= 1, referenceSize >= 1 else {
      throw BinaryPlistReader.failure(.unexpectedInput, at: trailerStart + 6, "trailer gives offset size \(offsetSize) and reference size \(referenceSize); both must be at least 1")
    }
    guard rawCount >= 1, rawCount <= UInt64(Int.max) else {
      throw BinaryPlistReader.failure(.unexpectedInput, at: trailerStart + 8, "trailer gives \(rawCount) objects; expected at least 1")
    }
    guard rawCount <= UInt64(options.maximumObjectCount) else {
      throw BinaryPlistReader.failure(.limitExceeded, at: trailerStart + 8, "trailer gives \(rawCount) objects, more than the limit of \(options.maximumObjectCount)")
    }
    objectCount = Int(rawCount)
    guard rawTop < rawCount else {
      throw BinaryPlistReader.failure(.badReference, at: trailerStart + 16, "top object \(rawTop) is not below the object count \(rawCount)")
    }
    topObject = Int(rawTop)
    guard rawTableStart >= UInt64(Self.headerCount + 1), rawTableStart < UInt64(trailerStart) else {
      throw BinaryPlistReader.failure(.badReference, at: trailerStart + 24, "offset table start \(rawTableStart) is outside the object area 9..<\(trailerStart)")
    }
    offsetTableStart = Int(rawTableStart)
    // The file must be exactly header + objects + offset table + trailer: no gaps, no garbage.
    let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
    guard !overflow, tableSize == trailerStart - offsetTableStart else {
      throw BinaryPlistReader.failure(.unexpectedInput, at: offsetTableStart, "offset table of \(objectCount) entries × \(offsetSize) bytes does not fill the \(trailerStart - offsetTableStart) bytes before the trailer")
    }
    // References and offsets must be wide enough to address every object and byte.
    if referenceSize < 8, UInt64(objectCount) >> (8 * UInt64(referenceSize)) != 0 {
      throw BinaryPlistReader.failure(.unexpectedInput, at: trailerStart + 7, "\(referenceSize)-byte object references cannot address \(objectCount) objects")
    }
    if offsetSize < 8, UInt64(offsetTableStart) >> (8 * UInt64(offsetSize)) != 0 {
      throw BinaryPlistReader.failure(.unexpectedInput, at: trailerStart + 6, "\(offsetSize)-byte offsets cannot reach the offset table at \(offsetTableStart)")
    }
    // Every offset must point into the object area.
    let lastObjectByte = UInt64(offsetTableStart - 1)
    var entry = offsetTableStart
    for index in 0..<objectCount {
      let offset = BinaryPlistReader.bigEndian(buffer, at: entry, width: offsetSize)
      guard offset >= UInt64(Self.headerCount), offset <= lastObjectByte else {
        throw BinaryPlistReader.failure(.badReference, at: entry, "object \(index) starts at \(offset), outside the object area 8...\(lastObjectByte)")
      }
      entry &+= offsetSize
    }
  }
}
