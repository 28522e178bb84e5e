import Foundation
import Testing
import TestSupport

@testable import Interface

/// The NIBArchive reader and writer (the file layer) on every Apple-made
/// NIBArchive in the corpus: read, written back byte for byte, checked table by table against
/// the Python `nibarchive` package, and hostile variants rejected with typed errors.
@Suite("NIBArchive: Apple's nibs read and written back")
struct NIBArchiveTests {
  /// Every file under corpus/nib that starts with the NIBArchive magic.
  static let nibFiles: [String] = {
    let root = Corpus.root.appendingPathComponent("nib")
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
    var result: [String] = []
    for case let relative as String in walker {
      let path = root.appendingPathComponent(relative).path
      guard let handle = FileHandle(forReadingAtPath: path) else { continue }
      let head = (try? handle.read(upToCount: 10)) ?? Data()
      try? handle.close()
      if NIBArchive.isNIBArchive(head) { result.append(path) }
    }
    return result.sorted()
  }()

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyAppleNibReadsAndWritesBackByteForByte() throws {
    #expect(Self.nibFiles.count >= 150)
    var identical = 0
    var objects = 0
    for path in Self.nibFiles {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      let nib = try NIBArchive(contentsOfFile: path)
      objects += nib.objects.count
      #expect(nib.className(of: 0) == "NSObject", "\(path): object 0 is the root NSObject")
      let written = nib.encoded()
      if written == bytes { identical += 1 } else { Issue.record("\(path): written bytes differ") }
      #expect(try NIBArchive(bytes: written) == nib)
    }
    print("NIBArchive: \(Self.nibFiles.count) Apple nibs (\(objects) objects) read; \(identical) written back byte-identical")
  }

  static let pythonAvailable = PythonModule.isAvailable("nibarchive")

