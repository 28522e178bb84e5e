import Foundation
import Testing
import TestSupport

@testable import PropertyLists

@Suite("Binary property lists")
struct BinaryPlistTests {
  /// Every binary plist in the corpus: the bplist folder and the keyed archives written in binary.
  static let validBinaryFiles: [CorpusFile] =
    (Corpus.files(in: "bplist", excluding: ["invalid"]) + Corpus.files(in: "keyedarchive"))
    .filter { (try? $0.data().prefix(7)) == Data("bplist0".utf8) }

  /// The Apple-made ones among them (see ``appleFilesReencodeByteIdentically(_:)``).
  static let appleBinaryFiles: [CorpusFile] = validBinaryFiles.filter {
    $0.name.hasPrefix("keyedarchive/macOS-10.14") || $0.name.hasSuffix("Generic_XML_Properties_Binary.plist")
  }

  static let invalidFiles: [CorpusFile] = Corpus.files(in: "bplist/invalid")

  /// The per-file tests below have one case per file; this keeps a missing or emptied folder
  /// from passing with no cases.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func corpusHoldsTheBinaryFiles() {
    let files = Self.validBinaryFiles
    #expect(files.count >= 60, "expected the bplist and keyed-archive corpus, found \(files.count) binary files")
    #expect(Self.appleBinaryFiles.count >= 30)
    #expect(Self.invalidFiles.count >= 30)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: validBinaryFiles)
  func corpusFilesReadAndRoundTrip(_ file: CorpusFile) throws {
    let bytes = try file.data()
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes)
    } catch {
      Issue.record("\(file.name): \(error)")
      return
    }
    let again = try PropertyListValue(decoding: value.encoded(as: .binary))
    #expect(again == value, "\(file.name) changed after re-encoding")
  }

  /// Apple-made binary plists re-encode to exactly Apple's bytes, or differ only because Apple's
  /// file repeats equal scalars (NSKeyedArchiver on macOS 10.14 writes a class name once for
  /// `$classname` and again inside `$classes`, from distinct NSString instances), which Stasis
  /// stores once. The test checks that explanation for every file that differs: Stasis's object
  /// count is Apple's minus the number of repeated scalar objects in Apple's file.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: appleBinaryFiles)
  func appleFilesReencodeByteIdentically(_ file: CorpusFile) throws {
    let bytes = try file.data()
    let encoded = try PropertyListValue(decoding: bytes).encoded(as: .binary)
    if encoded == bytes {
      print("binary re-encoding: \(file.name) is byte-identical")
      return
    }
    let appleObjects = Self.objectPayloads([UInt8](bytes))
    let ourObjects = Self.objectPayloads([UInt8](encoded))
    // Scalars that are neither booleans nor UIDs (which Stasis repeats as CF does).
    let scalars = appleObjects.filter { [0x1, 0x2, 0x3, 0x4, 0x5, 0x6].contains($0.first! >> 4) }
    let repeated = scalars.count - Set(scalars).count
    #expect(repeated > 0 && ourObjects.count == appleObjects.count - repeated,
            "\(file.name): \(appleObjects.count) objects in Apple's file, \(ourObjects.count) in ours, \(repeated) repeated scalars")
    print("binary re-encoding: \(file.name) differs only by Apple's \(repeated) repeated equal strings")
  }

  /// The raw bytes of every object of a valid binary plist, in object order.
  static func objectPayloads(_ bytes: [UInt8]) -> [[UInt8]] {
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let count = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
    let table = bytes[(trailer + 24)..<(trailer + 32)].reduce(0) { $0 << 8 | Int($1) }
    let offsets = (0..<count).map { i in
      bytes[(table + i * offsetSize)..<(table + (i + 1) * offsetSize)].reduce(0) { $0 << 8 | Int($1) }
    }
    let ends = offsets.sorted() + [table]
    return offsets.map { start in
      let end = ends[ends.firstIndex(of: start)! + 1]
      return Array(bytes[start..<end])
    }
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: invalidFiles)
  func invalidFilesAreRejected(_ file: CorpusFile) throws {
    let bytes = try file.data()
    #expect(throws: PropertyListError.self, "\(file.name) was accepted") {
      try PropertyListValue(decoding: bytes, format: .binary)
    }
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: validBinaryFiles)
  func everyStrictPrefixIsRejected(_ file: CorpusFile) throws {
    let bytes = try file.bytes()
    // Large files: every prefix near both ends, and a stride through the middle.
    let lengths: [Int] = bytes.count <= 4096
      ? Array(0..<bytes.count)
      : Array(0..<1024) + Array(stride(from: 1024, to: bytes.count - 1024, by: 97)) + Array((bytes.count - 1024)..<bytes.count)
    for length in lengths {
      // Rejected, as it must be.
      #expect(throws: PropertyListError.self, "\(file.name) cut to \(length) bytes was accepted") {
        try PropertyListValue(decoding: Array(bytes[..<length]), format: .binary)
      }
    }
  }

  @Test func workedExampleFromTheFormatReference() throws {
    // {"key": "value", "n": [true, 300]} as a generic writer lays it out (objects, then the offset table).
    let bytes: [UInt8] = Array("bplist00".utf8) + [
      0xD2, 0x01, 0x02, 0x03, 0x04,  // obj0: dict of 2, keys → 1, 2; values → 3, 4
      0x53, 0x6B, 0x65, 0x79,  // obj1: "key"
      0x51, 0x6E,  // obj2: "n"
      0x55, 0x76, 0x61, 0x6C, 0x75, 0x65,  // obj3: "value"
      0xA2, 0x05, 0x06,  // obj4: array → 5, 6
      0x09,  // obj5: true
      0x11, 0x01, 0x2C,  // obj6: 2-byte integer 300
      0x08, 0x0D, 0x11, 0x13, 0x19, 0x1C, 0x1D,  // offset table
      0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20,
    ]
    let value = try PropertyListValue(decoding: bytes)
    #expect(value == ["key": "value", "n": [true, 300]])
  }

  @Test func integersCoverTheWholeRange() throws {
    let values: [PropertyListValue] = [
      .integer(PropertyListInteger(Int64.min)), .integer(PropertyListInteger(-1)), 0, 255, 256, 65535, 65536,
      .integer(PropertyListInteger(Int64(UInt32.max))), .integer(PropertyListInteger(Int64.max)),
      .integer(PropertyListInteger(UInt64(Int64.max) + 1)), .integer(PropertyListInteger(UInt64.max)),
    ]
    let decoded = try PropertyListValue(decoding: PropertyListValue.array(values).encoded(as: .binary))
    #expect(decoded == .array(values))
    // UInt64.max and -1 stay distinct.
    #expect(decoded[10] != decoded[1])
  }

  @Test func oversizedIntegerIsAnErrorNotATruncation() throws {
    // A 16-byte integer whose high half is neither 0 nor a sign extension.
    var bytes: [UInt8] = Array("bplist00".utf8) + [0x14] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 5]
    bytes += [0x08]
    bytes += [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25]
    expectError(PropertyListError.self, .invalidValue) { try PropertyListValue(decoding: bytes) }
  }

  @Test func realWidthIsRemembered() throws {
    let value: PropertyListValue = [.real(1.5, width: .single), .real(1.5)]
    let bytes = try value.encodedBytes(as: .binary)
    #expect(bytes.contains(0x22) && bytes.contains(0x23))
    guard case .array(let decoded) = try PropertyListValue(decoding: bytes),
      case .real(_, let first) = decoded[0], case .real(_, let second) = decoded[1]
    else {
      Issue.record("not an array of reals")
      return
    }
    #expect(first == .single && second == .double)
  }

  @Test func setsReadAsArrays() throws {
    // 0xC2: a set of two references.
    var bytes: [UInt8] = Array("bplist00".utf8) + [0xC2, 0x01, 0x02, 0x09, 0x08]
    bytes += [0x08, 0x0B, 0x0C]
    bytes += [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 13]
    #expect(try PropertyListValue(decoding: bytes) == [true, false])
  }

  @Test func sharedReferencesCannotExplode() throws {
    // 40 arrays, each holding two references to the next: 2^40 values if expanded naively.
    let levels = 40
    var objects: [[UInt8]] = []
    for level in 0..<levels { objects.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
    objects.append([0x09])
    var bytes: [UInt8] = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
      offsets.append(UInt8(bytes.count))
      bytes += object
    }
    let tableStart = bytes.count
    bytes += offsets
    bytes += [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, UInt8(objects.count), 0, 0, 0, 0, 0, 0, 0, 0]
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(tableStart)]
    expectError(PropertyListError.self, .limitExceeded) { try PropertyListValue(decoding: bytes) }
  }

  @Test func deepNestingIsRefused() throws {
    var value: PropertyListValue = "leaf"
    for _ in 0..<600 { value = [value] }
    let bytes = try value.encodedBytes(as: .binary)
    expectError(PropertyListError.self, .tooDeep) { try PropertyListValue(decoding: bytes) }
    var shallow = PropertyListReadingOptions()
    shallow.maximumDepth = 1000
    #expect(try PropertyListValue(decoding: bytes, options: shallow) == value)
  }

  @Test func equalScalarsAreStoredOnce() throws {
    let value: PropertyListValue = ["a": "same", "b": "same", "c": ["same", 7, 7, true, true]]
    let bytes = try value.encodedBytes(as: .binary)
    let count = bytes.count - 32 + 8
    let objectCount = Int(bytes[count + 7])
    // dict, 3 keys, "same", array, 7, true, true (booleans are repeated, as CF does)
    #expect(objectCount == 9)
    #expect(try PropertyListValue(decoding: bytes) == value)
  }

  /// Numbers are shared only with an exactly equal number of the same kind, as CF's writer
  /// shares them: `0.0` and `-0.0`, a float and a double of one value, `-1` and `UInt64.max`
  /// (the same bits), a real and a date of the same bits stay apart.
  @Test func numbersAreSharedOnlyWithTheirOwnKind() throws {
    let members: [PropertyListValue] = [
      .real(0.0), .real(-0.0), .real(0.0), .real(1.5, width: .single), .real(1.5), .real(1.5), .integer(-1),
      .integer(PropertyListInteger(UInt64.max)), .integer(-1), .date(Date(timeIntervalSinceReferenceDate: 1.5)), .integer(7), .integer(7),
    ]
    let bytes = try PropertyListValue.array(members).encodedBytes(as: .binary)
    // Object 0 is the array (marker 0xAC: 12 members), then its 12 one-byte references.
    #expect(bytes[8] == 0xAC)
    #expect(Array(bytes[9..<21]) == [1, 2, 1, 3, 4, 4, 5, 6, 5, 7, 8, 8])
    #expect(Int(bytes[bytes.count - 32 + 15]) == 9)
    #expect(try PropertyListValue(decoding: bytes) == .array(members))
  }

  /// Enough numbers to make the number table grow several times, each met four times.
  @Test func manyRepeatedNumbersAreStoredOnceEach() throws {
    let members = (0..<3_000).map { index -> PropertyListValue in
      let value = index / 3 % 250
      return switch index % 3 {
      case 0: .integer(PropertyListInteger(Int64(value) - 125))
      case 1: .real(Double(value) / 8)
      default: .date(Date(timeIntervalSinceReferenceDate: Double(value)))
      }
    }
    let bytes = try PropertyListValue.array(members).encodedBytes(as: .binary)
    let trailer = bytes.count - 32
    let objectCount = bytes[(trailer + 8)..<(trailer + 16)].reduce(0) { $0 << 8 | Int($1) }
    // The array, and each of the 3 × 250 distinct (kind, value) pairs once.
    #expect(objectCount == 1 + 750)
    #expect(try PropertyListValue(decoding: bytes) == .array(members))
  }

  @Test(arguments: 0..<400 as Range<UInt64>)
  func generatedValuesRoundTrip(seed: UInt64) throws {
    var generator = RandomPropertyList(seed: seed, kinds: .binary)
    let value = generator.value()
    let bytes = try value.encodedBytes(as: .binary)
    #expect(try PropertyListValue(decoding: bytes) == value, "seed \(seed)")
  }

  @Test func utf16AndAstralStrings() throws {
    let value: PropertyListValue = ["Ω": "日本語 🎁 e\u{301}", "plain": "ascii"]
    #expect(try PropertyListValue(decoding: value.encoded(as: .binary)) == value)
  }
}
