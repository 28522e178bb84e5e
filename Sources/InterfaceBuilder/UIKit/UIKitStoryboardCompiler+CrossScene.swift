internal import Interface

/// Connections between two scenes: each scene compiles to nibs of its own, which UIKit loads
/// apart, so an outlet or action from an object of one scene to an object of another cannot be
/// made. Interface Builder does not let one draw such a connection; a document holds one only
/// when edited by hand or merged. It is left out of the nibs, and the compile says so: a warning
/// naming the connection, both objects and both scenes, filed under the nib of the scene whose
/// object holds it (what `ibtool --compile` prints among its warnings, with the nib's name).
extension UIKitStoryboardCompiler {
  /// The warnings for the connections of `document` that cross scenes, by scene nib name.
  static func crossSceneWarnings(
    _ document: InterfaceDocument, scenes: [(scene: InterfaceDocument.Element, controller: InterfaceDocument.Element)],
    identifiers: [String: String]
  ) -> [String: [CompilerWarning]] {
    // Every object of the document by id, with the scene it belongs to.
    var owners: [String: (element: InterfaceDocument.Element, scene: Int)] = [:]
    for (index, entry) in scenes.enumerated() {
      var stack = [entry.scene]
      while let element = stack.popLast() {
        if element.name == "connections" { continue }
        if let id = element["id"] { owners[id] = (element, index) }
        stack.append(contentsOf: element.children)
      }
    }
    var warnings: [String: [CompilerWarning]] = [:]
    for (index, entry) in scenes.enumerated() {
      let sceneName = identifiers[entry.controller["id"] ?? ""] ?? ""
      var stack = [entry.scene]
      while let element = stack.popLast() {
        stack.append(contentsOf: element.children.filter { $0.name != "connections" })
        for connection in element.child("connections")?.children ?? [] where ["outlet", "outletCollection", "action"].contains(connection.name) {
          guard let id = connection["destination"], let destination = owners[id], destination.scene != index else { continue }
          let otherScene = identifiers[scenes[destination.scene].controller["id"] ?? ""] ?? ""
          let name = connection["property"] ?? connection["selector"] ?? ""
          let detail =
            "\"\(name)\" from \(describe(element)) to \(describe(destination.element)), an object of the scene \(otherScene): "
            + "left out, as a connection cannot join two scenes (each scene is a nib of its own)"
          warnings[sceneName, default: []].append(CompilerWarning(path: document.path, line: connection.line, element: connection.name, detail: detail))
        }
      }
    }
    for key in warnings.keys { warnings[key]?.sort { $0.line < $1.line } }
    return warnings
  }

  /// An object as Interface Builder's outline names it: its label, else its custom class, else
  /// its element, with its id.
  static func describe(_ element: InterfaceDocument.Element) -> String {
    let name = element["userLabel"] ?? element["customClass"] ?? element.name
    return "\"\(name)\" (\(element["id"] ?? "no id"))"
  }
}
