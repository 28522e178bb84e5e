import Foundation
import Lifecycle

// snippet: readme-lifecycle-delegate
final class NotesAppDelegate: ApplicationDelegate {
  let thumbnails = Cache<String, [UInt8]>(totalCostLimit: 50 << 20)
  func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    lifecycle.registerPurgeable(thumbnails)   // emptied on every memory warning
    thumbnails.setValue([UInt8](repeating: 0, count: 1024), forKey: "note-1", cost: 1024)
    return true
  }
  func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) {
    let task = lifecycle.beginBackgroundTask(withName: "save notes")   // more time than the ~5 s callback
    print("saving, \(lifecycle.backgroundTimeRemaining) s left")
    lifecycle.endBackgroundTask(task)
  }
  func applicationDidReceiveMemoryWarning(_ lifecycle: ApplicationLifecycle) { print("memory warning") }
}
// end-snippet

@MainActor func lifecycleExample() throws {
  // snippet: readme-lifecycle
  let delegate = NotesAppDelegate()
  let lifecycle = ApplicationLifecycle(delegate: delegate)
  try lifecycle.launch(options: LaunchOptions(commandLine: ["notes://open/1"]))   // willFinish, didFinish, didBecomeActive
  try lifecycle.enterBackground()      // willResignActive, didEnterBackground
  try lifecycle.enterForeground()      // willEnterForeground, didBecomeActive
  lifecycle.simulateMemoryWarning()    // the delegate, the notification, the purgeables
  print(lifecycle.state, lifecycle.launchOptions?.url?.absoluteString ?? "", delegate.thumbnails.count)   // active notes://open/1 0
  // A real program hands the lifecycle to a host, which runs the main loop and never returns:
  // HeadlessHost(lifecycle: lifecycle).run(options: LaunchOptions(commandLine: Array(CommandLine.arguments.dropFirst())))
  // end-snippet
}
