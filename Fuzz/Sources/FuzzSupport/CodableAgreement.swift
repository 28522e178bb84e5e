// The Codable decoder reads binary documents in place, and UTF-8 XML documents from a flat record
// of their elements, without a value tree. For every input, `PropertyListDecoder.decode(_:from:)`
// must agree with decoding the value tree the reader makes (`decodeThroughTree`, the same rules):
// the same rendering of what was decoded, or the same error (kind, coding path, description); and
// an input the reader refuses must be the decoder's "not a valid property list" error with the
// reader's error under it. Used by FuzzBinaryPlist and FuzzXMLPlist.
public import FoundationEssentials
@_spi(Testing) import PropertyLists

public enum CodableAgreement {
  /// Checks `bytes` when they read as a document in `format` (or do not read at all); `target`
  /// names the fuzz target in failure messages.
  public static func check(_ bytes: Data, format: PropertyListFormat, target: String) {
    do {
      guard try PropertyListValue.read(bytes, policy: .foundationDecoder).format == format else { return }
    } catch {
      let expected = "dataCorrupted at []: The given data was not a valid property list. / \(error)"
      for found in [outcome(Probe.self, bytes), outcome(Shape.self, bytes)] where found != expected {
        FuzzHarness.fail(target, "unreadable document decoded as \(found); expected \(expected)")
      }
      return
    }
    compare(Probe.self, bytes, target)
    compare(Shape.self, bytes, target)
    compare([Shape].self, bytes, target)
    compare([String: Probe].self, bytes, target)
  }

  private static func compare<T: Decodable & Rendered>(_ type: T.Type, _ bytes: Data, _ target: String) {
    let inPlace = outcome(type, bytes)
    let fromTree = summary { try PropertyLists.PropertyListDecoder().decodeThroughTree(type, from: bytes).rendered }
    if inPlace != fromTree {
      FuzzHarness.fail(target, "\(type) in place: \(inPlace); from the tree: \(fromTree)")
    }
  }

  private static func outcome<T: Decodable & Rendered>(_ type: T.Type, _ bytes: Data) -> String {
    summary { try PropertyLists.PropertyListDecoder().decode(type, from: bytes).rendered }
  }

  private static func summary(_ body: () throws -> String) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { key in key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue }.joined(separator: "/")
    }
    do {
      return "value \(try body())"
    } catch DecodingError.typeMismatch(let type, let context) {
      return "typeMismatch(\(type)) at [\(path(context.codingPath))]: \(context.debugDescription)"
    } catch DecodingError.valueNotFound(let type, let context) {
      return "valueNotFound(\(type)) at [\(path(context.codingPath))]: \(context.debugDescription)"
    } catch DecodingError.keyNotFound(let key, let context) {
      return "keyNotFound(\(key.stringValue)) at [\(path(context.codingPath))]: \(context.debugDescription)"
    } catch DecodingError.dataCorrupted(let context) {
      let under = context.underlyingError.map { " / \($0)" } ?? ""
      return "dataCorrupted at [\(path(context.codingPath))]: \(context.debugDescription)\(under)"
    } catch {
      return "other error \(error)"
    }
  }
}

/// A decoded value's text, the same for equal values (NaNs included).
protocol Rendered {
  var rendered: String { get }
}

extension Array: Rendered where Element: Rendered {
  var rendered: String { "[" + map(\.rendered).joined(separator: ",") + "]" }
}

extension Dictionary: Rendered where Key == String, Value: Rendered {
  var rendered: String { "{" + sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rendered)" }.joined(separator: ",") + "}" }
}

struct AnyKey: CodingKey {
  let stringValue: String
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  var intValue: Int? { nil }
}

/// Whatever the document holds, through every kind of container: dictionaries by `allKeys` and
/// by key, arrays to their end, scalars as each type in turn. Stops 48 levels down.
struct Probe: Decodable, Rendered {
  let rendered: String

  init(from decoder: any Decoder) throws {
    if decoder.codingPath.count > 48 {
      rendered = "…"
    } else if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
      var parts: [String] = []
      for key in keyed.allKeys {
        parts.append("\(key.stringValue)=\(try keyed.decode(Probe.self, forKey: key).rendered)")
      }
      let id = (try? keyed.decodeIfPresent(Int.self, forKey: AnyKey("id"))).map { "\($0 as Any)" } ?? "error"
      let nested = (try? keyed.nestedUnkeyedContainer(forKey: AnyKey("items")))?.count.map(String.init) ?? "-"
      parts.append("#id=\(id) #items=\(nested) #has=\(keyed.contains(AnyKey("name")))")
      rendered = "{" + parts.joined(separator: ",") + "}"
    } else if var unkeyed = try? decoder.unkeyedContainer() {
      var parts: [String] = []
      while !unkeyed.isAtEnd {
        if try unkeyed.decodeNil() {
          parts.append("nil")
        } else {
          parts.append(try unkeyed.decode(Probe.self).rendered)
        }
      }
      rendered = "[" + parts.joined(separator: ",") + "]"
    } else {
      let single = try decoder.singleValueContainer()
      var parts: [String] = [single.decodeNil() ? "nil" : "some"]
      parts.append((try? single.decode(String.self)) ?? "-")
      parts.append((try? single.decode(Int8.self)).map { "\($0)" } ?? "-")
      parts.append((try? single.decode(UInt64.self)).map { "\($0)" } ?? "-")
      parts.append((try? single.decode(Int64.self)).map { "\($0)" } ?? "-")
      parts.append((try? single.decode(Double.self)).map { "\($0.bitPattern)" } ?? "-")
      parts.append((try? single.decode(Float.self)).map { "\($0.bitPattern)" } ?? "-")
      parts.append((try? single.decode(Bool.self)).map { "\($0)" } ?? "-")
      parts.append((try? single.decode(Date.self)).map { "\($0.timeIntervalSinceReferenceDate.bitPattern)" } ?? "-")
      parts.append((try? single.decode(Data.self)).map { "\(Array($0))" } ?? "-")
      rendered = parts.joined(separator: " ")
    }
  }
}

/// A fixed shape, so that documents of other shapes fail: its errors must agree too.
struct Shape: Decodable, Rendered {
  var name: String
  var count: Int8
  var ratio: Float?
  var flags: [Bool]?
  var child: [Shape]?
  var tags: [String: Int]?
  var when: Date?
  var blob: Data?

  var rendered: String {
    let parts: [String] = [
      name, "\(count)", "\(ratio?.bitPattern as Any)", "\(flags as Any)", child?.rendered ?? "-",
      tags.map { "\($0.sorted { $0.key < $1.key })" } ?? "-", "\(when?.timeIntervalSinceReferenceDate.bitPattern as Any)",
      "\(blob.map(Array.init) as Any)",
    ]
    return parts.joined(separator: " ")
  }
}
