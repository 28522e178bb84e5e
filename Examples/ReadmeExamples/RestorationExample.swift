import Foundation
import InterfaceObjects
import Lifecycle
import Restoration

// snippet: readme-restoration-delegate
final class NotesRestorationDelegate: ApplicationDelegate, StateRestorationDelegate {
  let window = Window()
  let notes = NavigationController()
  init() { notes.restorationIdentifier = "Notes" }   // every controller on the path needs one
  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.application.addWindow(window)
    window.rootViewController = notes   // made at launch: restoration finds it by its path
    return true
  }
  func shouldSaveApplicationState(_ coder: StateEncoder) -> Bool { true }
  func shouldRestoreApplicationState(_ coder: StateDecoder) -> Bool { true }
}

final class NoteViewController: ViewController, ViewControllerRestoration {
  var noteID = ""
  required init() {
    super.init()
    restorationIdentifier = "Note"
    restorationClassName = "NoteViewController"   // made again by the class registered under this name
  }
  override func encodeRestorableState(with coder: any RestorableStateEncoder) {
    super.encodeRestorableState(with: coder)
    coder.encode(noteID, forKey: "note")
  }
  override func decodeRestorableState(with coder: any RestorableStateDecoder) {
    super.decodeRestorableState(with: coder)
    noteID = coder.decode(String.self, forKey: "note") ?? ""
  }
  static func viewController(withRestorationIdentifierPath path: [String], coder: StateDecoder) -> ViewController? {
    NoteViewController()
  }
}
// end-snippet

@MainActor func restorationExample() throws {
  // snippet: readme-restoration
  let folder = SavedStateFolder(path: "Notes.savedState")   // in an app: SavedStateFolder(container: container)
  do {  // the first run: a note is open when the app goes to the background, then the process is killed
    let delegate = NotesRestorationDelegate()
    let lifecycle = ApplicationLifecycle(delegate: delegate)
    _ = StateRestoration(lifecycle: lifecycle, folder: folder)
    try lifecycle.launch()
    let note = NoteViewController()
    note.noteID = "note-42"
    delegate.notes.pushViewController(note)
    try lifecycle.enterBackground()          // saved: Notes.savedState/data.archive
  }
  let delegate = NotesRestorationDelegate()     // the next launch
  let lifecycle = ApplicationLifecycle(delegate: delegate)
  let restoration = StateRestoration(lifecycle: lifecycle, folder: folder)
  restoration.register(NoteViewController.self, as: "NoteViewController")
  try lifecycle.launch()                        // restores between willFinish and didFinish
  print(restoration.outcome, (delegate.notes.topViewController as? NoteViewController)?.noteID ?? "")   // restored note-42
  // end-snippet
}
