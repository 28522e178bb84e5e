public import FoundationEssentials
public import PropertyLists

// `LastRestore.plist`: the last restoration's report, kept beside the snapshots so that
// `restoration why` can say what happened to a node after the app is gone.

extension RestorationReport {
  /// The report as the property list `LastRestore.plist` holds, written at `date`: the outcome,
  /// the notes, how many nodes there were and were restored, and an entry for every node not
  /// restored or with notes.
  public func propertyList(writtenAt date: Date) -> PropertyListValue {
    var root: PropertyListDictionary = [
      "outcome": .string(outcome.description), "date": .date(date),
      "notes": .array(notes.map { .string($0) }),
    ]
    if let snapshotPath { root["snapshot"] = .string(snapshotPath) }
    // Nodes restored plainly are counted, not listed: the file stays small for large trees.
    root["nodeCount"] = .integer(nodes.count)
    // Counted, not filtered into a new array (a copy of every restored outcome showed in profiles).
    root["restoredCount"] = .integer(nodes.count { $0.isRestored })
    root["nodes"] = .array(
      nodes.filter { !$0.isRestored || !$0.notes.isEmpty }.map { node in
        var entry: PropertyListDictionary = ["path": .array(node.path.map { .string($0) }), "class": .string(node.className)]
        if let by = node.restoredBy { entry["restoredBy"] = .string(by) }
        if let why = node.notRestoredBecause { entry["notRestoredBecause"] = .string(why) }
        if !node.notes.isEmpty { entry["notes"] = .array(node.notes.map { .string($0) }) }
        return .dictionary(entry)
      })
    return .dictionary(root)
  }

  /// Reads a `LastRestore.plist` (its ``nodes`` are the ones it lists: those not restored or
  /// with notes); `nil` when it is not one.
  public init?(propertyList: PropertyListValue) {
    guard case .dictionary(let root) = propertyList, let outcomeText = root["outcome"]?.stringValue,
      case .array(let entries)? = root["nodes"]
    else { return nil }
    var nodes: [NodeOutcome] = []
    for case .dictionary(let entry) in entries {
      guard case .array(let pathValues)? = entry["path"], let className = entry["class"]?.stringValue else { continue }
      var node = NodeOutcome(path: pathValues.compactMap { $0.stringValue }, className: className)
      node.restoredBy = entry["restoredBy"]?.stringValue
      node.notRestoredBecause = entry["notRestoredBecause"]?.stringValue
      if case .array(let notes)? = entry["notes"] { node.notes = notes.compactMap { $0.stringValue } }
      nodes.append(node)
    }
    var notes: [String] = []
    if case .array(let list)? = root["notes"] { notes = list.compactMap { $0.stringValue } }
    self.init(outcome: RestoreOutcome(description: outcomeText), snapshotPath: root["snapshot"]?.stringValue, nodes: nodes, notes: notes)
  }
}

extension RestoreOutcome {
  /// The outcome a ``description`` names (as `LastRestore.plist` keeps it).
  init(description text: String) {
    func inner(_ prefix: String) -> String? {
      guard text.hasPrefix(prefix), text.hasSuffix(")") else { return nil }
      return String(text.dropFirst(prefix.count).dropLast())
    }
    if text == "restored" {
      self = .restored
    } else if let why = inner("recovered from the previous snapshot (") {
      self = .recoveredFromPrevious(why)
    } else if let why = inner("discarded (") {
      self = .discarded(why)
    } else {
      self = .freshLaunch
    }
  }
}
