public import StasisSystem
import FoundationEssentials

extension NIBArchive {
  /// The archive's bytes as Apple lays them out: the 50-byte header, then the objects, keys,
  /// values and class-names tables contiguously in that order, then any trailing bytes.
  public func encoded() -> [UInt8] {
    var objectTable: [UInt8] = []
    for object in objects {
      Self.appendVarint(object.classIndex, to: &objectTable)
      Self.appendVarint(object.firstValue, to: &objectTable)
      Self.appendVarint(object.valueCount, to: &objectTable)
    }
    var keyTable: [UInt8] = []
    for key in keys {
      Self.appendVarint(key.utf8.count, to: &keyTable)
      keyTable.append(contentsOf: key.utf8)
    }
    var valueTable: [UInt8] = []
    for value in values {
      Self.appendVarint(value.keyIndex, to: &valueTable)
      valueTable.append(value.payload.typeByte)
      switch value.payload {
      case .int8(let v): valueTable.append(UInt8(bitPattern: v))
      case .int16(let v): Self.appendLittle(UInt64(UInt16(bitPattern: v)), 2, to: &valueTable)
      case .int32(let v): Self.appendLittle(UInt64(UInt32(bitPattern: v)), 4, to: &valueTable)
      case .int64(let v): Self.appendLittle(UInt64(bitPattern: v), 8, to: &valueTable)
      case .bool, .null: break
      case .float32(let v): Self.appendLittle(UInt64(v.bitPattern), 4, to: &valueTable)
      case .float64(let v): Self.appendLittle(v.bitPattern, 8, to: &valueTable)
      case .data(let bytes):
        Self.appendVarint(bytes.count, to: &valueTable)
        valueTable.append(contentsOf: bytes)
      case .object(let index): Self.appendLittle(UInt64(UInt32(truncatingIfNeeded: index)), 4, to: &valueTable)
      }
    }
    var classTable: [UInt8] = []
    for className in classNames {
      Self.appendVarint(className.name.utf8.count + 1, to: &classTable)
      Self.appendVarint(className.fallbacks.count, to: &classTable)
      for fallback in className.fallbacks { Self.appendLittle(UInt64(UInt32(bitPattern: fallback)), 4, to: &classTable) }
      classTable.append(contentsOf: className.name.utf8)
      classTable.append(0)
    }
    var output = Self.magic
    output.reserveCapacity(50 + objectTable.count + keyTable.count + valueTable.count + classTable.count + trailingBytes.count)
    Self.appendLittle(UInt64(formatVersion), 4, to: &output)
    Self.appendLittle(UInt64(coderVersion), 4, to: &output)
    var offset = 50
    for (count, table) in [(objects.count, objectTable), (keys.count, keyTable), (values.count, valueTable), (classNames.count, classTable)] {
      Self.appendLittle(UInt64(count), 4, to: &output)
      Self.appendLittle(UInt64(offset), 4, to: &output)
      offset += table.count
    }
    output += objectTable
    output += keyTable
    output += valueTable
    output += classTable
    output += trailingBytes
    return output
  }

  /// Writes the archive to `path` atomically, through `environment`'s file system.
  ///
  /// - Throws: ``InterfaceError`` `.fileSystem` with the file-system error as its cause.
  public func write(toFile path: String, environment: HostEnvironment = .current) throws(InterfaceError) {
    do {
      try environment.fileSystem.write(Data(encoded()), toFile: path)
    } catch {
      throw InterfaceError(.fileSystem, path: path, detail: "cannot write the nib: \(error.detail)", underlying: error)
    }
  }

  /// The NIBArchive varint: 7 bits per byte, low group first, the last byte marked by its high bit.
  static func appendVarint(_ value: Int, to bytes: inout [UInt8]) {
    var rest = UInt64(truncatingIfNeeded: value)
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F))
      rest >>= 7
    }
    bytes.append(UInt8(rest) | 0x80)
  }

  static func appendLittle(_ value: UInt64, _ count: Int, to bytes: inout [UInt8]) {
    for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }
}
