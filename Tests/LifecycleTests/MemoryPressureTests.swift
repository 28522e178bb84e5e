import Foundation
import Lifecycle
import StasisSystem
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
@Suite(.serialized, .tags(.integration)) struct MemoryPressureTests {
  /// A child in a 160 MiB cgroup allocates until the kernel signals; it must receive the
  /// warning, purge its cache and survive (not be OOM-killed). The delay from the kernel's event
  /// to the delegate's callback is measured.
  @Test(
    .enabled(if: ChildApp.executable != nil, ChildApp.missingReason),
    .enabled(if: MemoryCgroup.unavailableReason == nil, Comment(rawValue: MemoryCgroup.unavailableReason ?? "")))
  func aChildUnderRealMemoryPressureIsWarnedPurgesAndSurvives() throws {
    let cgroup = try MemoryCgroup(limitBytes: 160 << 20)
    defer { cgroup.remove() }
    let app = try ChildApp(["--host", "headless", "--cgroup", cgroup.path, "--memory", "auto", "--allocate", "4"])
    let status = app.waitForExit(seconds: 30)
    #expect(status == 0, "the child must survive (137 is the OOM killer)")
    let lines = app.lines
    let source = lines.first { $0.hasPrefix("memory pressure:") } ?? "?"
    print("source: \(source)")
    #expect(source.contains("cgroup"), "the child watches its own cgroup")
    #expect(lines.contains { $0.hasPrefix("didReceiveMemoryWarning") })
    #expect(lines.contains("purged, holding 0 MiB"))
    #expect(lines.contains("survived"))
    let latency = lines.first { $0.hasPrefix("latency ") }.flatMap { Int($0.split(separator: " ")[1]) }
    let held = lines.first { $0.hasPrefix("latency ") }.flatMap { Int($0.split(separator: " ")[3]) }
    print("kernel event → delegate: \(Double(latency ?? -1) / 1e6) ms; the app held \(held ?? -1) MiB when warned")
    #expect((latency ?? .max) < 1_000_000_000)
  }

  /// The usage threshold is crossed again on the way down when the app purges: that is not
  /// pressure, and no second warning comes (the child holds on past the episode gap).
  @Test(
    .enabled(if: ChildApp.executable != nil, ChildApp.missingReason),
    .enabled(if: MemoryCgroup.unavailableReason == nil, Comment(rawValue: MemoryCgroup.unavailableReason ?? "")))
  func purgingBelowTheThresholdIsNotASecondWarning() throws {
    let cgroup = try MemoryCgroup(limitBytes: 160 << 20)
    defer { cgroup.remove() }
    let app = try ChildApp(["--host", "headless", "--cgroup", cgroup.path, "--memory", "auto", "--allocate", "4", "--hold", "3.5"])
    #expect(app.waitForExit(seconds: 30) == 0)
    #expect(app.lines.filter { $0.hasPrefix("didReceiveMemoryWarning") }.count == 1)
    #expect(app.lines.contains("survived"))
  }

  /// Each source this machine offers can be armed (or says why not), and one is always found.
  @Test func sourcesArmOrExplain() {
    let sources = MemoryPressureSource.available()
    #expect(!sources.isEmpty)
    var armed = 0
    for source in sources {
      do {
        let monitor = try MemoryPressureMonitor(source: source) { _ in }
        monitor.stop()
        armed += 1
      } catch {
        #expect(error.code == .memorySourceUnavailable)
        print("\(source): \(error)")
      }
    }
    #expect(armed >= 1)
  }

  /// A source that cannot be opened is a typed error naming the file.
  @Test func aMissingSourceIsATypedError() {
    do {
      _ = try MemoryPressureMonitor(source: .cgroupV1PressureLevel(path: "/nonexistent/cgroup", level: "low")) { _ in }
      Issue.record("a missing cgroup was armed")
    } catch {
      #expect(error.code == .memorySourceUnavailable)
      #expect(error.description.contains("/nonexistent/cgroup"))
    }
  }
}
