public import PropertyLists
import FoundationEssentials

/// A readable dump of a keyed archive's object graph, for people debugging archives
/// (`plutil -archive`): each object once, with its class, keys and values, references resolved
/// to the objects they point at, shared objects marked where they recur and cycles marked where
/// they close. Works on any keyed archive, with no classes registered.
///
/// ```text
/// root = #1 Item (Item, NSObject)
///   name = "a"
///   children = #4 NSArray (NSArray, NSObject) [1]
///     [0] = #1 Item ↺ cycle
///   category = #2 Category (Category, NSObject)
///     code = 1000
/// ```
public enum ArchiveDump {
  /// Renders the archive, or throws ``KeyedArchiveError`` when it is not a keyed archive.
  public static func render(_ archive: PropertyListValue, maximumLines: Int = 1_000_000) throws -> String {
    guard case .dictionary(let root) = archive, case .array(let objects)? = root["$objects"],
      case .dictionary(let top)? = root["$top"]
    else {
      throw KeyedArchiveError(.corruptArchive, "not a keyed archive: $objects or $top is missing")
    }
    var renderer = Renderer(objects: objects, maximumLines: maximumLines)
    renderer.line(0, "$archiver = \(root["$archiver"]?.stringValue.map { "\"\($0)\"" } ?? "(missing)"), $version = \(root["$version"]?.integerValue?.description ?? "(missing)"), \(objects.count) objects")
    for (key, value) in top {
      renderer.value(value, label: key, indent: 0)
    }
    if renderer.truncated { renderer.output += "… (output cut at \(maximumLines) lines)\n" }
    return renderer.output
  }

  struct Renderer {
    let objects: [PropertyListValue]
    let maximumLines: Int
    var output = ""
    var lines = 0
    var truncated = false
    var shown: Set<Int> = []
    var onPath: Set<Int> = []

    mutating func line(_ indent: Int, _ text: String) {
      guard lines < maximumLines else {
        truncated = true
        return
      }
      output += String(repeating: "  ", count: indent) + text + "\n"
      lines += 1
    }

    func className(of dictionary: PropertyListDictionary) -> (name: String, chain: String) {
      guard case .uid(let uid)? = dictionary["$class"], uid < UInt64(objects.count),
        case .dictionary(let classEntry) = objects[Int(uid)]
      else { return ("?", "") }
      let name = classEntry["$classname"]?.stringValue ?? "?"
      let chain = classEntry["$classes"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? ""
      return (name, chain)
    }

    static func scalar(_ value: PropertyListValue) -> String? {
      switch value {
      case .string(let string): return QuotedText.oneLine(string)
      case .integer(let integer): return integer.description
      case .real(let number, _): return "\(number)"
      case .bool(let flag): return flag ? "true" : "false"
      case .date(let date): return "date \(date.timeIntervalSinceReferenceDate) s after 2001-01-01"
      case .data(let data):
        let hex = data.prefix(32).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        return "<\(data.count) bytes: \(hex)\(data.count > 32 ? "…" : "")>"
      default: return nil
      }
    }

    mutating func value(_ value: PropertyListValue, label: String, indent: Int) {
      guard indent < 256 else {
        line(indent, "\(label) = … (nested deeper than 256 levels; not shown)")
        return
      }
      switch value {
      case .uid(let uid):
        reference(uid, label: label, indent: indent)
      case .array(let elements):
        line(indent, "\(label) = [\(elements.count)]")
        for (index, element) in elements.enumerated() { self.value(element, label: "[\(index)]", indent: indent + 1) }
      case .dictionary(let dictionary):
        line(indent, "\(label) = {\(dictionary.count)}")
        for (key, element) in dictionary { self.value(element, label: key, indent: indent + 1) }
      default:
        line(indent, "\(label) = \(Self.scalar(value) ?? "?")")
      }
    }

    mutating func reference(_ uid: UInt64, label: String, indent: Int) {
      guard uid < UInt64(objects.count) else {
        line(indent, "\(label) = #\(uid) ⚠︎ past the end of $objects")
        return
      }
      let index = Int(uid)
      if index == 0 {
        line(indent, "\(label) = nil")
        return
      }
      let object = objects[index]
      guard case .dictionary(let dictionary) = object else {
        line(indent, "\(label) = \(Self.scalar(object) ?? object.typeName)")
        return
      }
      let (name, chain) = className(of: dictionary)
      if onPath.contains(index) {
        line(indent, "\(label) = #\(index) \(name) ↺ cycle")
        return
      }
      if shown.contains(index) {
        line(indent, "\(label) = #\(index) \(name) (shared, shown above)")
        return
      }
      shown.insert(index)
      onPath.insert(index)
      defer { onPath.remove(index) }
      // Foundation collections, shown as what they hold.
      if case .array(let members)? = dictionary["NS.objects"], dictionary["NS.keys"] == nil {
        line(indent, "\(label) = #\(index) \(name) [\(members.count)]")
        for (position, member) in members.enumerated() { value(member, label: "[\(position)]", indent: indent + 1) }
        return
      }
      if case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"] {
        line(indent, "\(label) = #\(index) \(name) {\(keys.count)}")
        for (key, member) in zip(keys, values) {
          let keyText: String
          if case .uid(let keyUID) = key, keyUID < UInt64(objects.count), let text = Self.scalar(objects[Int(keyUID)]) {
            keyText = text
          } else {
            keyText = "key"
          }
          value(member, label: keyText, indent: indent + 1)
        }
        return
      }
      line(indent, "\(label) = #\(index) \(name)\(chain.isEmpty ? "" : " (\(chain))")")
      for (key, member) in dictionary where key != "$class" {
        value(member, label: key, indent: indent + 1)
      }
    }
  }
}
