import Foundation
import Testing
import TestSupport

@_spi(Testing) @testable import PropertyLists

// UTF-16 string objects are transcoded by the reader itself: eight ASCII units a step, short
// strings through stack scratch space, long ones measured (`utf8LengthBound`) and transcoded in
// place. These tests compare every length class with the standard library's own decoding of the
// same units (which also makes an unpaired surrogate U+FFFD), through the tree reader and the
// Codable decoder.

/// Units of every kind the transcoder treats apart: ASCII (runs of 1 to 20, so that runs meet
/// the 4- and 8-unit steps at every offset), 2-byte (U+0080…U+07FF), 3-byte (CJK, U+FFFD, the
/// last BMP units), surrogate pairs, and unpaired surrogates (high alone, low alone, high at the
/// end).
private func randomUnits(_ rng: inout SplitMix64, count: Int) -> [UInt16] {
  var units: [UInt16] = []
  while units.count < count {
    switch Int.random(in: 0..<10, using: &rng) {
    case 0..<5:
      for _ in 0..<Int.random(in: 1...20, using: &rng) { units.append(UInt16.random(in: 0x20...0x7F, using: &rng)) }
    case 5: units.append(UInt16.random(in: 0x80...0x7FF, using: &rng))
    case 6: units.append([0x4E2D, 0x6587, 0xFFFD, 0xFFFF, 0x0800, 0xE000].randomElement(using: &rng)!)
    case 7: units += [UInt16.random(in: 0xD800...0xDBFF, using: &rng), UInt16.random(in: 0xDC00...0xDFFF, using: &rng)]
    case 8: units.append(UInt16.random(in: 0xDC00...0xDFFF, using: &rng))
    default: units.append(UInt16.random(in: 0xD800...0xDBFF, using: &rng))
    }
  }
  return Array(units.prefix(count))
}

private func bigEndianBytes(_ units: [UInt16]) -> [UInt8] { units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }

/// A document whose top object is an array of the given UTF-16 string objects.
private func utf16Document(_ strings: [[UInt16]]) -> Data {
  var objects: [[UInt8]] = [[]]
  for units in strings {
    let header: [UInt8] =
      units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x12] + withUnsafeBytes(of: UInt32(units.count).bigEndian, Array.init)
    objects.append(header + bigEndianBytes(units))
  }
  objects[0] = [0xAF, 0x11] + withUnsafeBytes(of: UInt16(strings.count).bigEndian, Array.init)
    + (1...strings.count).flatMap { withUnsafeBytes(of: UInt16($0).bigEndian, Array.init) }
  return handMadeBinaryPlist(objects, top: 0, offsetSize: 4, referenceSize: 2)
}

/// Lengths around every boundary: the 4- and 8-unit steps, inline strings, the stack limit of
/// the scratch space, the in-place limit, and beyond.
private let lengths: [Int] = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 340, 341, 342, 343, 1199, 1200, 1201, 1202, 2047, 4096, 70_000]

@Suite struct BinaryPlistUTF16Tests {
  @Test(arguments: [UInt64(1), 2, 3, 4])
  func everyLengthClassDecodesAsTheStandardLibraryDoes(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var strings: [[UInt16]] = []
    for length in lengths {
      strings.append(randomUnits(&rng, count: length))
      strings.append([UInt16](repeating: 0x41, count: length))  // all ASCII
      strings.append((0..<length).map { UInt16(0x3041 + $0 % 80) })  // all 3-byte
      strings.append(Array((randomUnits(&rng, count: length - 1) + [0xD83D]).suffix(length)))  // a high surrogate last
    }
    let expected = strings.map { PropertyListValue.string(String(decoding: $0, as: UTF16.self)) }
    let data = utf16Document(strings)
    let value = try PropertyListValue(decoding: data)
    #expect(value == .array(expected))
    // The same strings through the Codable decoder (read in place).
    let decoded = try PropertyLists.PropertyListDecoder().decode([String].self, from: data)
    #expect(decoded == expected.map { $0.stringValue! })
  }

  @Test(arguments: [UInt64(11), 12, 13])
  func lengthBoundIsExactWithoutSurrogatesAndNeverShort(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for length in lengths + [16_383, 16_384, 16_391, 200_000] {
      let units = randomUnits(&rng, count: length)
      let bytes = bigEndianBytes(units)
      let exact = String(decoding: units, as: UTF16.self).utf8.count
      let surrogates = units.filter { $0 & 0xF800 == 0xD800 }.count
      bytes.withUnsafeBytes { raw in
        let bound = BinaryPlistReader.utf8LengthBound(raw.baseAddress!, count: length)
        #expect(bound >= exact)
        #expect(bound <= exact + surrogates)
        if surrogates == 0 { #expect(bound == exact) }
        var scratch = [UInt8](repeating: 0, count: bound)
        let written = scratch.withUnsafeMutableBufferPointer {
          BinaryPlistReader.transcodeUTF16(raw.baseAddress!, count: length, into: $0.baseAddress!)
        }
        #expect(written == exact)
        #expect(Array(scratch.prefix(written)) == Array(String(decoding: units, as: UTF16.self).utf8))
      }
    }
  }

  @Test func longStringCutByTheOffsetTableIsRefused() throws {
    // A 1,500-unit string object whose payload runs 2 bytes into the offset table.
    let units = [UInt16](repeating: 0x4E2D, count: 1_500)
    var data = utf16Document([units])
    let stringStart = 8 + 6  // header, then the 1-element array object
    data[stringStart + 4] = 0x05
    data[stringStart + 5] = 0xDD  // count 1,501
    let error = try #require(throws: PropertyListError.self) { try PropertyListValue(decoding: data) }
    #expect(error.code == .truncated)
    #expect(error.position == .byteOffset(stringStart))
    #expect(throws: DecodingError.self) { try PropertyLists.PropertyListDecoder().decode([String].self, from: data) }
  }
}
