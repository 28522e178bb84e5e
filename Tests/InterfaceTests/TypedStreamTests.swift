import Foundation
import Testing
import TestSupport

import Interface

/// Builds a typedstream by hand, byte by byte, for one tag or type at a time.
struct StreamBytes {
  var bytes: [UInt8]

  /// The header: streamer version 4, the signature of `order`, system version 1000 (`81 e8 03`,
  /// or `81 03 e8` big-endian).
  init(_ order: TypedStream.ByteOrder = .littleEndian) {
    bytes = [4, 11] + Array((order == .littleEndian ? "streamtyped" : "typedstream").utf8)
    bytes += order == .littleEndian ? [0x81, 0xE8, 0x03] : [0x81, 0x03, 0xE8]
  }

  /// A new shared string (`84`, length, bytes).
  mutating func newString(_ text: String) { bytes += [0x84, UInt8(text.utf8.count)] + Array(text.utf8) }
  mutating func add(_ more: [UInt8]) { bytes += more }
}

@Suite("typedstream reader")
struct TypedStreamTests {
  static let modelNib = "nib/gnustep_model_test.nib/objects.nib"

  // MARK: - The corpus's nib

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theOpenStepNibReads() throws {
    let stream = try TypedStream(contentsOfFile: Corpus.file(Self.modelNib).path)
    #expect(stream.streamerVersion == 4 && stream.systemVersion == 1000 && stream.byteOrder == .littleEndian)
    #expect(stream.objects.count == 172)
    #expect(stream.classes.count == 30)
    #expect(stream.groups.count == 1 && stream.groups[0].encoding == "@")
    let root = try #require(stream.rootObject)
    #expect(stream.classChain(ofObject: root) == ["NSIBObjectData", "NSObject"])
    #expect(stream.classes[stream.objects[root].classIndex].version == 24)
    // The first button: its class chain with the versions NeXT's classes had.
    let button = try #require(stream.objects.indices.first { stream.className(ofObject: $0) == "NSButton" })
    #expect(stream.classChain(ofObject: button) == ["NSButton", "NSControl", "NSView", "NSResponder", "NSObject"])
    var versions: [Int] = []
    var next: Int? = stream.objects[button].classIndex
    while let index = next { versions.append(stream.classes[index].version); next = stream.classes[index].superclass }
    #expect(versions == [0, 41, 41, 0, 0])
    // NSView's frame and bounds: the group "@@@@ffffffff", integral floats written as integers.
    let frame = try #require(stream.objects[button].groups.first { $0.encoding == "@@@@ffffffff" })
    #expect(Array(frame.values.suffix(8)) == [16, 22, 114, 24, 0, 0, 114, 24].map { TypedStream.Value.float($0) })
    // The File's Owner: an NSCustomObject of class NSApplication.
    guard case .object(let owner?) = stream.objects[root].groups[0].values[0] else {
      Issue.record("NSIBObjectData's first group is its root")
      return
    }
    #expect(stream.className(ofObject: owner) == "NSCustomObject")
    guard case .object(let name?) = stream.objects[owner].groups[0].values[0] else {
      Issue.record("NSCustomObject's first value is its class name")
      return
    }
    #expect(stream.objects[name].groups == [TypedStream.Group(encoding: "+", values: [.string(Array("NSApplication".utf8))])])
    // A float written with the 0x83 tag: NSColor's grey, 2/3.
    let floats = stream.objects.flatMap(\.groups).filter { $0.encoding == "ff" }.flatMap(\.values)
    #expect(floats.contains(.float(Float(bitPattern: 0x3F2A_AAAB))))
    // The font's name, a [20c] byte array.
    #expect(stream.objects.flatMap(\.groups).contains { group in
      if case .bytes(let bytes, let type) = group.values.first { return type == UInt8(ascii: "c") && bytes.count == 20 }
      return false
    })
    // Selectors are shared strings.
    #expect(stream.objects.flatMap(\.groups).flatMap(\.values).contains(.selector("submenuAction:")))
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theOpenStepNibIsANib() throws {
    let path = Corpus.file("nib/gnustep_model_test.nib").path
    guard case .typedStream(let stream) = try CompiledNib(contentsOf: path) else {
      Issue.record("gnustep_model_test.nib is a typedstream nib")
      return
    }
    let graph = try NibGraph(typedStream: stream, path: path)
    #expect(graph.isTypedStreamNib)
    let connections = graph.connectionsListing()
    print(connections)
    #expect(connections.split(separator: "\n").count == 11)
    #expect(connections.contains("NSNibOutletConnector \"textField\": #141 NSCustomObject Controller → #50 NSTextField"))
    #expect(connections.contains("NSNibControlConnector \"terminate:\""))
    let hierarchy = graph.hierarchyListing()
    print(hierarchy)
    #expect(hierarchy.hasPrefix("#2 NSCustomObject NSApplication\n"))
    #expect(hierarchy.contains("  #145 NSWindowTemplate\n    #5 NSView\n      #4 NSButton"))
    #expect(graph.classesListing().contains("NSMenuItem"))
    // Written as a NIBArchive and read back unchanged; its readable dump (ibtool --print-objects)
    // shows the positional values and the keys given for the loader.
    let written = NIBArchive(graph)
    let dump = written.dump()
    #expect(dump.contains("NSClassName = \"NSApplication\""))
    #expect(dump.contains("2.4 = float32 16.0"))
    #expect(try NIBArchive(bytes: written.encoded()).firstDifference(from: written) == nil)
  }

  // MARK: - Hand-made streams, one tag or type at a time

  @Test func integersTakeTheirTags() throws {
    var stream = StreamBytes()
    stream.newString("isiIi")  // one group of five integers
    stream.add([
      0x7F,  // i: 127, a byte
      0x81, 0x34, 0x12,  // s: 0x81, then 2 bytes little-endian: 0x1234
      0x82, 0x78, 0x56, 0x34, 0x12,  // i: 0x82, then 4 bytes: 0x12345678
      0x82, 0xFF, 0xFF, 0xFF, 0xFF,  // I: 4 bytes, unsigned: 0xFFFFFFFF
      0x81, 0x80, 0x00,  // i: 128 cannot be one byte (it would read as a tag)
    ])
    let read = try TypedStream(bytes: stream.bytes)
    #expect(read.systemVersion == 1000)
    #expect(
      read.groups[0].values == [
        .signed(127, type: UInt8(ascii: "i")), .signed(0x1234, type: UInt8(ascii: "s")), .signed(0x1234_5678, type: UInt8(ascii: "i")),
        .unsigned(0xFFFF_FFFF, type: UInt8(ascii: "I")), .signed(128, type: UInt8(ascii: "i")),
      ])
  }

  @Test func bigEndianStreamsReadTheirWay() throws {
    var stream = StreamBytes(.bigEndian)
    stream.newString("sfd")
    stream.add([0x81, 0x12, 0x34])  // s: 0x1234 big-endian
    stream.add([0x83, 0x3F, 0xC0, 0x00, 0x00])  // f: 0x83, then 1.5 big-endian
    stream.add([0x83, 0x40, 0x09, 0x21, 0xFB, 0x54, 0x44, 0x2D, 0x18])  // d: pi
    let read = try TypedStream(bytes: stream.bytes)
    #expect(read.byteOrder == .bigEndian && read.systemVersion == 1000)
    #expect(read.groups[0].values == [.signed(0x1234, type: UInt8(ascii: "s")), .float(1.5), .double(Double.pi)])
  }

  @Test func charsBoolsAndByteArraysAreRaw() throws {
    var stream = StreamBytes()
    stream.newString("cCB[3C]!")
    stream.add([0x85, 0x86, 0x01, 0x84, 0x85, 0x86])  // c −123, C 134 (no tags), B true, three raw bytes; "!" stores nothing
    let read = try TypedStream(bytes: stream.bytes)
    #expect(
      read.groups[0].values == [
        .signed(-123, type: UInt8(ascii: "c")), .unsigned(134, type: UInt8(ascii: "C")), .bool(true),
        .bytes([0x84, 0x85, 0x86], type: UInt8(ascii: "C")), .ignored,
      ])
  }

  @Test func arraysAndStructuresReadTheirElements() throws {
    var stream = StreamBytes()
    stream.newString("[2s]{NSPoint=ff}{?=}")
    stream.add([0x01, 0x81, 0x00, 0x01, 0x02, 0x83, 0x00, 0x00, 0xC0, 0x3F])  // 1, 256; then 2.0 (an integer) and 1.5 (0x83)
    let read = try TypedStream(bytes: stream.bytes)
    #expect(
      read.groups[0].values == [
        .array([.signed(1, type: UInt8(ascii: "s")), .signed(256, type: UInt8(ascii: "s"))]),
        .structure(name: "NSPoint", fields: [.float(2), .float(1.5)]), .structure(name: nil, fields: []),
      ])
  }

  @Test func stringsSelectorsAndCStringsShareTheirTables() throws {
    var stream = StreamBytes()
    stream.newString("+:*")  // shared string #0 (0x92)
    stream.add([0x03] + Array("abc".utf8))  // +: an unshared counted string
    stream.newString("go:")  // :: a new shared string, #1 (0x93)
    stream.add([0x84]); stream.newString("cs")  // *: a new C string (object table #0), its text shared string #2
    stream.add([0x92])  // the next group's encoding: shared string #0 again, "+:*"
    stream.add([0x85, 0x93, 0x92])  // + nil, the selector #1 again, the C string object #0 again
    let read = try TypedStream(bytes: stream.bytes)
    #expect(read.groups.count == 2 && read.groups[1].encoding == "+:*")
    #expect(read.groups[0].values == [.string(Array("abc".utf8)), .selector("go:"), .cString(Array("cs".utf8))])
    #expect(read.groups[1].values == [.string(nil), .selector("go:"), .cString(Array("cs".utf8))])
  }

  /// Objects and classes: new ones numbered as met (the object before its classes), ended by
  /// 0x86, referred back to (a cycle: the object holds itself), nil, and `#` values.
  @Test func objectsAndClassesAreNumberedAsMet() throws {
    var stream = StreamBytes()
    stream.newString("@")  // string #0
    stream.add([0x84])  // a new object: object table #0
    stream.add([0x84]); stream.newString("Child")  // its class, new: table #1, name string #1
    stream.add([0x03])  // version 3
    stream.add([0x84]); stream.newString("Root")  // superclass, new: table #2, string #2
    stream.add([0x00, 0x85])  // version 0, then nil: a root class
    stream.newString("@#@")  // the object's one group (string #3): itself, its superclass, nil
    stream.add([0x92, 0x94, 0x85])
    stream.add([0x86])  // end of the object
    stream.add([0x95, 0x92, 0x93, 0x84, 0x94, 0x86])  // "@#@" again: the object, class Child, a new object of class Root, no groups
    let read = try TypedStream(bytes: stream.bytes)
    #expect(read.classes == [.init(name: "Child", version: 3, superclass: 1), .init(name: "Root", version: 0)])
    #expect(read.objects.count == 2)
    #expect(read.objects[0].groups == [.init(encoding: "@#@", values: [.object(0), .class(1), .object(nil)])])
    #expect(read.groups[1].values == [.object(0), .class(0), .object(1)])
    #expect(read.objects[1] == .init(classIndex: 1, groups: []))
    #expect(read.classChain(ofObject: 0) == ["Child", "Root"])
  }

  /// A stream made in code may break what the reader guarantees (groups shorter than their
  /// encodings, references past the tables): the graph leaves those values out or null.
  @Test func aHandMadeModelConvertsWithoutTrapping() throws {
    let stream = TypedStream(
      classes: [.init(name: "NSIBObjectData", version: 24), .init(name: "NSCustomObject", version: 41)],
      objects: [
        .init(classIndex: 0, groups: [.init(encoding: "@", values: []), .init(encoding: "i", values: [.signed(5, type: UInt8(ascii: "i"))])]),
        .init(classIndex: 1, groups: [.init(encoding: "@@", values: [.object(99)])]),
      ],
      groups: [.init(encoding: "@", values: [.object(0)])])
    let graph = try NibGraph(typedStream: stream)
    #expect(graph.isTypedStreamNib && graph.objects.count == 3)
    #expect(graph[2]["0.0"] == .null && graph[2]["NSClassName"] == .null)
    #expect(graph[1]["NSRoot"] == nil)
  }

  // MARK: - Damage

  /// One hand-made damage per check: each must throw its code, naming the byte.
  @Test(arguments: [
    ([0x04, 0x0B] + Array("streamtypes".utf8), InterfaceError.Code.notANib, 0, "a wrong signature"),
    ([0x03, 0x0B] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03], .notANib, 0, "streamer version 3"),
    (Array(StreamBytes().bytes.prefix(14)), .truncated, 14, "the system version cut"),
    (StreamBytes().bytes + [0x84, 0x02, 0x40], .truncated, 17, "a shared string longer than what is left"),
    (StreamBytes().bytes + [0x92], .corrupt, 16, "a reference to a shared string never read"),
    (StreamBytes().bytes + [0x85], .corrupt, 16, "a nil encoding"),
    (StreamBytes().bytes + [0x84, 0x01, 0x5E, 0x00], .corrupt, 16, "a pointer type (^), which typedstreams cannot hold"),
    (StreamBytes().bytes + [0x84, 0x03, 0x5B, 0x32, 0x69], .corrupt, 16, "an unclosed array encoding"),
    (StreamBytes().bytes + [0x84, 0x01, 0x69, 0x83], .corrupt, 19, "the float tag where an integer is"),
    (StreamBytes().bytes + [0x84, 0x01, 0x40, 0x84, 0x85], .corrupt, 20, "an object whose class is nil"),
    (StreamBytes().bytes + [0x84, 0x01, 0x40, 0x93], .corrupt, 19, "a reference to an object never read"),
    (StreamBytes().bytes + [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x01, 0x41, 0x00, 0x93], .corrupt, 25, "a class that is its own superclass"),
    (StreamBytes().bytes + [0x84, 0x01, 0x40, 0x84, 0x92], .corrupt, 20, "an object that refers to itself as its class"),
    (StreamBytes().bytes + [0x84, 0x01, 0x42, 0x02], .corrupt, 19, "a bool of 2"),
    (StreamBytes().bytes + [0x84, 0x01, 0x40, 0x84, 0x84, 0x84, 0x01, 0x41, 0x00, 0x85], .truncated, 26, "an object without its end marker"),
  ] as [([UInt8], InterfaceError.Code, Int, String)])
  func damageIsNamed(_ bytes: [UInt8], _ code: InterfaceError.Code, _ offset: Int, _ what: String) {
    let error = expectError(InterfaceError.self, code, "\(what)") { try TypedStream(bytes: bytes, path: "hand.nib") }
    #expect(error?.offset == offset, "\(what): \(error.map(String.init(describing:)) ?? "")")
    #expect(error?.description.hasPrefix("hand.nib: ") == true)
  }

  @Test func limitsHold() {
    // Objects nested 10 deep, with a depth limit of 4.
    var nested = StreamBytes()
    nested.newString("@")  // #0
    nested.add([0x84, 0x84]); nested.newString("A"); nested.add([0x00, 0x85])  // object of new class A (string #1)
    for _ in 0..<10 { nested.add([0x92, 0x84, 0x93]) }  // "@", a new object of class A (object table #1 is class A)
    expectError(InterfaceError.self, .limitExceeded) { try TypedStream(bytes: nested.bytes, limits: .init(maximumDepth: 4)) }
    // Arrays and objects share the depth budget: an array holding an object whose group is an
    // array again is three levels.
    var mixed = StreamBytes()
    mixed.newString("[1@]")  // string #0
    mixed.add([0x84, 0x84]); mixed.newString("A"); mixed.add([0x00, 0x85])  // a new object of new class A (string #1)
    mixed.add([0x92, 0x85, 0x86])  // its group "[1@]": nil; the end
    #expect(throws: Never.self) { try TypedStream(bytes: mixed.bytes, limits: .init(maximumDepth: 3)) }
    let error = expectError(InterfaceError.self, .limitExceeded) { try TypedStream(bytes: mixed.bytes, limits: .init(maximumDepth: 2)) }
    #expect(error?.offset == 30)
    // A billion ignored fields read nothing, but count against the value limit.
    var ignored = StreamBytes()
    ignored.newString("[1000000000!]")
    expectError(InterfaceError.self, .limitExceeded) { try TypedStream(bytes: ignored.bytes) }
    // A byte array longer than the stream is refused before it is read.
    var long = StreamBytes()
    long.newString("[99999c]")
    expectError(InterfaceError.self, .truncated) { try TypedStream(bytes: long.bytes) }
    // The byte limit.
    expectError(InterfaceError.self, .limitExceeded) { try TypedStream(bytes: StreamBytes().bytes, limits: .init(maximumByteCount: 8)) }
  }

  /// Every prefix of the real nib throws a typed error (the 16-byte header alone is an empty
  /// stream, which is no nib).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyPrefixOfTheNibIsRefused() throws {
    let bytes = try [UInt8](Data(contentsOf: Corpus.file(Self.modelNib).url))
    for length in 0..<bytes.count {
      do {
        let stream = try TypedStream(bytes: Array(bytes.prefix(length)))
        #expect(length == 16 && stream.groups.isEmpty, "cut to \(length) bytes")
        expectError(InterfaceError.self, .corrupt) { try NibGraph(typedStream: stream) }
      } catch {
        #expect(error.code == .truncated || error.code == .notANib, "cut to \(length) bytes: \(error)")
      }
    }
  }

  /// Seeded byte flips of the real nib: each reads or throws a typed error; what reads becomes a
  /// graph, listings and a NIBArchive without a crash.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: 0..<8 as Range<UInt64>)
  func flippedBytesNeverCrash(seed: UInt64) throws {
    let original = try [UInt8](Data(contentsOf: Corpus.file(Self.modelNib).url))
    var random = SplitMix64(seed: seed)
    var read = 0
    for round in 0..<400 {
      var bytes = original
      for _ in 0...(round % 3) {
        let at = Int.random(in: 0..<bytes.count, using: &random)
        bytes[at] = round % 2 == 0 ? UInt8.random(in: 0...255, using: &random) : bytes[at] ^ (1 << UInt8.random(in: 0...7, using: &random))
      }
      do {
        let stream = try TypedStream(bytes: bytes, limits: .init(maximumDepth: 64, maximumValueCount: 1 << 16))
        read += 1
        guard let graph = try? NibGraph(typedStream: stream) else { continue }
        _ = graph.hierarchyListing() + graph.connectionsListing() + graph.classesListing()
        _ = NIBArchive(graph).encoded()
      } catch {
        _ = error.description  // a typed InterfaceError, by the signature
      }
    }
    print("seed \(seed): \(read) of 400 damaged copies still read")
  }
}
