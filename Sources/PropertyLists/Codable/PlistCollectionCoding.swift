import FoundationEssentials

// Direct paths for the standard library's Array and [String: V].
//
// Their own `init(from:)` and `encode(to:)` live in the standard library, unspecialized, and
// spend most of their time in the runtime (metadata lookups, dynamic casts, building `allKeys`).
// These conformances let the encoder and decoder handle them as loops over their elements
// instead, with the results and errors the standard library's code would give: elements keyed by
// `Index n`, dictionary values by their key, a value of the wrong shape sent down the ordinary
// path so that it fails with the ordinary error. Foundation special-cases `[String: Encodable]`
// in its encoder the same way (to sort its keys).

/// The coding key for an entry of a `[String: V]`, spelled as the standard library's
/// `_DictionaryCodingKey` spells it: the string, and its integer value when it has one.
struct DictionaryEntryCodingKey: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { stringValue = String(intValue) }
  var intValue: Int? { Int(stringValue) }
}

/// The coding key the encoder uses for an entry of a `[String: V]`, as Foundation's does (a
/// string key only).
struct StringCodingKey: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  var intValue: Int? { nil }
}

/// Collections the encoder writes directly.
protocol PlistDirectEncodable {
  func encodeDirectly(to encoder: PlistValueEncoder) throws -> PropertyListValue
}

/// Collections the decoder reads directly.
protocol PlistDirectDecodable {
  /// Decodes from `node`, or returns `nil` when its value is not of the collection's shape (the
  /// caller then takes the ordinary path, which produces the ordinary error).
  static func decodeDirectly(from node: PlistDecodingNode, decoder: PlistValueDecoder) throws -> Self?
}

extension Array: PlistDirectEncodable where Element: Encodable {
  func encodeDirectly(to encoder: PlistValueEncoder) throws -> PropertyListValue {
    var elements: [PropertyListValue] = []
    elements.reserveCapacity(count)
    for element in self {
      elements.append(try encoder.wrap(element, nestedPath: [], key: IndexCodingKey(elements.count)))
    }
    return .array(elements)
  }
}

extension Dictionary: PlistDirectEncodable where Key == String, Value: Encodable {
  /// Keys sorted, as Foundation writes them.
  func encodeDirectly(to encoder: PlistValueEncoder) throws -> PropertyListValue {
    let keys = self.keys.sorted()
    var values: [PropertyListValue] = []
    values.reserveCapacity(keys.count)
    for key in keys {
      values.append(try encoder.wrap(self[key]!, nestedPath: [], key: StringCodingKey(stringValue: key)))
    }
    return .dictionary(PropertyListDictionary(uniqueKeys: keys, values: values))
  }
}

extension Array: PlistDirectDecodable where Element: Decodable {
  static func decodeDirectly(from node: PlistDecodingNode, decoder: PlistValueDecoder) throws -> Self? {
    guard case .array(let values) = node.value else { return nil }
    if let tape = decoder.tape, node.object >= 0 {
      return try decodeElements(XMLTapeArrayElements(tape, container: node.object), decoder: decoder)
    }
    return try decodeElements(PlistArrayElements(values, node: node, objects: decoder.objects), decoder: decoder)
  }

  private static func decodeElements<Elements: PlistIndexedElements>(_ elements: Elements, decoder: PlistValueDecoder) throws -> Self {
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for position in 0..<elements.count {
      result.append(try decoder.unwrap(elements.node(at: position), as: Element.self, nestedPath: [], key: IndexCodingKey(position)))
    }
    return result
  }
}

extension Dictionary: PlistDirectDecodable where Key == String, Value: Decodable {
  static func decodeDirectly(from node: PlistDecodingNode, decoder: PlistValueDecoder) throws -> Self? {
    guard case .dictionary(let dictionary) = node.value else { return nil }
    if let tape = decoder.tape, node.object >= 0 {
      return try decodeEntries(XMLTapeDictionaryEntries(tape, container: node.object), decoder: decoder)
    }
    return try decodeEntries(PlistDictionaryEntries(dictionary, node: node, objects: decoder.objects), decoder: decoder)
  }

  private static func decodeEntries<Entries: PlistKeyedEntries>(_ entries: Entries, decoder: PlistValueDecoder) throws -> Self {
    var result: [String: Value] = [:]
    result.reserveCapacity(entries.count)
    for position in 0..<entries.count {
      let key = try entries.key(at: position)
      result[key] = try decoder.unwrap(
        entries.value(at: position), as: Value.self, nestedPath: [], key: DictionaryEntryCodingKey(stringValue: key))
    }
    return result
  }
}
