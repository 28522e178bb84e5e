import ObjectModel
import Testing

@MainActor
@Suite("Key-value coding")
struct KeyValueCodingTests {
  @Test func readsAndSetsStoredProperties() throws {
    let view = View()
    try view.setValue(7, forKey: "tag")
    try view.setValue("Hello", forKey: "title")
    try view.setValue(0.5, forKey: "alpha")
    #expect(view.tag == 7 && view.title == "Hello" && view.alpha == 0.5)
    #expect(try view.value(forKey: "tag") as? Int == 7)
    #expect(try view.value(forKey: "title") as? String == "Hello")
    #expect(try view.value(forKey: "superviewTag") as? Int == 70)
  }

  @Test func nilForOptionalKeysAndNilValuesReadBackAsNil() throws {
    let view = View()
    view.title = "x"
    try view.setValue(nil, forKey: "title")
    #expect(view.title == nil)
    #expect(try view.value(forKey: "title") == nil)
    let optionalString: String? = nil
    try view.setValue(optionalString as Any, forKey: "title")
    #expect(view.title == nil)
  }

  @Test func inheritedKeysWorkOnSubclasses() throws {
    let button = Button()
    try button.setValue("first", forKey: "nextResponderName")
    try button.setValue(3, forKey: "tag")
    try button.setValue("OK", forKey: "label")
    #expect(button.nextResponderName == "first" && button.tag == 3 && button.title == "OK")
    #expect(Button.keyTable.contains("tag") && !View.keyTable.contains("label"))
    #expect(Button.keyTable.keys.contains("alpha"))
  }

  @Test func numbersConvertAsNSNumberDoes() throws {
    let view = View()
    try view.setValue(3.9, forKey: "tag")          // truncated toward zero, as -integerValue
    #expect(view.tag == 3)
    try view.setValue(-2.7, forKey: "tag")
    #expect(view.tag == -2)
    try view.setValue(2, forKey: "alpha")          // integer to Double
    #expect(view.alpha == 2)
    try view.setValue(1, forKey: "hidden")         // non-zero is true
    #expect(view.hidden)
    try view.setValue(0.0, forKey: "hidden")
    #expect(!view.hidden)
    try view.setValue(true, forKey: "tag")
    #expect(view.tag == 1)
    try view.setValue(Double(1.25), forKey: "width")  // Double to Float
    #expect(view.width == 1.25)
    try view.setValue(300, forKey: "count")        // wraps to the width, as a C cast does
    #expect(view.count == 44)
    try view.setValue(Int32(5), forKey: "tag")
    #expect(view.tag == 5)
  }

  @Test func wrongTypesAndNilForNonOptionalsAreTypedErrors() {
    let view = View()
    do {
      try view.setValue("seven", forKey: "tag")
      Issue.record("no error")
    } catch {
      #expect(error.code == .typeMismatch)
      #expect(error.className == "View" && error.name == "tag")
      #expect(error.description == "View: the key tag holds Int, not String")
    }
    do {
      try view.setValue(nil, forKey: "tag")
      Issue.record("no error")
    } catch {
      #expect(error.code == .nilForNonOptional)
    }
    do {
      try view.setValue(1, forKey: "superviewTag")
      Issue.record("no error")
    } catch {
      #expect(error.code == .readOnlyKey)
    }
    #expect(view.tag == 0)
  }

  @Test func undefinedKeysNameTheClassAndTheKey() {
    let view = View()
    do {
      try view.setValue(1, forKey: "titel")
      Issue.record("no error")
    } catch {
      #expect(error.code == .undefinedKey)
      #expect(error.description == "View: this class is not key value coding-compliant for the key titel")
    }
    do {
      _ = try view.value(forKey: "nothing")
      Issue.record("no error")
    } catch ObjectModelError.Code.undefinedKey {
    } catch {
      Issue.record("wrong error \(error)")
    }
  }

  @Test func overriddenUndefinedKeyHandlerTakesExtraKeys() throws {
    let button = Button()
    try button.setValue(42, forKey: "x-answer")
    #expect(button.extra["x-answer"] as? Int == 42)
    #expect(throws: ObjectModelError.self) { try button.setValue(1, forKey: "other") }
  }

  @Test func keyPathsWalkObjectsAndDictionaries() throws {
    let parent = View()
    let child = View()
    child.tag = 9
    child.attributes = ["colour": "red", "nested": ["depth": 2] as [String: Any]]
    parent.subviews = [child]
    parent.attributes = ["child": child]
    #expect(try parent.value(forKeyPath: "attributes.child.tag") as? Int == 9)
    #expect(try parent.value(forKeyPath: "attributes.child.attributes.nested.depth") as? Int == 2)
    #expect(try parent.value(forKeyPath: "attributes.missing.tag") == nil)
    try parent.setValue("Kid", forKeyPath: "attributes.child.title")
    #expect(child.title == "Kid")
    try parent.setValue(1, forKeyPath: "attributes.missing.tag")  // nil on the way: nothing set
    for bad in ["", ".tag", "tag.", "a..b"] {
      #expect(throws: ObjectModelError.self) { try parent.value(forKeyPath: bad) }
    }
    do {
      _ = try parent.value(forKeyPath: "tag.value")
      Issue.record("no error")
    } catch {
      #expect(error.code == .invalidKeyPath)
    }
    do {
      try parent.setValue(1, forKeyPath: "attributes.child.attributes.colour.x")
      Issue.record("no error")
    } catch {
      #expect(error.code == .invalidKeyPath)
    }
  }

  @Test func existentialObjectsAreCodedThroughTheProtocol() throws {
    let objects: [AnyObject] = [View(), Button()]
    for object in objects {
      let coding = try #require(object as? any KeyValueCoding)
      try coding.setValue(5, forKey: "tag")
      #expect(try coding.value(forKey: "tag") as? Int == 5)
    }
  }

  /// Seeded: random keys and values, checked against a model dictionary.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func seededRandomSetsMatchAModel(seed: UInt64) throws {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let view = View()
    var model: [String: Int] = ["tag": 0]
    for _ in 0..<500 {
      let value = Int(truncatingIfNeeded: next() % 2001) - 1000
      if next() % 2 == 0 {
        try view.setValue(value, forKey: "tag")
        model["tag"] = value
      } else {
        try view.setValue(Double(value) + 0.5, forKey: "tag")
        model["tag"] = value >= 0 ? value : value + 1  // toward zero
      }
      #expect(try view.value(forKey: "tag") as? Int == model["tag"])
    }
  }
}
