import FoundationEssentials

// What the decoder's containers read, whatever holds the document: a value tree or a binary
// document (`PlistArrayElements`, `PlistDictionaryEntries`), or an XML document's flat record
// (`XMLTapeArrayElements`, `XMLTapeDictionaryEntries`). The containers are generic over these,
// so each storage gets its own specialized code.

/// The elements of an array being decoded.
protocol PlistIndexedElements {
  var count: Int { get }
  /// The element at `index` (below `count`).
  func node(at index: Int) throws -> PlistDecodingNode
}

/// The entries of a dictionary being decoded, in document order, no key repeated. Key objects
/// are a binary document's (-1 where there are none).
protocol PlistKeyedEntries {
  var count: Int { get }
  func keyObject(at position: Int) -> Int
  func key(at position: Int, is keyObject: Int, _ wanted: String) throws -> Bool
  func key(at position: Int) throws -> String
  func value(at position: Int) throws -> PlistDecodingNode
  func key(at position: Int, equals wanted: String) throws -> Bool
  func search(_ wanted: String) throws -> (position: Int?, keyObject: Int)
  func locate(keyObject: Int) -> Int??
}

extension PlistArrayElements: PlistIndexedElements {}
extension PlistDictionaryEntries: PlistKeyedEntries {}

/// The elements of an array of an XML document's flat record.
struct XMLTapeArrayElements: PlistIndexedElements {
  private let tape: XMLPlistTape
  private let start: Int
  let count: Int

  init(_ tape: XMLPlistTape, container: Int) {
    self.tape = tape
    (start, count) = tape.members(of: container)
  }

  @inline(__always)
  func node(at index: Int) -> PlistDecodingNode {
    tape.node(tape.member(start &+ index))
  }
}

/// The entries of a dictionary of an XML document's flat record: pairs of key and value entries.
struct XMLTapeDictionaryEntries: PlistKeyedEntries {
  private let tape: XMLPlistTape
  private let start: Int
  /// An index of the keys, made at the first search of a dictionary larger than a tree
  /// dictionary without an index.
  private let lazyIndex: PlistLazyKeyIndex?
  let count: Int

  init(_ tape: XMLPlistTape, container: Int) {
    self.tape = tape
    (start, count) = tape.members(of: container)
    lazyIndex = count > PropertyListDictionary.indexThreshold ? PlistLazyKeyIndex() : nil
  }

  @inline(__always)
  private func keyEntry(_ position: Int) -> Int { tape.member(start &+ position &* 2) }

  func keyObject(at position: Int) -> Int { -1 }

  @inline(__always)
  func key(at position: Int, is keyObject: Int, _ wanted: String) -> Bool {
    guard position >= 0, position < count else { return false }
    return tape.key(keyEntry(position), equals: wanted)
  }

  func key(at position: Int) -> String { tape.keyText(keyEntry(position)) }

  @inline(__always)
  func value(at position: Int) -> PlistDecodingNode {
    tape.node(tape.member(start &+ position &* 2 &+ 1))
  }

  @inline(__always)
  func key(at position: Int, equals wanted: String) -> Bool {
    tape.key(keyEntry(position), equals: wanted)
  }

  func search(_ wanted: String) -> (position: Int?, keyObject: Int) {
    guard let lazyIndex else {
      var text = wanted
      let found = text.withUTF8 { bytes in
        let ascii = XMLPlistTapeSink.isASCII(bytes)
        for position in 0..<count where tape.key(keyEntry(position), equals: bytes, wantedIsASCII: ascii, wanted) {
          return Optional(position)
        }
        return nil
      }
      return (found, -1)
    }
    if lazyIndex.table == nil {
      var table: [String: Int] = [:]
      table.reserveCapacity(count)
      for position in 0..<count { table[key(at: position)] = position }
      lazyIndex.table = table
    }
    return (lazyIndex.table?[wanted], -1)
  }

  func locate(keyObject: Int) -> Int?? { nil }
}
