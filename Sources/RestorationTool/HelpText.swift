/// The text of `restoration --help`, also printed after a usage error.
enum HelpText {
  static let text = """
    usage: restoration dump SNAPSHOT
           restoration diff SNAPSHOT SNAPSHOT
           restoration why PATH SNAPSHOT

    Reads the state-restoration snapshots an app saved.

      dump   the metadata, the app-wide values, every saved view controller and view
             (indented by depth, with its state and references), and the objects left out
      diff   what changed from the first snapshot to the second, node by node; exits 0
             when they are the same (timestamps and sequence numbers aside), 1 when not
      why    why the object at PATH (identifiers separated by '/', for example
             Tabs/ItemsNavigation/Detail) was saved or not, and what the last restoration
             did with it (LastRestore.plist)

    SNAPSHOT is a snapshot file (data.archive, previous.archive, a file in 'Set Aside/')
    or a <bundle id>.savedState folder: its data.archive, else its previous.archive.

    Exit status: 0 success, 1 the snapshots differ (diff), 2 an error.

    """
}
