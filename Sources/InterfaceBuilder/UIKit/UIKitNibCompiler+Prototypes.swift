import Interface

/// Prototype cells of a storyboard's table and collection views, each a nib of its own inside
/// the view's nib, and the keys of a table view cell.
extension UIKitNibCompiler {
  /// A table's `<prototypes>` (a collection view's `<cells>`): `UITableViewCellPrototypeNibs`
  /// (`UICollectionViewCellPrototypeNibs`), reuse identifier → `UINib` whose `archiveData` is the
  /// cell's nib (the cell, File's Owner, First Responder, and an upstream placeholder for each
  /// object outside the cell it connects to), and `…PrototypeNibExternalObjects`, reuse identifier
  /// → the table of those placeholders. Evidence: MPSurvey's table (Xcode 7.3.1); the collection
  /// view's keys are the ones UIKit's decoder reads (no Apple sample).
  mutating func prototypeEntries(_ element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> [NibGraph.Entry] {
    let table = element.name == "tableView"
    guard let list = element.child(table ? "prototypes" : "cells") else { return [] }
    var nibs: [Int] = []
    var externals: [Int] = []
    for cell in list.children where Self.cells.contains(cell.name) {
      guard let reuseIdentifier = cell["reuseIdentifier"] else { throw invalid(cell, "a prototype cell needs a reuseIdentifier") }
      var inside: Set<String> = []
      var stack = [cell]
      while let next = stack.popLast() {
        if next.name == "connections" { continue }
        if let id = next["id"] { inside.insert(id) }
        stack.append(contentsOf: next.children)
      }
      foreignIDs.formUnion(inside)
      var nested = UIKitNibCompiler(document: document, options: options)
      let owner = nested.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(nested.graph.string("IBFilesOwner")))])
      let firstResponder = nested.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(nested.graph.string("IBFirstResponder")))])
      // Objects outside the cell that its connections reach: upstream placeholders.
      var upstream: [(name: String, id: String, proxy: Int)] = []
      stack = [cell]
      while let next = stack.popLast() {
        for connection in next.child("connections")?.children ?? [] where connection.name != "segue" {
          guard let id = connection["destination"], !inside.contains(id), !upstream.contains(where: { $0.id == id }) else { continue }
          let name = UIKitStoryboardCompiler.upstreamIdentifier(reuseIdentifier + "/" + id)
          let proxy = nested.graph.add("UIProxyObject", [.init("UIProxiedObjectIdentifier", .object(nested.graph.string(name)))])
          nested.objectsByID[id] = proxy
          upstream.append((name, id, proxy))
        }
        stack.append(contentsOf: next.children)
      }
      guard let cellObject = try nested.compileObject(cell) else { continue }
      nested.topLevel = [cellObject, owner, firstResponder] + upstream.map(\.proxy)
      nested.objects.insert(contentsOf: [owner, firstResponder] + upstream.map(\.proxy), at: 1)
      let bytes = NIBArchive(try nested.finish(), keepingUnreachable: false).encoded()
      let nib = graph.add(
        "UINib", [.init("captureEnclosingNIBBundleOnDecode", .bool(true)), .init("archiveData", .object(graph.data(bytes)))])
      let externalTable = graph.collection("NSMutableDictionary", [])
      deferredExternalTables.append((externalTable, upstream.map { ($0.name, $0.id) }))
      nibs += [graph.string(reuseIdentifier), nib]
      externals += [graph.string(reuseIdentifier), externalTable]
    }
    guard !nibs.isEmpty else { return [] }
    let prefix = table ? "UITableViewCellPrototype" : "UICollectionViewCellPrototype"
    return [
      .init(prefix + "Nibs", .object(graph.collection("NSMutableDictionary", nibs))),
      .init(prefix + "NibExternalObjects", .object(graph.collection("NSMutableDictionary", externals))),
    ]
  }

  /// Fills the prototype nibs' external object tables once every object of this nib exists.
  mutating func compileExternalTables() throws(InterfaceBuilderError) {
    for (table, entries) in deferredExternalTables {
      for (name, id) in entries {
        guard let object = objectsByID[id] else {
          throw InterfaceBuilderError(
            .invalidDocument, path: document.path, line: document.root.line, detail: "a prototype cell connects to \(id), which the document does not define")
        }
        graph.objects[table].entries += [.init("UINibEncoderEmptyKey", .object(graph.string(name))), .init("UINibEncoderEmptyKey", .object(object))]
      }
    }
  }

  static let selectionStyles = ["none": 0, "blue": 1, "gray": 2, "default": 3]

  /// A table view cell's keys (MPSurvey's prototype, Xcode 7.3.1): `UIReuseIdentifier`,
  /// `UISelectionStyle` and `UIIndentationWidth` as the document gives them,
  /// `UITableCellBackgroundColorSet` with a background colour, the content view, and the
  /// standard labels and image view not made (`nil`).
  mutating func tableViewCellEntries(_ element: InterfaceDocument.Element, contentView: Int?) -> [NibGraph.Entry] {
    var entries: [NibGraph.Entry] = []
    if let reuse = element["reuseIdentifier"] { entries.append(.init("UIReuseIdentifier", .object(graph.string(reuse)))) }
    if let style = element["selectionStyle"].flatMap({ Self.selectionStyles[$0] }) { entries.append(.init("UISelectionStyle", NibGraph.integer(style))) }
    if let width = element.double("indentationWidth") { entries.append(.init("UIIndentationWidth", .float32(Float(width)))) }
    if element.child("color", key: "backgroundColor") != nil { entries.append(.init("UITableCellBackgroundColorSet", .bool(true))) }
    if let contentView { entries.append(.init("UIContentView", .object(contentView))) }
    entries += [.init("UITextLabel", .null), .init("UIDetailTextLabel", .null), .init("UIImageView", .null)]
    return entries
  }
}

