import Interface

extension CocoaNibCompiler {
  // MARK: Connections

  /// The `<outlet>`, `<action>` and `<binding>` children of every `<connections>` of `element`, with `source`.
  mutating func compileConnections(of element: InterfaceDocument.Element, source: Int) throws(InterfaceBuilderError) {
    for connections in element.children("connections") { try compileConnections(connections, source: source) }
  }

  /// The `<outlet>`, `<action>` and `<binding>` children of one `<connections>`, with `source`.
  mutating func compileConnections(_ connections: InterfaceDocument.Element, source: Int) throws(InterfaceBuilderError) {
    for connection in connections.children {
      switch connection.name {
      case "outlet":
        guard let property = connection["property"], let destination = connection["destination"] else {
          throw invalid(connection, "an outlet needs property and destination")
        }
        let connector = try begin(connection, className: "NSNibOutletConnector", parent: nil)
        graph[connector].entries = [
          .init("NSSource", .object(source)), .init("NSDestination", .object(object(forID: destination, line: connection.line))),
          .init("NSLabel", string(property)), .init("NSChildControllerCreationSelectorName", .null),
        ]
        outletConnections.append(connector)
      case "action":
        guard let selector = connection["selector"], let target = connection["target"] else {
          throw invalid(connection, "an action needs selector and target")
        }
        let connector = try begin(connection, className: "NSNibControlConnector", parent: nil)
        var entries: [NibGraph.Entry] = [.init("NSSource", .object(source))]
        if !firstResponderIDs.contains(target) { entries.append(.init("NSDestination", .object(object(forID: target, line: connection.line)))) }
        entries.append(.init("NSLabel", string(selector)))
        graph[connector].entries = entries
        actionConnections.append(connector)
      case "binding":
        try compileBinding(connection, source: source)
      default:
        throw unsupported(connection)
      }
    }
  }
}
