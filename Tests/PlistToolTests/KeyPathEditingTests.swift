import Foundation
import PropertyLists
import Testing
import TestSupport

/// `PropertyListValue`'s key-path editing API, on its own.
@Suite("PropertyListValue key-path editing")
struct KeyPathEditingTests {
  static let base: PropertyListValue = ["arr": [1, 2, 3], "d": ["k": "v", "list": [[0]]], "s": "x"]

  @Test func insertReplaceRemoveRoundTrip() throws {
    var value = Self.base
    try value.insert("new", atPath: ["d", "n"])
    #expect(value["d"]?["n"] == "new")
    try value.replace(9, atPath: ["d", "n"])
    #expect(value["d"]?["n"] == 9)
    #expect(try value.removeValue(atPath: ["d", "n"]) == 9)
    #expect(value == Self.base)
  }

  @Test func keyOrderIsKept() throws {
    var value: PropertyListValue = ["z": 1, "a": 2, "m": 3]
    try value.replace(20, atPath: ["a"])
    try value.insert(4, atPath: ["b"])
    #expect(value.dictionaryValue?.keys == ["z", "a", "m", "b"])
  }

  @Test func deepEditsDoNotDisturbSiblings() throws {
    var value = Self.base
    try value.insert(1, atPath: ["d", "list", "0"], appending: true)
    #expect(value == ["arr": [1, 2, 3], "d": ["k": "v", "list": [[0, 1]]], "s": "x"])
  }

  @Test func failedEditsLeaveTheValueUnchanged() {
    var value = Self.base
    #expect(throws: PropertyListError.self) { try value.insert(1, atPath: ["s"]) }
    #expect(throws: PropertyListError.self) { try value.insert(1, atPath: ["arr", "5"]) }
    #expect(throws: PropertyListError.self) { try value.insert(1, atPath: ["d", "list", "0", "x"]) }
    #expect(throws: PropertyListError.self) { try value.replace(1, atPath: []) }
    #expect(throws: PropertyListError.self) { try value.removeValue(atPath: ["d", "nope"]) }
    #expect(throws: PropertyListError.self) { try value.removeValue(atPath: []) }
    #expect(value == Self.base)
  }

  @Test func errorCodesAndMessages() {
    var value = Self.base
    let exists = expectError(PropertyListError.self, .invalidValue) { try value.insert(1, atPath: ["s"]) }
    if let error = exists {
      #expect(error.format == nil)
      #expect(error.description == "Value already exists at key path s")
    }
    let notFound = expectError(PropertyListError.self, .keyPathNotFound) { try value.insert(1, atPath: ["a.b", "c"]) }
    #expect(notFound?.detail == "Key path not found a\\.b.c")
    expectError(PropertyListError.self, .keyPathNotFound) { try value.removeValue(atKeyPath: "arr.7") }
  }

  @Test func dottedKeyPathOverloads() throws {
    var value: PropertyListValue = ["a": ["b": [1]]]
    try value.insert(2, atKeyPath: "a.b.1")
    try value.replace("x", atKeyPath: "a.c")
    try value.removeValue(atKeyPath: "a.b.0")
    #expect(value == ["a": ["b": [2], "c": "x"]])
  }

  @Test func editsAreInPlace() throws {
    // A large array edited deep inside a dictionary: with copy-on-write done right this is
    // linear; a copy per level would still pass but this guards the semantics of in-place edits.
    var value: PropertyListValue = ["outer": ["inner": .array((0..<10_000).map { .integer($0) })]]
    for index in 0..<1000 { try value.replace(.integer(-index), atPath: ["outer", "inner", String(index)]) }
    #expect(value["outer"]?["inner"]?[999] == -999)
    #expect(value["outer"]?["inner"]?[1000] == 1000)
  }

  @Test func joinedKeyPath() {
    #expect(PropertyListValue.joinedKeyPath(["a.b", "c", ""]) == "a\\.b.c.")
    #expect(PropertyListValue.joinedKeyPath([]) == "")
  }
}

/// `PropertyListValue.humanReadableDescription`, on its own.
@Suite("PropertyListValue plutil -p listing")
struct PrintingTests {
  @Test func scalars() {
    #expect(PropertyListValue.string("a\"b\\c\nd").humanReadableDescription() == "\"a\"b\\c\nd\"\n")
    #expect(PropertyListValue.integer(PropertyListInteger(UInt64.max)).humanReadableDescription() == "18446744073709551615\n")
    #expect(PropertyListValue.integer(-5).humanReadableDescription() == "-5\n")
    #expect(PropertyListValue.bool(false).humanReadableDescription() == "false\n")
    #expect(PropertyListValue.uid(4).humanReadableDescription() == "{\n  \"CF$UID\" => 4\n}\n")
  }

  @Test(arguments: [
    (3.0, "3.0"), (0.1, "0.1"), (1e300, "1e+300"), (1e16, "1e+16"), (1e15, "1000000000000000.0"), (-0.0, "-0.0"),
    (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (Double.leastNonzeroMagnitude, "5e-324"), (2.5e-7, "2.5e-07"),
  ])
  func reals(value: Double, expected: String) {
    #expect(PropertyListValue.real(value).humanReadableDescription() == expected + "\n")
  }

  @Test func singlePrecisionRealsPrintShortest() {
    #expect(PropertyListValue.real(Double(Float(0.1)), width: .single).humanReadableDescription() == "0.1\n")
    #expect(PropertyListValue.real(Double(Float(0.1))).humanReadableDescription() == "0.10000000149011612\n")
  }

  @Test(arguments: [
    (0.0, "2001-01-01 00:00:00 +0000"), (-0.5, "2000-12-31 23:59:59 +0000"), (600_000_000.9, "2020-01-06 10:40:00 +0000"),
    (-978_307_200, "1970-01-01 00:00:00 +0000"), (-31_622_400, "2000-01-01 00:00:00 +0000"), (-63_113_904_000, "0001-01-01 00:00:00 +0000"),
    (3_129_235_200, "2100-03-01 00:00:00 +0000"), (3_129_235_199, "2100-02-28 23:59:59 +0000"), (1e300, "<description unavailable>"),
  ])
  func dates(interval: Double, expected: String) {
    #expect(PropertyListValue.date(Date(timeIntervalSinceReferenceDate: interval)).humanReadableDescription() == expected + "\n")
  }

  @Test func data() {
    #expect(PropertyListValue.data(Data()).humanReadableDescription() == "{length = 0, bytes = 0x}\n")
    #expect(PropertyListValue.data(Data(0..<24)).humanReadableDescription() == "{length = 24, bytes = 0x000102030405060708090a0b0c0d0e0f1011121314151617}\n")
    #expect(
      PropertyListValue.data(Data(0..<40)).humanReadableDescription()
        == "{length = 40, bytes = 0x00010203 04050607 08090a0b 0c0d0e0f ... 20212223 24252627 }\n")
  }

  @Test func defaultKeyOrderIsCodeUnitOrder() {
    let value: PropertyListValue = ["b": 1, "B": 2, "a10": 3, "a9": 4]
    #expect(value.humanReadableDescription() == "{\n  \"B\" => 2\n  \"a10\" => 3\n  \"a9\" => 4\n  \"b\" => 1\n}\n")
  }

  @Test func emptyContainers() {
    #expect(PropertyListValue.array([]).humanReadableDescription() == "[\n]\n")
    #expect(PropertyListValue.dictionary([:]).humanReadableDescription() == "{\n}\n")
    #expect(PropertyListValue.array([[], [:]]).humanReadableDescription() == "[\n  0 => [\n  ]\n  1 => {\n  }\n]\n")
  }
}
