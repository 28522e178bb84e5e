import Foundation
import Testing
import TestSupport

@testable import PropertyLists

// Errors: each case is run through Foundation's decoder (on bytes Foundation's own
// PropertyListSerialization wrote, binary) and through Stasis's (on the same tree), and the two
// errors must agree on kind, type, coding path and debug description.

/// One line naming everything that must agree between the two decoders' errors.
func decodingErrorSummary(_ error: any Error) -> String {
  func path(_ keys: [any CodingKey]) -> String {
    keys.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }.joined(separator: "/")
  }
  guard let error = error as? DecodingError else { return "not a DecodingError: \(error)" }
  switch error {
  case .typeMismatch(let type, let context):
    return "typeMismatch(\(type)) at [\(path(context.codingPath))]: \(context.debugDescription)"
  case .valueNotFound(let type, let context):
    return "valueNotFound(\(type)) at [\(path(context.codingPath))]: \(context.debugDescription)"
  case .keyNotFound(let key, let context):
    return "keyNotFound(\(key.stringValue)) at [\(path(context.codingPath))]: \(context.debugDescription)"
  case .dataCorrupted(let context):
    return "dataCorrupted at [\(path(context.codingPath))]: \(context.debugDescription)"
  @unknown default:
    return "unknown DecodingError \(error)"
  }
}

/// A decoding that should fail: the document and what is asked of it.
struct FailingDecode: CustomTestStringConvertible, Sendable {
  let name: String
  let document: PropertyListValue
  let foundation: @Sendable (Data) throws -> Void
  let stasis: @Sendable (PropertyListValue) throws -> Void
  let stasisFromBytes: @Sendable (Data) throws -> Void
  /// The summary both must produce (checked so that agreement is not agreement on nonsense).
  let expected: String

  var testDescription: String { name }

  init<T: Decodable & SendableMetatype>(_ name: String, _ type: T.Type, _ document: PropertyListValue, _ expected: String) {
    self.name = name
    self.document = document
    foundation = { _ = try FoundationDecoder().decode(T.self, from: $0) }
    stasis = { _ = try StasisDecoder().decode(T.self, from: $0) }
    stasisFromBytes = { _ = try StasisDecoder().decode(T.self, from: $0) }
    self.expected = expected
  }
}

/// Reads two integers from an unkeyed container.
struct TwoInts: Decodable {
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    _ = try container.decode(Int.self)
    _ = try container.decode(Int.self)
  }
}

/// Asks for `decodeNil()` past the end.
struct NilPastEnd: Decodable {
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    _ = try container.decodeNil()
  }
}

/// Asks for a nested unkeyed container past the end.
struct NestedPastEnd: Decodable {
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    _ = try container.nestedUnkeyedContainer()
  }
}

/// Asks for a nested keyed container under a key that is missing.
struct NestedMissing: Decodable {
  enum Keys: CodingKey { case inner }
  init(from decoder: any Decoder) throws {
    _ = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: Keys.self, forKey: .inner)
  }
}

/// Checks `decodeIfPresent` at the end of an unkeyed container (nil, not an error) and
/// `decodeNil(forKey:)` for a missing key (an error).
struct CodableQuirks: Decodable {
  enum Keys: CodingKey { case list, missing }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    var list = try container.nestedUnkeyedContainer(forKey: .list)
    guard try list.decodeIfPresent(Int.self) == 1, try list.decodeIfPresent(Int.self) == nil,
      try list.decodeIfPresent(Int.self) == nil, list.isAtEnd
    else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "decodeIfPresent misbehaved"))
    }
    _ = try container.decodeNil(forKey: .missing)
  }
}

struct DeepOuter: Codable { var inner: DeepInner }
struct DeepInner: Codable { var list: [Int8] }

