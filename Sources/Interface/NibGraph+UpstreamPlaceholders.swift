extension NibGraph {
  /// The nibs of one compiled iOS storyboard with their upstream placeholders renamed for
  /// comparison: ibtool names each `UpstreamPlaceholder-<id>` with a fresh random Interface
  /// Builder id every compile (two compiles of one storyboard by one Xcode differ there), so
  /// each is renamed after what it stands for — `UpstreamPlaceholder-{<view nib>:<class>}`, the
  /// view's nib (`UINibName`) and the class of the object its controller's
  /// `UIExternalObjectsTableForViewLoading` maps it to (a class swapper's original class). Names
  /// no table maps keep their text, so a view's nib naming a placeholder its controller does not
  /// map still differs.
  public static func renamingUpstreamPlaceholders(in nibs: [String: NibGraph]) -> [String: NibGraph] {
    var names: [String: String] = [:]
    for graph in nibs.values {
      for object in graph.objects where object["UIExternalObjectsTableForViewLoading"] != nil {
        guard case .object(let table)? = object["UIExternalObjectsTableForViewLoading"], graph.objects.indices.contains(table),
          let members = graph.members(of: table)
        else { continue }
        let nibName = graph.text(of: object, forKey: "UINibName") ?? ""
        for pair in stride(from: 0, to: members.count - 1, by: 2) {
          guard let key = graph.text(of: members[pair]), graph.objects.indices.contains(members[pair + 1]) else { continue }
          let target = graph.objects[members[pair + 1]]
          let className = target.className == "UIClassSwapper" ? graph.text(of: target, forKey: "UIOriginalClassName") ?? "" : target.className
          names[key] = "UpstreamPlaceholder-{\(nibName):\(className)}"
        }
      }
    }
    guard !names.isEmpty else { return nibs }
    var renamed = nibs
    for (name, graph) in nibs {
      var copy = graph
      for index in copy.objects.indices {
        guard let text = copy.text(of: index), text.hasPrefix("UpstreamPlaceholder-"), let canonical = names[text] else { continue }
        copy.objects[index].entries = [Entry("NS.bytes", .data(Array(canonical.utf8)))]
      }
      renamed[name] = copy
    }
    return renamed
  }
}
