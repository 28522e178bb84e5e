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

  /// Whether the last 32 bytes look like a trailer as every writer makes one: five unused zero
  /// bytes, sort version 0, offset and reference sizes of 1 to 8 bytes.
  static func looksLikeTrailer(_ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
    guard start >= 0, start + 8 <= buffer.count else { return false }
    return (start..<start + 6).allSatisfy { buffer[$0] == 0 } && (1...8).contains(buffer[start + 6]) && (1...8).contains(buffer[start + 7])
  }

  /// A cut-off document, diagnosed as one before its trailer's counts are believed. When the
  /// last 32 bytes are not a trailer — its offset or reference size is not 1 to 8 (no reader
  /// can use such a trailer), or its unused bytes are not zero and what it says does not fit
  /// the file — the file ends early: inside the trailer when a trailer's opening (six zero
  /// bytes, then sizes of 1 to 8) starts within the last 32 bytes, otherwise inside the offset
  /// table or the objects before it. A document whose trailer looks whole but whose offset
  /// table runs past it ends inside its offset table. Otherwise `nil`, and the trailer's own
  /// checks run.
  static func truncation(_ buffer: UnsafeRawBufferPointer, trailerStart: Int, count: UInt64, tableStart: UInt64, limit: Int) -> PropertyListError? {
    let length = buffer.count
    let offsetSize = UInt64(buffer[trailerStart + 6])
    let (tableBytes, overflow1) = count.multipliedReportingOverflow(by: offsetSize)
    let (tableEnd, overflow2) = tableStart.addingReportingOverflow(tableBytes)
    let fits = !overflow1 && !overflow2 && tableEnd == UInt64(trailerStart) && count >= 1 && count <= UInt64(limit)
    let sizesValid = (1...8).contains(buffer[trailerStart + 6]) && (1...8).contains(buffer[trailerStart + 7])
    if looksLikeTrailer(buffer, at: trailerStart) {
      // A whole trailer: the document is cut only if its table runs past the trailer's start.
      guard count >= 1, count <= UInt64(limit), tableStart < UInt64(trailerStart), overflow1 || overflow2 || tableEnd > UInt64(trailerStart) else { return nil }
      return BinaryPlistReader.failure(
        .truncated, at: length,
        "the file ends at byte \(length) inside the offset table: the trailer puts \(count) entries of \(offsetSize) bytes at byte \(tableStart), which run past the trailer at byte \(trailerStart)")
    }
    guard !sizesValid || !fits else { return nil }
    // The last trailer opening that starts within the final 32 bytes, if any.
    if let opening = (trailerStart + 1..<length).reversed().first(where: { looksLikeTrailer(buffer, at: $0) || isTrailerOpening(buffer, at: $0) }) {
      return BinaryPlistReader.failure(
        .truncated, at: length,
        "the file ends at byte \(length) inside the trailer: a trailer starts at byte \(opening) and only \(length - opening) of its 32 bytes are there")
    }
    return BinaryPlistReader.failure(
      .truncated, at: length,
      "the file ends at byte \(length) inside the offset table or the objects: its last 32 bytes are not a trailer (they would give \(count) objects and a table at byte \(tableStart)); the file is cut short or damaged")
  }

  /// Six zero bytes then as many of the two sizes (1 to 8) as the buffer still holds: the
  /// opening of a trailer the file's end cut off.
  static func isTrailerOpening(_ buffer: UnsafeRawBufferPointer, at start: Int) -> Bool {
    let end = min(buffer.count, start + 8)
    guard start + 6 <= buffer.count else { return false }
    return (start..<start + 6).allSatisfy { buffer[$0] == 0 } && (start + 6..<end).allSatisfy { (1...8).contains(buffer[$0]) }
  }

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

    if let cut = Self.truncation(buffer, trailerStart: trailerStart, count: rawCount, tableStart: rawTableStart, limit: options.maximumObjectCount) {
      throw cut
    }
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
