import Foundation
import InterfaceObjects
@_spi(Testing) import Lifecycle
import Interface
import NibLoading
import Synchronization
import Sandbox
import StasisSystem
import Testing
import TestSupport

/// Records every callback and every notification, in order.
@MainActor final class RecordingDelegate: ApplicationDelegate, @unchecked Sendable {
  var calls: [String] = []
  var observers: [NSObjectProtocol] = []
  /// The notifications' names, in order (the centre's observers are not the main actor's).
  var notifications: [String] { notificationLog.names.withLock { $0 } }
  private let notificationLog = NotificationLog()
  let center: NotificationCenter

  final class NotificationLog: Sendable {
    let names = Mutex<[String]>([])
  }

  init(center: NotificationCenter) {
    self.center = center
    let names: [Notification.Name] = [
      .applicationDidFinishLaunching, .applicationDidBecomeActive, .applicationWillResignActive, .applicationDidEnterBackground,
      .applicationWillEnterForeground, .applicationWillTerminate, .applicationDidReceiveMemoryWarning,
    ]
    for name in names {
      observers.append(center.addObserver(forName: name, object: nil, queue: nil) { [notificationLog] note in
        notificationLog.names.withLock { $0.append(note.name.rawValue) }
      })
    }
  }

  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    calls.append("willFinishLaunching")
    return true
  }
  func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool {
    calls.append("didFinishLaunching")
    return true
  }
  func applicationDidBecomeActive(_ lifecycle: ApplicationLifecycle) { calls.append("didBecomeActive") }
  func applicationWillResignActive(_ lifecycle: ApplicationLifecycle) { calls.append("willResignActive") }
  func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) { calls.append("didEnterBackground") }
  func applicationWillEnterForeground(_ lifecycle: ApplicationLifecycle) { calls.append("willEnterForeground") }
  func applicationWillTerminate(_ lifecycle: ApplicationLifecycle) { calls.append("willTerminate") }
  func applicationDidReceiveMemoryWarning(_ lifecycle: ApplicationLifecycle) { calls.append("didReceiveMemoryWarning") }

  /// Takes the calls so far.
  func take() -> [String] {
    defer { calls = [] }
    return calls
  }
}

/// The callbacks and notifications of every transition, in UIKit's order (as Apple documents it), with
/// the test host: the lifecycle driven directly.
@MainActor
@Suite struct LifecycleOrderTests {
  static func make() -> (ApplicationLifecycle, RecordingDelegate) {
    let center = NotificationCenter()
    let delegate = RecordingDelegate(center: center)
    return (ApplicationLifecycle(delegate: delegate, notificationCenter: center), delegate)
  }

