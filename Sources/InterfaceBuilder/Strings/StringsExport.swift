public import StasisSystem
import FoundationEssentials
import PropertyLists

/// One localizable string of an Interface Builder document: an entry of the `.strings` file that
/// `ibtool --export-strings-file OUT.strings IN.xib` writes, keyed `"<ObjectID>.<property>"`.
///
/// ```text
/// /* Class = "UILabel"; text = "Statistics"; ObjectID = "Rk6-Nm-3ol"; */
/// "Rk6-Nm-3ol.text" = "Statistics";
/// ```
public struct LocalizableString: Sendable, Hashable {
  /// The `id` of the object the string belongs to (`Rk6-Nm-3ol`, or `170` in older xibs).
  public var objectID: String
  /// The class Interface Builder names in the comment: the element's UIKit or AppKit class
  /// (`UILabel`, `NSButtonCell`), never the document's `customClass`.
  public var className: String
  /// The property as Apple names it: `text`, `normalTitle`, `segmentTitles[0]`,
  /// `headerCell.title`, `ibShadowedToolTip`, …
  public var property: String
  /// The string in the document.
  public var value: String
  /// Where the value is written in the document, for `--import-strings-file`.
  let site: Site

  /// The key of the entry: `"<objectID>.<property>"`.
  public var key: String { objectID + "." + property }

  /// An entry not taken from a document (to write a `.strings` file of one's own); it cannot be
  /// imported, since it has no place in a document.
  public init(objectID: String, className: String, property: String, value: String) {
    self.init(objectID: objectID, className: className, property: property, value: value, site: Site(element: -1, attribute: nil))
  }

  init(objectID: String, className: String, property: String, value: String, site: Site) {
    self.objectID = objectID
    self.className = className
    self.property = property
    self.value = value
    self.site = site
  }

  /// An element, counted in document order from the root (0), and the attribute that holds the
  /// value, or `nil` when the value is the element's character data (`<string key="title">`).
  struct Site: Hashable, Sendable {
    var element: Int
    var attribute: String?
  }
}

/// `ibtool --export-strings-file`: the localizable strings of a xib or storyboard and the
/// `.strings` file Apple writes for them.
///
/// ```swift
/// let export = StringsExport(InterfaceDocument(contentsOfFile: "Main.storyboard"))
/// try export.write(toFile: "Main.strings")          // UTF-16, little-endian, with a BOM
/// ```
///
/// Which strings are localizable (Apple exports a property only when the document has it):
///
/// | element | properties |
/// |---|---|
/// | iOS `label`, `textField`, `textView`, `searchBar` | `text`, `placeholder`, `prompt`, `scopeButtonTitles[i]` |
/// | iOS `button` | `normalTitle`, `highlightedTitle`, … (one per `<state>`), `configuration.title`, `configuration.subtitle` |
/// | iOS `navigationItem`, `barButtonItem`, `tabBarItem` | `title`, `prompt`, `backButtonTitle` |
/// | iOS `segmentedControl` | `segmentTitles[i]` |
/// | iOS `tableViewSection` | `headerTitle`, `footerTitle` |
/// | any view controller (both platforms) | `title` |
/// | iOS `<accessibility>` of an object | `accessibilityLabel`, `accessibilityHint` |
/// | macOS `menu`, `menuItem`, `window`, `box` | `title` |
/// | macOS text cells (`textFieldCell`, `searchFieldCell`, …) | `title`, `placeholderString` |
/// | macOS `buttonCell` | `title`, `alternateTitle` |
/// | macOS `tableColumn` | `headerCell.title` |
/// | macOS `segmentedCell` | `ibShadowedLabels[i]` |
/// | macOS `tabViewItem`, `toolbarItem` | `label`, `paletteLabel`, `toolTip` |
/// | macOS views | `ibShadowedToolTip` |
///
/// A property may also be written as a `<string key="…">` child (multi-line titles), which is
/// read the same way.
public struct StringsExport: Sendable {
  /// The entries, sorted by key, as Apple's file lists them.
  public var entries: [LocalizableString]