@Suite("Codable errors match Foundation's")
struct CodableErrorTests {
  static let cases: [FailingDecode] = [
    FailingDecode(
      "Int8 overflow", CodableWrapped<Int8>.self, ["v": 300],
      "dataCorrupted at [v]: Parsed property list number <300> does not fit in Int8."),
    FailingDecode(
      "negative into UInt8", CodableWrapped<UInt8>.self, ["v": -1],
      "dataCorrupted at [v]: Parsed property list number <-1> does not fit in UInt8."),
    FailingDecode(
      "negative into UInt64", CodableWrapped<UInt64>.self, ["v": -1],
      "dataCorrupted at [v]: Parsed property list number <-1> does not fit in UInt64."),
    FailingDecode(
      "UInt64.max into Int64", CodableWrapped<Int64>.self, ["v": .integer(PropertyListInteger(UInt64.max))],
      "dataCorrupted at [v]: Parsed property list number <18446744073709551615> does not fit in Int64."),
    FailingDecode(
      "fraction into Int", CodableWrapped<Int>.self, ["v": 3.5],
      "dataCorrupted at [v]: Property list number <3.5> does not fit in Int."),
    FailingDecode(
      "huge real into Int", CodableWrapped<Int>.self, ["v": 1e20],
      "dataCorrupted at [v]: Property list number <1e+20> does not fit in Int."),
    FailingDecode(
      "NaN into Int", CodableWrapped<Int>.self, ["v": .real(.nan)],
      "dataCorrupted at [v]: Property list number <nan> does not fit in Int."),
    FailingDecode(
      "inexact double into Float", CodableWrapped<Float>.self, ["v": 0.1],
      "dataCorrupted at [v]: Property list number <0.1> does not fit in Float."),
    FailingDecode(
      "string into Int", CodableWrapped<Int>.self, ["v": "3"],
      "typeMismatch(Int) at [v]: Expected to decode Int but found a string instead."),
    FailingDecode(
      "integer into Bool", CodableWrapped<Bool>.self, ["v": 1],
      "typeMismatch(Bool) at [v]: Expected to decode Bool but found an integer instead."),
    FailingDecode(
      "real into Bool", CodableWrapped<Bool>.self, ["v": 1.5],
      "typeMismatch(Bool) at [v]: Expected to decode Bool but found a real number instead."),
    FailingDecode(
      "integer into String", CodableWrapped<String>.self, ["v": 1],
      "typeMismatch(String) at [v]: Expected to decode String but found an integer instead."),
    FailingDecode(
      "string into Date", CodableWrapped<Date>.self, ["v": "2001-01-01"],
      "typeMismatch(Date) at [v]: Expected to decode Date but found a string instead."),
    FailingDecode(
      "boolean into Data", CodableWrapped<Data>.self, ["v": true],
      "typeMismatch(Data) at [v]: Expected to decode Data but found a boolean instead."),
    FailingDecode(
      "date into Double", CodableWrapped<Double>.self, ["v": .date(Date(timeIntervalSinceReferenceDate: 0))],
      "typeMismatch(Double) at [v]: Expected to decode Double but found a date instead."),
    FailingDecode(
      "data into Int", CodableWrapped<Int>.self, ["v": .data(Data([1]))],
      "typeMismatch(Int) at [v]: Expected to decode Int but found a data value instead."),
    FailingDecode(
      "dictionary into Int", Int.self, ["v": 1],
      "typeMismatch(Int) at []: Expected to decode Int but found a dictionary instead."),
    FailingDecode(
      "string into URL", CodableWrapped<URL>.self, ["v": "https://example.com"],
      "typeMismatch(Dictionary<String, Any>) at [v]: Expected to decode Dictionary<String, Any> but found a string instead."),
    FailingDecode(
      "null into String", CodableWrapped<String>.self, ["v": "$null"],
      "valueNotFound(String) at [v]: Cannot get value of String -- found null value instead"),
    FailingDecode(
      "null into Int", CodableWrapped<Int>.self, ["v": "$null"],
      "valueNotFound(Int) at [v]: Cannot get value of Int -- found null value instead"),
    FailingDecode(
      "null array", CodableWrapped<[Int]>.self, ["v": "$null"],
      "valueNotFound(Array<Any>) at [v]: Cannot get unkeyed decoding container -- found null value instead"),
    FailingDecode(
      "null object in an array", [CodableDog].self, ["$null"],
      "valueNotFound(Dictionary<String, Any>) at [Index 0#0]: Cannot get keyed decoding container -- found null value instead"),
    FailingDecode(
      "missing key", CodableWrapped<Int>.self, [:],
      #"keyNotFound(v) at []: No value associated with key CodingKeys(stringValue: "v", intValue: nil) ("v")."#),
    FailingDecode(
      "missing super", CodableDog.self, ["breed": "collie"],
      "valueNotFound(Dictionary<String, Any>) at [super]: Cannot get keyed decoding container -- found null value instead"),
    FailingDecode(
      "missing super member", CodableDog.self, ["breed": "collie", "super": ["name": "Rex"]],
      #"keyNotFound(legs) at [super]: No value associated with key CodingKeys(stringValue: "legs", intValue: nil) ("legs")."#),
    FailingDecode(
      "array for an object", CodableWrapped<Int>.self, [1],
      "typeMismatch(Dictionary<String, Any>) at []: Expected to decode Dictionary<String, Any> but found an array instead."),
    FailingDecode(
      "object for an array", [Int].self, ["a": 1],
      "typeMismatch(Array<Any>) at []: Expected to decode Array<Any> but found a dictionary instead."),
    FailingDecode(
      "bad element deep inside", DeepOuter.self, ["inner": ["list": [1, 2, 1000]]],
      "dataCorrupted at [inner/list/Index 2#2]: Parsed property list number <1000> does not fit in Int8."),
    FailingDecode(
      "bad dictionary value", [String: [Int]].self, ["k": [1, true]],
      "typeMismatch(Int) at [k/Index 1#1]: Expected to decode Int but found a boolean instead."),
    FailingDecode(
      "bad value under a numeric key", [String: Int].self, ["7": "x"],
      "typeMismatch(Int) at [7#7]: Expected to decode Int but found a string instead."),
    FailingDecode(
      "array for a dictionary", CodableWrapped<[String: Int]>.self, ["v": [1]],
      "typeMismatch(Dictionary<String, Any>) at [v]: Expected to decode Dictionary<String, Any> but found an array instead."),
    FailingDecode(
      "dictionary for an array", CodableWrapped<[Int]>.self, ["v": ["a": 1]],
      "typeMismatch(Array<Any>) at [v]: Expected to decode Array<Any> but found a dictionary instead."),
    FailingDecode(
      "non-integer key", [Int: String].self, ["x": "a"],
      "typeMismatch(Int) at [x]: Expected Int key but found String key instead."),
    FailingDecode(
      "unkeyed container at end", CodableWrapped<TwoInts>.self, ["v": [1]],
      "valueNotFound(Int) at [v/Index 1#1]: Unkeyed container is at end."),
    FailingDecode(
      "decodeNil at end", NilPastEnd.self, [],
      "valueNotFound(Never) at [Index 0#0]: Unkeyed container is at end."),
    FailingDecode(
      "nested container at end", NestedPastEnd.self, [],
      "valueNotFound(UnkeyedDecodingContainer) at [Index 0#0]: Unkeyed container is at end."),
    FailingDecode(
      "nested container for a missing key", NestedMissing.self, [:],
      #"keyNotFound(inner) at []: No value associated with key Keys(stringValue: "inner", intValue: nil) ("inner")."#),
    FailingDecode(
      "decodeIfPresent quirks", CodableQuirks.self, ["list": [1]],
      #"keyNotFound(missing) at []: No value associated with key Keys(stringValue: "missing", intValue: nil) ("missing")."#),
    FailingDecode(
      "enum with an unknown case", [CodableSuit].self, ["clubs"],
      "dataCorrupted at [Index 0#0]: Cannot initialize CodableSuit from invalid String value clubs"),
  ]

  @Test(arguments: cases)
  func decodingErrorMatchesFoundation(_ failing: FailingDecode) throws {
    let bytes = try FoundationPlistBridge.write(failing.document, xml: false)
    let theirs = #expect(throws: (any Error).self) { try failing.foundation(bytes) }
    let ours = #expect(throws: (any Error).self) { try failing.stasis(failing.document) }
    guard let theirs, let ours else { return }
    #expect(decodingErrorSummary(ours) == decodingErrorSummary(theirs))
    #expect(decodingErrorSummary(ours) == failing.expected)
  }

  /// A keyed-archiver UID is a value of its own that no Swift type decodes from.
  @Test func uidsAreNotDecodable() throws {
    let xml = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array><dict><key>CF$UID</key><integer>1</integer></dict></array></plist>
      """.utf8)
    let theirs = #expect(throws: DecodingError.self) { try FoundationDecoder().decode([Int].self, from: xml) }
    let ours = #expect(throws: DecodingError.self) { try StasisDecoder().decode([Int].self, from: [.uid(1)]) }
    guard let theirs, let ours else { return }
    #expect(decodingErrorSummary(ours) == decodingErrorSummary(theirs))
    #expect(
      decodingErrorSummary(ours) == "typeMismatch(Int) at [Index 0#0]: Expected to decode Int but found an NSKeyedArchiver UID instead.")
  }

  /// The same failures through Stasis's own binary reader.
  @Test(.enabled(if: stasisCodecAvailable(.binary), "the Stasis binary codec is not built yet"))
  func decodingErrorsFromBinaryBytes() throws {
    for failing in Self.cases {
      let bytes = try FoundationPlistBridge.write(failing.document, xml: false)
      let ours = #expect(throws: (any Error).self, "\(failing.name)") { try failing.stasisFromBytes(bytes) }
      if let ours { #expect(decodingErrorSummary(ours) == failing.expected, "\(failing.name)") }
    }
  }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func xmlRealsRoundToFloatAsFoundationsXMLDecoderDoes() throws {
    let xml = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>v</key><real>0.1</real></dict></plist>
      """.utf8)
    #expect(try StasisDecoder().decode(CodableWrapped<Float>.self, from: xml).v == 0.1)
    #expect(try FoundationDecoder().decode(CodableWrapped<Float>.self, from: xml).v == 0.1)
  }

  // MARK: Malformed documents

  @Test func malformedBinaryIsDataCorrupted() throws {
    // A header and 40 zero bytes: the trailer says nothing is there.
    let bytes = Data("bplist00".utf8) + Data(repeating: 0, count: 40)
    try expectDataCorrupted(bytes, format: .binary)
  }

  @Test(.enabled(if: stasisCodecAvailable(.xml), "the Stasis XML codec is not built yet"))
  func malformedXMLIsDataCorrupted() throws {
    try expectDataCorrupted(Data("<?xml version=\"1.0\"?><plist><dict><key>a</key>".utf8), format: .xml)
  }

  @Test(.enabled(if: stasisCodecAvailable(.openStep), "the Stasis OpenStep codec is not built yet"))
  func malformedOpenStepIsDataCorrupted() throws {
    try expectDataCorrupted(Data("{ a = ".utf8), format: .openStep)
    try expectDataCorrupted(Data(), format: .openStep)
    try expectDataCorrupted(Data([0xEF, 0xBB, 0xBF]), format: .openStep)
  }

  /// Text that is not XML is OpenStep (or a `.strings` file) to both decoders; white space alone
  /// is an empty dictionary, no bytes at all an error.
  @Test(.enabled(if: stasisCodecAvailable(.openStep), "the Stasis OpenStep codec is not built yet"))
  func openStepDocumentsDecodeLikeFoundation() throws {
    func agree<T: Decodable & Equatable>(_ type: T.Type, _ document: String, _ sourceLocation: SourceLocation = #_sourceLocation) {
      let bytes = Data(document.utf8)
      let theirs = Result { try FoundationDecoder().decode(T.self, from: bytes) }
      var format = PropertyLists.PropertyListFormat.binary
      let ours = Result { try StasisDecoder().decode(T.self, from: bytes, format: &format) }
      switch (ours, theirs) {
      case (.success(let ours), .success(let theirs)):
        #expect(ours == theirs, "\(document.debugDescription)", sourceLocation: sourceLocation)
        #expect(format == .openStep, sourceLocation: sourceLocation)
      case (.failure, .failure): break
      default:
        Issue.record("\(document.debugDescription): Stasis \(ours), Foundation \(theirs)", sourceLocation: sourceLocation)
      }
    }
    agree([String: String].self, "{a = b; \"c d\" = \"e\\nf\";}")
    agree([String: String].self, "a = b; c = d;")
    agree([String: String].self, "   \n")
    agree([String: String].self, "/* only a comment */")
    agree([String: String].self, "")
    agree([String].self, "(a, \"b c\", <0102>)")
    agree([String: [String]].self, "{list = (x, y); other = ();}")
    agree(CodableWrapped<Data>.self, "{v = <0102 0304>;}")
    agree(String.self, "bare")
    agree(CodableWrapped<Int>.self, "{v = 3;}")
    agree(CodableWrapped<Int?>.self, "{v = \"$null\";}")
    agree([String: String].self, "{a = b;} trailing")
  }

  private func expectDataCorrupted(
    _ bytes: Data, format: PropertyLists.PropertyListFormat, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
      try StasisDecoder().decode([String: String].self, from: bytes)
    }
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))", sourceLocation: sourceLocation)
      return
    }
    #expect(context.codingPath.isEmpty, sourceLocation: sourceLocation)
    #expect(context.debugDescription == "The given data was not a valid property list.", sourceLocation: sourceLocation)
    let underlying = context.underlyingError as? PropertyListError
    #expect(underlying?.format == format, "\(String(describing: context.underlyingError))", sourceLocation: sourceLocation)
  }

  @Test(.enabled(if: stasisCodecAvailable(.openStep), "the Stasis OpenStep codec is not built yet"))
  func jsonIsNotAPropertyList() throws {
    let error = #expect(throws: DecodingError.self) {
      try StasisDecoder().decode([String: String].self, from: Data(#"{"a": "b"}"#.utf8))
    }
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    #expect((context.underlyingError as? PropertyListError)?.format == .openStep)
  }

  // MARK: Encoding

  @Test func encodingErrorsMatchFoundation() throws {
    struct EncodesNothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    struct Thrower: Encodable {
      struct Failure: Error, CustomStringConvertible { var description: String { "the model refused" } }
      func encode(to encoder: any Encoder) throws { throw Failure() }
    }
    struct PathThrower: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(1, .init(codingPath: encoder.codingPath, debugDescription: "bad"))
      }
    }
    func agree<T: Encodable>(_ value: T, _ sourceLocation: SourceLocation = #_sourceLocation) {
      for xml in [false, true] {
        let foundation = FoundationEncoder()
        foundation.outputFormat = xml ? .xml : .binary
        let stasis = StasisEncoder()
        stasis.outputFormat = xml ? .xml : .binary
        let theirs = #expect(throws: EncodingError.self, sourceLocation: sourceLocation) { try foundation.encode(value) }
        let ours = #expect(throws: EncodingError.self, sourceLocation: sourceLocation) { try stasis.encode(value) }
        #expect(
          ours.map { String(describing: $0) } == theirs.map { String(describing: $0) }, sourceLocation: sourceLocation)
      }
    }
    agree(5)
    agree("text")
    agree(true)
    agree(2.5)
    agree(Date(timeIntervalSinceReferenceDate: 0))
    agree(Int?.none)
    agree(EncodesNothing())
    agree([Thrower()])
    agree(["k": [PathThrower()]])
  }

  @Test func encodingErrorUnderlyingCauses() throws {
    let error = #expect(throws: EncodingError.self) { try StasisEncoder().encode(Int8(3)) }
    guard case .invalidValue(let value, let context)? = error else { return }
    #expect(value as? Int8 == 3)
    #expect(context.codingPath.isEmpty)
    #expect(context.debugDescription == "Unable to encode the given top-level value as a property list")
    guard case .invalidValue(_, let inner)? = context.underlyingError as? EncodingError else {
      Issue.record("underlying error is \(String(describing: context.underlyingError))")
      return
    }
    #expect(inner.debugDescription == "Top-level Int8 encoded as number property list fragment.")
  }

  @Test(arguments: [PropertyLists.PropertyListFormat.openStep, .strings, .json])
  func onlyBinaryAndXMLAreWritten(format: PropertyLists.PropertyListFormat) throws {
    let encoder = StasisEncoder()
    encoder.outputFormat = format
    let error = #expect(throws: EncodingError.self) { try encoder.encode(["a": 1]) }
    guard case .invalidValue(_, let context)? = error else { return }
    let underlying = context.underlyingError as? PropertyListError
    #expect(underlying?.code == .unrepresentable)
    #expect(underlying?.format == format)
  }

  @Test func encodeToValueAcceptsScalarsButNotNothing() throws {
    struct EncodesNothing: Encodable { func encode(to encoder: any Encoder) throws {} }
    #expect(try StasisEncoder().encodeToValue("x") == "x")
    let error = #expect(throws: EncodingError.self) { try StasisEncoder().encodeToValue(EncodesNothing()) }
    guard case .invalidValue(_, let context)? = error,
      case .invalidValue(_, let inner)? = context.underlyingError as? EncodingError
    else { return }
    #expect(inner.debugDescription == "Top-level EncodesNothing did not encode any values.")
  }
}