extension UIKitNibCompiler {
  /// A table view cell's content view, archived as the document describes it (class
  /// `UITableViewCellContentView`, the cell's background colour when it has none), one point
  /// shorter than the cell above the cell's `_UITableViewCellSeparatorView` (15 points in, one
  /// high). One sample: MPSurvey's prototype (Xcode 7.3.1).
  mutating func tableCellContentView(_ content: InterfaceDocument.Element, cell: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard let view = try compileObject(content) else { throw invalid(content, "a cell's content view that is no view") }
    graph[view].fallbacks = ["UIView"]
    let frame = content.child("rect", key: "frame")
    let (width, height) = (frame?.double("width") ?? 320, max((frame?.double("height") ?? 44) - 1, 0))
    var entries = graph[view].entries
    if let index = entries.firstIndex(where: { $0.key == "UIBounds" }) { entries[index] = .init("UIBounds", Self.geometry([0, 0, width, height])) }
    if let index = entries.firstIndex(where: { $0.key == "UICenter" }) { entries[index] = .init("UICenter", Self.geometry([width / 2, height / 2])) }
    if !entries.contains(where: { $0.key == "UIBackgroundColor" }), let color = color(cell, key: "backgroundColor") {
      entries.insertOrdered(.init("UIBackgroundColor", .object(color)))
    }
    graph[view].entries = entries
    return view
  }

  /// The separator a table view cell draws under its content view.
  mutating func tableCellSeparator(cellWidth: Double, cellHeight: Double) -> Int {
    let (x, width) = (15.0, max(cellWidth - 15, 0))
    return graph.add(
      "_UITableViewCellSeparatorView",
      [
        .init("UIBounds", Self.geometry([0, 0, width, 1])), .init("UICenter", Self.geometry([x + width / 2, cellHeight - 0.5])),
        .init("UIOpaque", .bool(true)), .init("UIAutoresizeSubviews", .bool(true)), .init("UIViewSemanticContentAttribute", NibGraph.integer(0)),
      ])
  }
}
