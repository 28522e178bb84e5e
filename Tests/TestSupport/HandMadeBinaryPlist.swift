public import Foundation

/// A `bplist00` document assembled object by object from the objects' bytes, for shapes no
/// writer makes (repeated keys, shared containers, damaged objects): the header, the objects in
/// order, an offset table of `offsetSize`-byte entries and a trailer naming `top` and
/// `referenceSize`-byte references (which the objects' own bytes must use).
public func handMadeBinaryPlist(_ objects: [[UInt8]], top: Int = 0, offsetSize: Int, referenceSize: Int) -> Data {
  func bigEndian(_ value: Int, width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) } }
  var bytes = Array("bplist00".utf8)
  var offsets: [Int] = []
  for object in objects {
    offsets.append(bytes.count)
    bytes += object
  }
  let tableStart = bytes.count
  for offset in offsets { bytes += bigEndian(offset, width: offsetSize) }
  bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
  bytes += bigEndian(objects.count, width: 8) + bigEndian(top, width: 8) + bigEndian(tableStart, width: 8)
  return Data(bytes)
}