  @Test func launchInterruptBackgroundResumeTerminate() throws {
    let (lifecycle, delegate) = Self.make()
    #expect(lifecycle.state == .notRunning)
    try lifecycle.launch(options: LaunchOptions(commandLine: ["--verbose", "myapp://item/3"]))
    #expect(delegate.take() == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive"])
    #expect(lifecycle.state == .active)
    #expect(lifecycle.launchOptions?.url?.absoluteString == "myapp://item/3")
    try lifecycle.resignActive()
    #expect(delegate.take() == ["willResignActive"] && lifecycle.state == .inactive)
    try lifecycle.becomeActive()
    #expect(delegate.take() == ["didBecomeActive"] && lifecycle.state == .active)
    try lifecycle.enterBackground()
    #expect(delegate.take() == ["willResignActive", "didEnterBackground"] && lifecycle.state == .background)
    try lifecycle.suspend()
    #expect(delegate.take() == [] && lifecycle.state == .suspended)
    try lifecycle.enterForeground()
    #expect(delegate.take() == ["willEnterForeground", "didBecomeActive"] && lifecycle.state == .active)
    try lifecycle.terminate()
    #expect(delegate.take() == ["willResignActive", "willTerminate"] && lifecycle.state == .terminated)
    #expect(
      delegate.notifications == [
        "UIApplicationDidFinishLaunchingNotification", "UIApplicationDidBecomeActiveNotification",
        "UIApplicationWillResignActiveNotification", "UIApplicationDidBecomeActiveNotification",
        "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
        "UIApplicationWillEnterForegroundNotification", "UIApplicationDidBecomeActiveNotification",
        "UIApplicationWillResignActiveNotification", "UIApplicationWillTerminateNotification",
      ])
  }

  /// `willTerminate` only when the app ends while not suspended.
  @Test(arguments: [
    ([] as [String], ["willResignActive", "willTerminate"]),
    (["resign"], ["willTerminate"]),
    (["background"], ["willTerminate"]),
    (["background", "suspend"], []),
  ])
  func terminateFromEachState(steps: [String], expected: [String]) throws {
    let (lifecycle, delegate) = Self.make()
    try lifecycle.launch()
    for step in steps {
      switch step {
      case "resign": try lifecycle.resignActive()
      case "background": try lifecycle.enterBackground()
      default: try lifecycle.suspend()
      }
    }
    _ = delegate.take()
    try lifecycle.terminate()
    #expect(delegate.take() == expected)
    #expect(lifecycle.state == .terminated)
  }

  @Test func transitionsTheStateDoesNotAllowAreErrors() throws {
    let (lifecycle, _) = Self.make()
    #expect(throws: LifecycleError.self) { try lifecycle.enterBackground() }
    try lifecycle.launch()
    #expect(throws: LifecycleError.self) { try lifecycle.launch() }
    #expect(throws: LifecycleError.self) { try lifecycle.enterForeground() }
    #expect(throws: LifecycleError.self) { try lifecycle.suspend() }
    do {
      try lifecycle.becomeActive()
      Issue.record("an active app became active again")
    } catch {
      #expect(error.code == .invalidTransition)
      #expect(error.description.contains("active"))
    }
  }

  @Test func memoryWarningsReachTheDelegateTheCenterAndThePurgeables() throws {
    let (lifecycle, delegate) = Self.make()
    try lifecycle.launch()
    let cache = Cache<String, [UInt8]>(totalCostLimit: 100)
    for index in 0..<5 { cache.setValue([UInt8](repeating: 1, count: 30), forKey: "\(index)", cost: 30) }
    #expect(cache.count == 3 && cache.totalCost == 90, "the least recently used entries go over the cost limit")
    lifecycle.registerPurgeable(cache)
    _ = delegate.take()
    lifecycle.simulateMemoryWarning()
    #expect(delegate.take() == ["didReceiveMemoryWarning"])
    #expect(delegate.notifications.last == "UIApplicationDidReceiveMemoryWarningNotification")
    #expect(cache.count == 0 && cache.purgeCount == 1)
    #expect(lifecycle.warningLatencies.isEmpty, "a simulated warning has no kernel event to time")
    lifecycle.receiveMemoryWarning(kernelEventUptime: HostEnvironment.current.clock.uptimeNanoseconds())
    #expect(lifecycle.warningLatencies.count == 1 && lifecycle.memoryWarningCount == 2)
  }

  /// The view controllers of the application's windows hear the warning too.
  @Test func viewControllersHearTheWarning() throws {
    final class Counting: ViewController {
      var warnings = 0
      override func didReceiveMemoryWarning() { warnings += 1 }
      required init() { super.init() }
    }
    let (lifecycle, _) = Self.make()
    try lifecycle.launch()
    let root = NavigationController()
    let child = Counting()
    root.pushViewController(child)
    let presented = Counting()
    child.present(presented)
    let window = Window()
    window.rootViewController = root
    lifecycle.application.addWindow(window)
    lifecycle.simulateMemoryWarning()
    #expect(child.warnings == 1 && presented.warnings == 1)
  }

  /// The nib cache is purged on a warning (registered by every lifecycle).
  @Test func theNibCacheIsPurgedOnAWarning() throws {
    let (lifecycle, _) = Self.make()
    try lifecycle.launch()
    let folder = try ScratchFolder("lifecycle-nib")
    defer { folder.remove() }
    let xib = """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="15702" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none">
        <objects>
          <customObject id="-2" userLabel="File's Owner"/>
          <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
          <customObject id="-3" userLabel="Application" customClass="NSObject"/>
        </objects>
      </document>
      """
    try folder.write(Array(xib.utf8), to: "Empty.xib")
    _ = try Nib(contentsOf: folder.file("Empty.xib"), cache: NibCache.shared)
    #expect(NibCache.shared.count >= 1)
    lifecycle.simulateMemoryWarning()
    #expect(NibCache.shared.count == 0)
  }
}
