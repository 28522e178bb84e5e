public import Foundation

/// Where an app is in its life (`UIApplication.State`): UIKit's three running states
/// (`UIApplicationStateActive`, `…Inactive`, `…Background`) plus the states around them.
public enum ApplicationState: String, Sendable, CaseIterable {
  /// Not launched yet.
  case notRunning
  /// In the foreground, not receiving events (launching, an interruption, a transition).
  case inactive
  /// In the foreground, receiving events.
  case active
  /// Off screen, running code (its background time).
  case background
  /// Off screen, no code runs (the process is stopped); it may be killed without notice.
  case suspended
  /// Ended.
  case terminated
}

/// What the app was opened with (`launchOptions`): the URL it was asked to open, the command-line
/// arguments, and anything a host adds.
public struct LaunchOptions: Sendable {
  /// `UIApplicationLaunchOptionsURLKey`: a URL given on the command line (`--url`) or by the host.
  public var url: URL?
  /// The program's arguments, without the program name.
  public var arguments: [String]

  public init(url: URL? = nil, arguments: [String] = []) {
    self.url = url
    self.arguments = arguments
  }

  /// The options of a command line: the argument after `--url`, or else the first argument
  /// that is a URL with a scheme and `://` (`myapp://item/3`, `file:///tmp/a.txt`), is the URL.
  public init(commandLine arguments: [String]) {
    self.arguments = arguments
    if let flag = arguments.firstIndex(of: "--url"), flag + 1 < arguments.count {
      url = URL(string: arguments[flag + 1])
    } else {
      url = arguments.lazy.filter { $0.contains("://") }.compactMap { URL(string: $0) }.first { $0.scheme != nil }
    }
  }
}

extension Notification.Name {
  /// `UIApplicationDidFinishLaunchingNotification`.
  public static let applicationDidFinishLaunching = Notification.Name("UIApplicationDidFinishLaunchingNotification")
  /// `UIApplicationDidBecomeActiveNotification`.
  public static let applicationDidBecomeActive = Notification.Name("UIApplicationDidBecomeActiveNotification")
  /// `UIApplicationWillResignActiveNotification`.
  public static let applicationWillResignActive = Notification.Name("UIApplicationWillResignActiveNotification")
  /// `UIApplicationDidEnterBackgroundNotification`.
  public static let applicationDidEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")
  /// `UIApplicationWillEnterForegroundNotification`.
  public static let applicationWillEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")
  /// `UIApplicationWillTerminateNotification`.
  public static let applicationWillTerminate = Notification.Name("UIApplicationWillTerminateNotification")
  /// `UIApplicationDidReceiveMemoryWarningNotification`.
  public static let applicationDidReceiveMemoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
}

/// The app's delegate (`UIApplicationDelegate`): every method has an empty default.
@MainActor public protocol ApplicationDelegate: AnyObject {
  /// `application:willFinishLaunchingWithOptions:`; `false` stops a URL from being opened.
  func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool
  /// `application:didFinishLaunchingWithOptions:`.
  func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool
  /// `applicationDidBecomeActive:`.
  func applicationDidBecomeActive(_ lifecycle: ApplicationLifecycle)
  /// `applicationWillResignActive:`.
  func applicationWillResignActive(_ lifecycle: ApplicationLifecycle)
  /// `applicationDidEnterBackground:`: return within the callback limit (about 5 s) or the app
  /// is ended; ask for a background task for more time.
  func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle)
  /// `applicationWillEnterForeground:`.
  func applicationWillEnterForeground(_ lifecycle: ApplicationLifecycle)
  /// `applicationWillTerminate:`: only when the app ends while not suspended.
  func applicationWillTerminate(_ lifecycle: ApplicationLifecycle)
  /// `applicationDidReceiveMemoryWarning:`: drop what can be rebuilt.
  func applicationDidReceiveMemoryWarning(_ lifecycle: ApplicationLifecycle)
}

extension ApplicationDelegate {
  public func applicationWillFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool { true }
  public func applicationDidFinishLaunching(_ lifecycle: ApplicationLifecycle, options: LaunchOptions) -> Bool { true }
  public func applicationDidBecomeActive(_ lifecycle: ApplicationLifecycle) {}
  public func applicationWillResignActive(_ lifecycle: ApplicationLifecycle) {}
  public func applicationDidEnterBackground(_ lifecycle: ApplicationLifecycle) {}
  public func applicationWillEnterForeground(_ lifecycle: ApplicationLifecycle) {}
  public func applicationWillTerminate(_ lifecycle: ApplicationLifecycle) {}
  public func applicationDidReceiveMemoryWarning(_ lifecycle: ApplicationLifecycle) {}
}
