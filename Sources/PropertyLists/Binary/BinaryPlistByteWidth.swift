/// The fewest of 1, 2, 4 or 8 bytes that hold `value`: the width CoreFoundation's binary writer
/// (`__CFBinaryPlistWrite`) gives an integer, a UID, a count, and the trailer's object-reference
/// and offset sizes. Shared by this module's binary writer and the keyed archiver's one-pass
/// writer, so that both write the same bytes.
@inlinable @inline(__always)
package func binaryPlistByteWidth(_ value: UInt64) -> Int {
  if value <= 0xFF { return 1 }
  if value <= 0xFFFF { return 2 }
  if value <= 0xFFFF_FFFF { return 4 }
  return 8
}