  /// Collects the localizable strings of `document`.
  public init(_ document: InterfaceDocument) {
    var collector = Collector(platform: document.platform)
    var index = 0
    collector.visit(document.root, position: 0, index: &index, ancestors: [])
    var seen = Set<String>()
    entries = collector.entries.filter { seen.insert($0.key).inserted }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
  }

  /// The text of the `.strings` file: a newline, then for each entry Apple's comment
  /// (`/* Class = "…"; property = "…"; ObjectID = "…"; */`) and its `"key" = "value";` line,
  /// entries separated by a blank line.
  ///
  /// - Parameter translations: values to write instead of the entries' own, by key; the comments
  ///   keep the document's value, as in a translated copy of the file.
  public func text(translations: [String: String] = [:]) -> String {
    var text = "\n"
    for (position, entry) in entries.enumerated() {
      if position > 0 { text += "\n" }
      text += "/* Class = \(QuotedText.stringsToken(entry.className)); \(entry.property) = \(QuotedText.stringsToken(entry.value)); ObjectID = \(QuotedText.stringsToken(entry.objectID)); */\n"
      text += "\(QuotedText.stringsToken(entry.key)) = \(QuotedText.stringsToken(translations[entry.key] ?? entry.value));\n"
    }
    return text
  }

  /// How the `.strings` file is encoded.
  public enum Encoding: Sendable, Hashable {
    /// UTF-16, little-endian, after the byte-order mark `FF FE`: what `ibtool --export-strings-file` writes.
    case utf16
    /// UTF-8 without a byte-order mark: how Xcode keeps a localization's `.strings` in a project.
    case utf8
  }

  /// The file's bytes in `encoding`.
  public func bytes(encoding: Encoding = .utf16, translations: [String: String] = [:]) -> [UInt8] {
    let text = text(translations: translations)
    switch encoding {
    case .utf8:
      return Array(text.utf8)
    case .utf16:
      var bytes: [UInt8] = [0xFF, 0xFE]
      bytes.reserveCapacity(2 + 2 * text.utf16.count)
      for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
      return bytes
    }
  }

  /// Writes the `.strings` file to `path` atomically (`--export-strings-file path`), through
  /// `environment`'s file system.
  ///
  /// - Throws: ``InterfaceBuilderError`` `.fileSystem` when the file cannot be written.
  public func write(
    toFile path: String, encoding: Encoding = .utf16, environment: HostEnvironment = .current
  ) throws(InterfaceBuilderError) {
    try writeAtomically(bytes(encoding: encoding), toFile: path, fileSystem: environment.fileSystem)
  }
}

/// Writes `bytes` to `path` atomically through `fileSystem`, so that a failure leaves no
/// half-written file.
func writeAtomically(_ bytes: [UInt8], toFile path: String, fileSystem: any FileSystem) throws(InterfaceBuilderError) {
  do {
    try fileSystem.write(Data(bytes), toFile: path)
  } catch {
    throw InterfaceBuilderError(.fileSystem, path: path, detail: "cannot write the file: \(error.detail)", underlying: error)
  }
}

/// Walks the element tree in document order, numbering elements as it goes, and collects what
/// each element makes localizable — for itself or, for the parts Interface Builder writes as
/// child elements (`<state>`, `<segment>`, `<string key="title">`), for the object above it.
private struct Collector {
  let platform: InterfaceDocument.Platform
  var entries: [LocalizableString] = []

  /// Visits `element`, the child at `position` of the last of `ancestors`, numbered `index`.
  mutating func visit(_ element: InterfaceDocument.Element, position: Int, index: inout Int, ancestors: [InterfaceDocument.Element]) {
    collect(element, position: position, index: index, ancestors: ancestors)
    index += 1
    let inner = ancestors + [element]
    for (position, child) in element.children.enumerated() { visit(child, position: position, index: &index, ancestors: inner) }
  }

  mutating func add(_ object: InterfaceDocument.Element, _ property: String, _ value: String, _ index: Int, _ attribute: String?) {
    guard let id = object["id"] else { return }
    entries.append(
      LocalizableString(objectID: id, className: className(of: object), property: property, value: value,
                        site: .init(element: index, attribute: attribute)))
  }

