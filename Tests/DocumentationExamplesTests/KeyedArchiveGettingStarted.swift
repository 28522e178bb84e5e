// The code of Sources/KeyedArchive/KeyedArchive.docc/Articles/GettingStarted.md (snippets named
// `archive-…`) and of its ArchiveFormat article (`format-…`), compiled and run.
//
// Each region between `// snippet: <name>` and `// end-snippet` appears verbatim (less its
// indentation) as a ```swift block in those articles; SnippetSyncTests checks that they agree.
// Like the article's reader, this file imports KeyedArchive and PropertyLists only.
import KeyedArchive
import PropertyLists
import Testing

// snippet: archive-classes
final class Folder: ArchiveEncodable, ArchiveDecodableInPlace {
  var name = ""
  weak var parent: Folder?
  var children: [Folder] = []
  var tags: [Tag] = []

  init() {}   // the unarchiver calls init(), records the object, then decode(from:)

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(name, forKey: "name")
    try coder.encode(parent, forKey: "parent")
    try coder.encode(children, forKey: "children")
    try coder.encode(tags, forKey: "tags")
  }

  func decode(from coder: ArchiveDecoder) throws {
    name = try coder.decodeRequired(String.self, forKey: "name")
    parent = try coder.decode(Folder.self, forKey: "parent")
    children = try coder.decode([Folder].self, forKey: "children") ?? []
    tags = try coder.decode([Tag].self, forKey: "tags") ?? []
  }
}

final class Tag: ArchiveEncodable, ArchiveDecodable {
  let label: String
  let color: Int

  init(label: String, color: Int) {
    self.label = label
    self.color = color
  }

  init(coder: ArchiveDecoder) throws {   // one step: a Tag cannot take part in a cycle
    label = try coder.decodeRequired(String.self, forKey: "label")
    color = try coder.decodeInteger(forKey: "color")
  }

  func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(label, forKey: "label")
    coder.encode(color, forKey: "color")
  }
}
// end-snippet

/// The graph the articles archive: a root folder with two children that share one tag.
func makeFolders() -> Folder {
  // snippet: archive-graph
  let urgent = Tag(label: "urgent", color: 1)
  let root = Folder()
  root.name = "Documents"
  for name in ["Taxes", "Letters"] {
    let child = Folder()
    child.name = name
    child.parent = root          // a cycle: child → parent → children → child
    child.tags = [urgent]        // one Tag instance, referenced twice
    root.children.append(child)
  }
  // end-snippet
  return root
}

@Suite("KeyedArchive: Getting Started")
struct KeyedArchiveGettingStartedTests {
  @Test("Register, archive, unarchive")
  func roundTrip() throws {
    let root = makeFolders()
    // snippet: archive-round-trip
    var registry = ArchiveClassRegistry.foundation   // NSString, NSArray, NSDate, … built in
    registry.register(Folder.self, as: "Folder", supportsSecureCoding: true)
    registry.register(Tag.self, as: "Tag", supportsSecureCoding: true)

    let data = try KeyedArchiver.archivedData(withRootObject: root, registry: registry)
    let copy = try KeyedUnarchiver.unarchivedObject(ofClass: Folder.self, from: data, registry: registry)
    // end-snippet
    #expect(Array(data.prefix(8)) == Array("bplist00".utf8))
    // snippet: archive-identity
    guard let documents = copy else { return }   // nil only when the archived root was nil
    let taxes = documents.children[0], letters = documents.children[1]
    let cycleRestored = taxes.parent === documents            // true
    let tagShared = taxes.tags[0] === letters.tags[0]         // true: one Tag, decoded once
    // end-snippet
    #expect(cycleRestored)
    #expect(tagShared)
    #expect(documents.name == "Documents")
    #expect(documents.children.map(\.name) == ["Taxes", "Letters"])
    #expect(letters.parent === documents)
    #expect(taxes.tags[0] === letters.tags[0])
    #expect(taxes.tags[0].label == "urgent")
  }

  @Test("Secure decoding refuses classes that were not asked for")
  func secure() throws {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Folder.self, as: "Folder", supportsSecureCoding: true)
    registry.register(Tag.self, as: "Tag", supportsSecureCoding: true)
    let data = try KeyedArchiver.archivedData(withRootObject: makeFolders(), registry: registry)
    // snippet: archive-secure
    do {
      _ = try KeyedUnarchiver.unarchivedObject(ofClass: Tag.self, from: data, registry: registry)
    } catch KeyedArchiveError.Code.classNotAllowed {
      // the root is a Folder: refused before any Folder is created
    }
    // end-snippet
    let error = try #require(throws: KeyedArchiveError.self) {
      try KeyedUnarchiver.unarchivedObject(ofClass: Tag.self, from: data, registry: registry)
    }
    #expect(error.code == .classNotAllowed)
  }

  @Test("Foundation values need no registration")
  func foundationValues() throws {
    // snippet: archive-foundation
    let recent: [String: [String]] = ["files": ["a.txt", "b.txt"], "folders": ["Taxes"]]
    let archive = try KeyedArchiver.archivedData(withRootObject: recent, format: .xml)

    // Secure: the requested type names the allowed classes (NSDictionary, NSArray, NSString).
    let back = try KeyedUnarchiver.unarchivedObject(ofClass: [String: [String]].self, from: archive)

    // Trusted archives only: any registered class, returned as Any.
    let anything = try KeyedUnarchiver.unarchiveTopLevelObject(from: archive) as? [AnyHashable: Any]
    // end-snippet
    #expect(back == recent)
    #expect(anything?["files"] as? [Any] != nil)
    #expect((anything?["folders"] as? [Any])?.first as? String == "Taxes")
    #expect(Array(archive.prefix(5)) == Array("<?xml".utf8))
  }

  @Test("Reading the archive's own layout")
  func layout() throws {
    // snippet: format-layout
    let archive = try KeyedArchiver.archivedData(withRootObject: ["baa", "baa", "black"])
    let plist = try PropertyListValue(decoding: archive)
    let archiver = plist["$archiver"]                       // "NSKeyedArchiver"
    let version = plist["$version"]                         // 100000
    let root = plist.value(atKeyPath: "$top.root")          // .uid(1)
    let objects = plist["$objects"]?.arrayValue ?? []       // "$null", the array, "baa", "black", its class
    let dump = try ArchiveDump.render(plist)                // what `plutil -archive` prints
    // end-snippet
    #expect(archiver == PropertyListValue.string("NSKeyedArchiver"))
    #expect(version == PropertyListValue.integer(100_000))
    #expect(root == PropertyListValue.uid(1))
    #expect(objects.count == 5)
    #expect(objects.first == PropertyListValue.string("$null"))
    let references: [PropertyListValue] = [.uid(2), .uid(2), .uid(3)]
    #expect(objects[1]["NS.objects"]?.arrayValue == references)
    #expect(objects[4]["$classname"]?.stringValue == "NSArray")
    let classes: [PropertyListValue] = ["NSArray", "NSObject"]
    #expect(objects[4]["$classes"]?.arrayValue == classes)
    #expect(dump.contains("NSArray"))
  }
}