  /// The same tables as the canonical lines the oracle prints.
  static func dump(_ nib: NIBArchive) -> [String] {
    func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
    var lines: [String] = []
    for object in nib.objects { lines.append("o \(object.classIndex) \(object.firstValue) \(object.valueCount)") }
    for key in nib.keys { lines.append("k " + hex(key.utf8)) }
    for value in nib.values {
      let payload: String
      switch value.payload {
      case .int8(let v): payload = "0 \(v)"
      case .int16(let v): payload = "1 \(v)"
      case .int32(let v): payload = "2 \(v)"
      case .int64(let v): payload = "3 \(v)"
      case .float32(let v): payload = "6 " + hex(withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) })
      case .float64(let v): payload = "7 " + hex(withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) })
      case .data(let bytes):
        if NIBArchive.isNIBArchive(bytes), let nested = try? NIBArchive(bytes: bytes) {
          payload = "8 nib \(nested.objects.count) \(nested.keys.count) \(nested.values.count) \(nested.classNames.count)"
        } else {
          payload = "8 " + hex(bytes)
        }
      case .object(let index): payload = "10 \(index)"
      default: payload = "\(value.payload.typeByte)"
      }
      lines.append("v \(value.keyIndex) \(payload)")
    }
    for className in nib.classNames {
      lines.append("c " + hex(className.name.utf8) + " " + className.fallbacks.map(String.init).joined(separator: ","))
    }
    return lines
  }

  @Test(.enabled(if: Corpus.isAvailable && pythonAvailable, "needs the corpus and python3 with nibarchive (pip install nibarchive)"))
  func tablesAgreeWithThePythonReader() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/nibarchive_dump.py").path,
    ]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(Self.nibFiles.joined(separator: "\n").utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var expected: [String: [String]] = [:]
    var current = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
      if line.hasPrefix("== ") { current = String(line.dropFirst(3)) } else { expected[current, default: []].append(String(line)) }
    }
    var compared = 0
    for path in Self.nibFiles {
      let ours = Self.dump(try NIBArchive(contentsOfFile: path))
      let theirs = expected[path] ?? []
      compared += ours.count
      if ours != theirs {
        let index = (0..<min(ours.count, theirs.count)).first { ours[$0] != theirs[$0] } ?? min(ours.count, theirs.count)
        Issue.record("\(path): entry \(index): Stasis \(index < ours.count ? ours[index] : "—"), nibarchive \(index < theirs.count ? theirs[index] : "—")")
      }
    }
    print("NIBArchive vs the Python nibarchive package: \(Self.nibFiles.count) files, \(compared) table entries compared")
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func hostileVariantsAreTypedErrors() throws {
    var random = SplitMix64(seed: 0x4E49_4241)
    var rejected = 0, accepted = 0
    for path in Self.nibFiles.prefix(40) {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      // Every 7th strict prefix.
      for length in stride(from: 0, to: bytes.count, by: 7) {
        do {
          let nib = try NIBArchive(bytes: Array(bytes.prefix(length)))
          accepted += 1
          _ = nib.encoded()
        } catch {
          rejected += 1
          #expect(error.offset != nil || error.code == .notANib || error.code == .limitExceeded, "\(error)")
        }
      }
      // 50 seeded corruptions of 1–4 bytes each.
      for _ in 0..<50 {
        var damaged = bytes
        for _ in 0...(random.next() % 4) { damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next()) }
        do {
          _ = try NIBArchive(bytes: damaged).encoded()
          accepted += 1
        } catch {
          rejected += 1
        }
      }
    }
    print("NIBArchive hostile variants: \(rejected) rejected with typed errors, \(accepted) read")
    #expect(rejected > 0)
  }

  @Test func varintsFollowAppleNotLEB128() throws {
    var bytes: [UInt8] = []
    NIBArchive.appendVarint(5, to: &bytes)
    NIBArchive.appendVarint(0, to: &bytes)
    NIBArchive.appendVarint(300, to: &bytes)
    #expect(bytes == [0x85, 0x80, 0x2C, 0x82])
    try bytes.withUnsafeBufferPointer { (buffer) throws in
      var reader = NIBReader(bytes: buffer)
      #expect(try reader.varint() == 5)
      #expect(try reader.varint() == 0)
      #expect(try reader.varint() == 300)
      #expect(throws: InterfaceError.self) { try reader.varint() }
    }
    // Five bytes at most: a sixth is corrupt, and a varint cut by the end is truncated.
    try ([0x01, 0x01, 0x01, 0x01, 0x01, 0x81] as [UInt8]).withUnsafeBufferPointer { (buffer) throws in
      var reader = NIBReader(bytes: buffer)
      #expect(throws: InterfaceError.self) { try reader.varint() }
    }
    try ([0x01, 0x01] as [UInt8]).withUnsafeBufferPointer { (buffer) throws in
      var reader = NIBReader(bytes: buffer)
      let error = try #require(throws: InterfaceError.self) { try reader.varint() }
      #expect(error.code == .truncated)
    }
  }

  @Test func aHandBuiltNibRoundTrips() throws {
    let nib = NIBArchive(
      objects: [NIBArchive.Object(classIndex: 0, firstValue: 0, valueCount: 3)],
      keys: ["UINibTopLevelObjectsKey", "flag", "size"],
      values: [
        .init(keyIndex: 0, payload: .object(0)), .init(keyIndex: 1, payload: .bool(true)),
        .init(keyIndex: 2, payload: .float64(-0.0)),
      ],
      classNames: [NIBArchive.ClassName(name: "NSObject")])
    let bytes = nib.encoded()
    #expect(Array(bytes.prefix(10)) == NIBArchive.magic)
    #expect(try NIBArchive(bytes: bytes) == nib)
    expectError(InterfaceError.self, .notANib) { try NIBArchive(bytes: Array("bplist00".utf8)) }
    expectError(InterfaceError.self, .truncated) { try NIBArchive(bytes: Array(bytes.prefix(30))) }
  }
}