  mutating func collect(_ element: InterfaceDocument.Element, position: Int, index: Int, ancestors: [InterfaceDocument.Element]) {
    let parent = ancestors.last
    let grandparent = ancestors.dropLast().last
    // The element's own localizable attributes.
    for attribute in element.attributes {
      if let property = property(of: element, attribute.name) { add(element, property, attribute.value, index, attribute.name) }
    }
    guard let parent else { return }
    switch (element.name, platform) {
    case ("string", _):
      if let key = element["key"] {
        if parent.name == "state", let button = grandparent, let state = parent["key"], key == "title" {
          add(button, state + "Title", element.text, index, nil)
        } else if let property = property(of: parent, key) {
          add(parent, property, element.text, index, nil)
        }
      } else if parent.name == "scopeButtonTitles", let searchBar = grandparent {
        add(searchBar, "scopeButtonTitles[\(position)]", element.text, index, nil)
      }
    case ("state", .iOS):
      if let state = element["key"], let title = element["title"] { add(parent, state + "Title", title, index, "title") }
    case ("buttonConfiguration", .iOS):
      for name in ["title", "subtitle"] { if let text = element[name] { add(parent, "configuration." + name, text, index, name) } }
    case ("accessibility", .iOS):
      if let label = element["label"] { add(parent, "accessibilityLabel", label, index, "label") }
      if let hint = element["hint"] { add(parent, "accessibilityHint", hint, index, "hint") }
    case ("tableHeaderCell", .macOS) where parent.name == "tableColumn":
      if let title = element["title"] { add(parent, "headerCell.title", title, index, "title") }
    case ("segment", _):
      guard parent.name == "segments", let control = grandparent else { return }
      if platform == .iOS, let title = element["title"] {
        add(control, "segmentTitles[\(position)]", title, index, "title")
      } else if platform == .macOS, let label = element["label"] {
        add(control, "ibShadowedLabels[\(position)]", label, index, "label")
      }
    default:
      break
    }
  }

  /// The exported name of `element`'s localizable property `name` (an attribute, or the `key` of
  /// a `<string>` child), or `nil` when it is not localizable.
  func property(of element: InterfaceDocument.Element, _ name: String) -> String? {
    let object = element.name
    if name == "title" && object.hasSuffix("Controller") { return "title" }
    switch platform {
    case .iOS:
      switch (object, name) {
      case ("label", "text"), ("textField", "text"), ("textField", "placeholder"), ("textView", "text"),
        ("searchBar", "text"), ("searchBar", "placeholder"), ("searchBar", "prompt"),
        ("navigationItem", "title"), ("navigationItem", "prompt"), ("navigationItem", "backButtonTitle"),
        ("barButtonItem", "title"), ("tabBarItem", "title"),
        ("tableViewSection", "headerTitle"), ("tableViewSection", "footerTitle"):
        return name
      default: return nil
      }
    case .macOS:
      switch (object, name) {
      case ("menu", "title"), ("menuItem", "title"), ("window", "title"), ("box", "title"),
        ("buttonCell", "title"), ("buttonCell", "alternateTitle"),
        ("tabViewItem", "label"), ("toolbarItem", "label"), ("toolbarItem", "paletteLabel"),
        ("menuItem", "toolTip"), ("toolbarItem", "toolTip"), ("tabViewItem", "toolTip"):
        return name
      case (_, "title"), (_, "placeholderString"):
        return Self.textCells.contains(object) ? name : nil
      case (_, "toolTip"):
        return "ibShadowedToolTip"
      default: return nil
      }
    }
  }

  static let textCells: Set<String> = [
    "textFieldCell", "secureTextFieldCell", "searchFieldCell", "tokenFieldCell", "comboBoxCell", "formCell",
  ]

  /// The class Apple names for an element: `UI`/`NS` and the element name capitalized
  /// (`tableViewController` → `UITableViewController`), except where IB's element is not named
  /// after its class.
  func className(of element: InterfaceDocument.Element) -> String {
    switch element.name {
    case "customView": return "NSView"
    case "avPlayerViewController": return "AVPlayerViewController"
    default: return (platform == .iOS ? "UI" : "NS") + element.name.prefix(1).uppercased() + element.name.dropFirst()
    }
  }
}
