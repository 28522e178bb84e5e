import Defaults
import Foundation
import PropertyLists
import Testing
import TestSupport
import Sandbox

@Suite("Typed getters and setters with Apple's conversions")
struct ValueTests {
  /// One stored value and what each typed getter answers for it.
  struct Row: CustomTestStringConvertible, Sendable {
    var stored: PropertyListValue
    var string: String?
    var integer: Int
    var double: Double
    var bool: Bool
    var testDescription: String { "\(stored)" }
  }

  static let rows: [Row] = [
    Row(stored: "YES", string: "YES", integer: 0, double: 0, bool: true),
    Row(stored: "yes", string: "yes", integer: 0, double: 0, bool: true),
    Row(stored: "true", string: "true", integer: 0, double: 0, bool: true),
    Row(stored: "TRUE", string: "TRUE", integer: 0, double: 0, bool: true),
    Row(stored: "1", string: "1", integer: 1, double: 1, bool: true),
    Row(stored: "42", string: "42", integer: 42, double: 42, bool: true),
    Row(stored: " -17 apples", string: " -17 apples", integer: -17, double: -17, bool: true),
    Row(stored: "3.9", string: "3.9", integer: 3, double: 3.9, bool: true),
    Row(stored: "2.5e3", string: "2.5e3", integer: 2, double: 2500, bool: true),
    Row(stored: "NO", string: "NO", integer: 0, double: 0, bool: false),
    Row(stored: "0", string: "0", integer: 0, double: 0, bool: false),
    Row(stored: "y", string: "y", integer: 0, double: 0, bool: false),
    Row(stored: "", string: "", integer: 0, double: 0, bool: false),
    Row(stored: 42, string: "42", integer: 42, double: 42, bool: true),
    Row(stored: 0, string: "0", integer: 0, double: 0, bool: false),
    Row(stored: -5, string: "-5", integer: -5, double: -5, bool: true),
    Row(stored: 0.5, string: "0.5", integer: 0, double: 0.5, bool: true),
    Row(stored: 3.0, string: "3", integer: 3, double: 3, bool: true),
    Row(stored: -3.9, string: "-3.9", integer: -3, double: -3.9, bool: true),
    Row(stored: true, string: "1", integer: 1, double: 1, bool: true),
    Row(stored: false, string: "0", integer: 0, double: 0, bool: false),
    Row(stored: .data(Data([1])), string: nil, integer: 0, double: 0, bool: false),
    Row(stored: .date(Date(timeIntervalSinceReferenceDate: 0)), string: nil, integer: 0, double: 0, bool: false),
    Row(stored: ["a"], string: nil, integer: 0, double: 0, bool: false),
    Row(stored: ["k": "v"], string: nil, integer: 0, double: 0, bool: false),
    Row(stored: .integer(PropertyListInteger(UInt64.max)), string: "18446744073709551615", integer: Int.max, double: 18446744073709551616, bool: true),
  ]