/// The semantic comparer (`ibtool --compare`'s engine) on Apple's nibs.
@Suite("NIBArchive: semantic comparison")
struct NIBArchiveComparisonTests {
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func aNibEqualsItselfWithItsTablesReordered() throws {
    for path in NIBArchiveTests.nibFiles.prefix(60) {
      let nib = try NIBArchive(contentsOfFile: path)
      #expect(nib.firstDifference(from: nib) == nil)
      // The same graph with the objects table reversed (object 0 stays first) and the keys and
      // class names tables reversed: every index remapped, nothing else changed.
      let reordered = Self.reordered(nib)
      #expect(reordered.encoded() != nib.encoded() || nib.objects.count < 3)
      #expect(nib.firstDifference(from: reordered) == nil, "\(path): \(nib.firstDifference(from: reordered) ?? "")")
    }
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func aChangedValueIsFoundAndNamed() throws {
    var random = SplitMix64(seed: 0x434F_4D50)
    var found = 0
    for path in NIBArchiveTests.nibFiles.prefix(60) {
      let nib = try NIBArchive(contentsOfFile: path)
      guard let index = nib.values.indices.filter({ if case .int8 = nib.values[$0].payload { true } else { false } }).randomElement(using: &random)
      else { continue }
      var changed = nib
      if case .int8(let v) = nib.values[index].payload { changed.values[index].payload = .int16(Int16(v)) }
      // Only values reachable from the root can differ; Apple's nibs reach every object.
      if let difference = nib.firstDifference(from: changed) {
        found += 1
        #expect(difference.contains("int8") && difference.contains("int16"), "\(difference)")
      }
    }
    #expect(found > 10)
  }

  /// `nib` with its objects (after the root), keys and class names in reverse table order.
  static func reordered(_ nib: NIBArchive) -> NIBArchive {
    let objectCount = nib.objects.count
    func objectMap(_ index: Int) -> Int { index == 0 ? 0 : objectCount - index }
    let keyMap = { (index: Int) in nib.keys.count - 1 - index }
    let classMap = { (index: Int) in nib.classNames.count - 1 - index }
    var result = NIBArchive(formatVersion: nib.formatVersion, coderVersion: nib.coderVersion)
    result.keys = nib.keys.reversed()
    result.classNames = nib.classNames.reversed().map { NIBArchive.ClassName(name: $0.name, fallbacks: $0.fallbacks.map { Int32(classMap(Int($0))) }) }
    var order = [0] + Array((1..<max(objectCount, 1)).reversed())
    if objectCount == 0 { order = [] }
    for oldIndex in order {
      let object = nib.objects[oldIndex]
      let first = result.values.count
      for value in nib.values[object.firstValue..<(object.firstValue + object.valueCount)] {
        var payload = value.payload
        if case .object(let target) = payload { payload = .object(objectMap(target)) }
        result.values.append(NIBArchive.Value(keyIndex: keyMap(value.keyIndex), payload: payload))
      }
      result.objects.append(NIBArchive.Object(classIndex: classMap(object.classIndex), firstValue: first, valueCount: object.valueCount))
    }
    return result
  }
}

@Suite("NIBArchive: readable listing")
struct NIBArchiveDumpTests {
  @Test func aSmallNibIsListedExactly() throws {
    let nib = NIBArchive(
      objects: [
        .init(classIndex: 0, firstValue: 0, valueCount: 1), .init(classIndex: 1, firstValue: 1, valueCount: 3),
        .init(classIndex: 2, firstValue: 4, valueCount: 3), .init(classIndex: 3, firstValue: 7, valueCount: 1),
      ],
      keys: ["UINibTopLevelObjectsKey", "NSInlinedValue", "UINibEncoderEmptyKey", "UITag", "UISelf", "NS.bytes", "UILabel"],
      values: [
        .init(keyIndex: 0, payload: .object(1)),
        .init(keyIndex: 1, payload: .bool(true)), .init(keyIndex: 2, payload: .object(2)), .init(keyIndex: 2, payload: .object(2)),
        .init(keyIndex: 3, payload: .int8(7)), .init(keyIndex: 4, payload: .object(2)), .init(keyIndex: 6, payload: .object(3)),
        .init(keyIndex: 5, payload: .data(Array("Hi".utf8))),
      ],
      classNames: [.init(name: "NSObject"), .init(name: "NSArray"), .init(name: "UIView"), .init(name: "NSString")])
    #expect(
      nib.dump() == """
        #0 NSObject
          UINibTopLevelObjectsKey = #1 NSArray [2]
            [0] = #2 UIView
              UITag = int8 7
              UISelf = #2 UIView ↺
              UILabel = "Hi"
            [1] = #2 UIView ↺

        """)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyCorpusNibIsListed() throws {
    var lines = 0
    for path in NIBArchiveTests.nibFiles {
      let listing = try NIBArchive(contentsOfFile: path).dump()
      #expect(listing.hasPrefix("#0 NSObject\n"), "\(path)")
      #expect(listing.contains("UINibTopLevelObjectsKey") || listing.contains("NSObjectsKeys") || listing.contains("UINibObjectsKey"), "\(path)")
      lines += listing.split(separator: "\n").count
    }
    print("NIBArchive listings: \(NIBArchiveTests.nibFiles.count) nibs, \(lines) lines")
    if let first = NIBArchiveTests.nibFiles.first(where: { $0.hasSuffix("numfmt.nib") }) {
      print(try NIBArchive(contentsOfFile: first).dump().split(separator: "\n").prefix(24).joined(separator: "\n"))
    }
  }
}
