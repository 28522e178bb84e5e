/// The views whose ``View/restoresFirstResponder`` was set to `true`, held weakly: what the
/// `Restoration` module's last pass asks, instead of reading the flag of every view a restore
/// made. Thousands of restored views were made long before that pass, so reading each one's flag
/// was a cache miss per view (two, with the retain around the read; profiled: 4 % of a 10,000-node
/// restore), for the one view, at most, that asks.
///
/// A view is noted when its flag turns from `false` to `true`; a noted view whose flag is `false`
/// again, or that is gone, is forgotten the next time the list is read or grows past its room.
@MainActor package enum FirstResponderRequests {
  private struct Entry {
    weak var view: View?
  }

  private static var entries: [Entry] = []
  /// How many entries are kept before those no longer asking are swept out.
  private static var room = 64

  static func note(_ view: View) {
    if entries.count >= room {
      sweep()
      room = max(64, entries.count * 2)
    }
    entries.append(Entry(view: view))
  }

  /// The views asking now (their flag set), in the order they asked; the others are forgotten.
  package static func asking() -> [View] {
    guard !entries.isEmpty else { return [] }
    sweep()
    var views: [View] = []
    for entry in entries {
      if let view = entry.view { views.append(view) }
    }
    return views
  }

  private static func sweep() {
    var kept: [Entry] = []
    for entry in entries {
      if let view = entry.view, view.restoresFirstResponder { kept.append(entry) }
    }
    entries = kept
  }
}