  @Test("string/integer/double/float/bool of each stored type", arguments: rows)
  func conversions(_ row: Row) throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.setPropertyList(row.stored, forKey: "k")
    #expect(defaults.string(forKey: "k") == row.string)
    #expect(defaults.integer(forKey: "k") == row.integer)
    #expect(defaults.double(forKey: "k") == row.double)
    #expect(defaults.float(forKey: "k") == Float(row.double))
    #expect(defaults.bool(forKey: "k") == row.bool)
  }

  @Test("Absent keys: nil objects and zero scalars")
  func absent() throws {
    let defaults = try TemporaryRoot().defaults()
    #expect(defaults.object(forKey: "none") == nil)
    #expect(defaults.string(forKey: "none") == nil)
    #expect(defaults.integer(forKey: "none") == 0)
    #expect(defaults.double(forKey: "none") == 0)
    #expect(defaults.bool(forKey: "none") == false)
    #expect(defaults.url(forKey: "none") == nil)
    #expect(defaults.array(forKey: "none") == nil)
  }

  @Test("Typed setters store the matching property-list type")
  func setters() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.set(7, forKey: "int")
    defaults.set(Float(0.25), forKey: "float")
    defaults.set(2.5, forKey: "double")
    defaults.set(true, forKey: "bool")
    defaults.set("text", forKey: "string")
    defaults.set(Data([0xCA, 0xFE]), forKey: "data")
    defaults.set(Date(timeIntervalSinceReferenceDate: 100), forKey: "date")
    defaults.set(["a", "b"], forKey: "strings")
    defaults.set(["a", 1] as [Any], forKey: "mixed")
    defaults.set(["nested": ["x": 1]], forKey: "dictionary")
    #expect(defaults.propertyList(forKey: "int") == 7)
    #expect(defaults.propertyList(forKey: "float") == .real(0.25, width: .single))
    #expect(defaults.float(forKey: "float") == 0.25)
    #expect(defaults.propertyList(forKey: "double") == 2.5)
    #expect(defaults.propertyList(forKey: "bool") == true)
    #expect(defaults.data(forKey: "data") == Data([0xCA, 0xFE]))
    #expect(defaults.object(forKey: "date") as? Date == Date(timeIntervalSinceReferenceDate: 100))
    #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
    #expect(defaults.stringArray(forKey: "mixed") == nil)
    #expect(defaults.array(forKey: "mixed")?.count == 2)
    #expect((defaults.dictionary(forKey: "dictionary")?["nested"] as? [String: Any])?["x"] as? Int == 1)
    #expect(defaults.dictionary(forKey: "strings") == nil)
    #expect(defaults.data(forKey: "string") == nil)
    #expect(defaults.object(forKey: "int") as? Int == 7)
    #expect(defaults.object(forKey: "bool") as? Bool == true)
    // The values survive a save and a fresh read.
    #expect(defaults.synchronize())
    let stored = try #require(try temporary.onDisk("com.example.app"))
    #expect(stored["float"] == .real(0.25, width: .single))
    #expect(stored["dictionary"] == ["nested": ["x": 1]])
  }

  @Test("set(nil) and removeObject remove the key")
  func removal() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.set("a", forKey: "one")
    defaults.set("b", forKey: "two")
    defaults.set(nil, forKey: "one")
    defaults.removeObject(forKey: "two")
    #expect(defaults.object(forKey: "one") == nil && defaults.object(forKey: "two") == nil)
    #expect(defaults.synchronize())
    #expect(try temporary.onDisk("com.example.app") == [:])
  }

  @Test("URLs: strings are paths (with ~ in the container), set(URL) round-trips through an NSURL archive")
  func urls() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.set("/tmp/some file", forKey: "path")
    #expect(defaults.url(forKey: "path") == URL(fileURLWithPath: "/tmp/some file"))
    defaults.set("~/Documents/x.txt", forKey: "tilde")
    let home = try #require(defaults.container?.homePath)
    #expect(defaults.url(forKey: "tilde")?.path == home + "/Documents/x.txt")
    defaults.set("file:///tmp/a%20b.txt", forKey: "fileURL")
    #expect(defaults.url(forKey: "fileURL")?.path == "/tmp/a b.txt")
    let web = try #require(URL(string: "https://example.com/a?b=c"))
    defaults.set(web, forKey: "web")
    #expect(defaults.data(forKey: "web") != nil)
    #expect(defaults.url(forKey: "web") == web)
    defaults.set(nil as URL?, forKey: "web")
    #expect(defaults.object(forKey: "web") == nil)
    defaults.set(42, forKey: "number")
    #expect(defaults.url(forKey: "number") == nil)
  }

  @Test("Only property-list values can be stored: setChecked throws notAPropertyList")
  func nonPropertyLists() throws {
    let defaults = try TemporaryRoot().defaults()
    struct Custom {}
    #expect(throws: DefaultsError.self) { try defaults.setChecked(Custom(), forKey: "x") }
    let error = expectError(DefaultsError.self, .notAPropertyList, "a dictionary with integer keys was accepted") {
      try defaults.setChecked([1: "integer keys"], forKey: "x")
    }
    #expect(error?.description.contains("x") == true)
    #expect(throws: DefaultsError.self) { try defaults.setChecked(["ok", Custom()] as [Any], forKey: "x") }
    #expect(defaults.object(forKey: "x") == nil)
    try defaults.setChecked(["fine": [1, 2]], forKey: "x")
    #expect(defaults.propertyList(forKey: "x") == ["fine": [1, 2]])
  }
}

@Suite("Change notifications and per-key observation")
struct ObservationTests {
  @Test("didChangeNotification is posted for changes made here")
  func notification() throws {
    let defaults = try TemporaryRoot().defaults()
    let posts = Recorder<Int>()
    let token = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: defaults, queue: nil) { _ in
      posts.append(1)
    }
    defer { NotificationCenter.default.removeObserver(token) }
    defaults.set(1, forKey: "a")
    defaults.set(2, forKey: "a")
    defaults.set(2, forKey: "a")  // no change: no notification
    defaults.removeObject(forKey: "a")
    defaults.register(defaults: ["b": 1])
    #expect(posts.values.count == 4)
  }

  @Test("observe(_:) reports each new value of its key until invalidated")
  func perKey() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    let seen = Recorder<PropertyListValue?>()
    let observation = defaults.observe("Volume") { seen.append($0) }
    defaults.set(1, forKey: "Volume")
    defaults.set("other", forKey: "Unrelated")
    defaults.register(defaults: ["Volume": 5])  // shadowed by the app domain: no change
    defaults.removeObject(forKey: "Volume")  // now the registered 5
    defaults.setVolatileDomain(propertyLists: [:], forName: UserDefaults.registrationDomain)
    #expect(seen.values == [1, 5, nil])
    observation.invalidate()
    defaults.set(9, forKey: "Volume")
    #expect(seen.values.count == 3)
  }

  @Test("Changes made by another process are reported on synchronize()")
  func externalChanges() throws {
    let temporary = TemporaryRoot()
    let defaults = try temporary.defaults()
    defaults.set("mine", forKey: "Local")
    #expect(defaults.synchronize())
    let seen = Recorder<PropertyListValue?>()
    let observation = defaults.observe("Remote") { seen.append($0) }
    let posts = Recorder<Int>()
    let token = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: defaults, queue: nil) { _ in
      posts.append(1)
    }
    defer { NotificationCenter.default.removeObserver(token) }
    // Another process (the defaults tool) edits the file under its lock.
    try temporary.file("com.example.app").update { contents in
      contents?["Remote"] = "theirs"
      return true
    }
    #expect(defaults.object(forKey: "Remote") == nil)  // not yet picked up
    #expect(defaults.synchronize())
    #expect(defaults.string(forKey: "Remote") == "theirs")
    #expect(defaults.string(forKey: "Local") == "mine")
    #expect(seen.values == ["theirs"])
    #expect(posts.values.count == 1)
    _ = observation
  }
}
