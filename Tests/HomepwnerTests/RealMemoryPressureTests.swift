import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Homepwner under real memory pressure: the app runs in a memory cgroup of its own, a second
/// process in that cgroup takes memory until the kernel signals, and the app (watching its cgroup
/// as it always does) gets a real memory warning — no `kill -USR1`.
@MainActor
@Suite("Homepwner under a real memory warning (a limited cgroup)", .serialized, .tags(.integration))
struct RealMemoryPressureTests {
  nonisolated static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(
    "The kernel's memory event empties the photo cache; the photo still shows, read again from disk",
    .enabled(if: HomepwnerSession.available, HomepwnerSession.missingReason),
    .enabled(if: MemoryCgroup.unavailableReason == nil, Comment(rawValue: MemoryCgroup.unavailableReason ?? "")),
    .enabled(if: python != nil, "python3 takes the memory in the cgroup"))
  func aRealMemoryWarningEmptiesThePhotoCache() throws {
    let limit = 256 << 20
    let cgroup = try MemoryCgroup(limitBytes: limit)
    do {
      let session = try HomepwnerSession()
      // The shell joins the cgroup, so the app it starts is born there and watches it.
      try session.tmux([
        "send-keys", "-t", session.name,
        "echo $$ > \(cgroup.path)/cgroup.procs; \(try session.launchCommand())",
        "Enter",
      ])
      try session.waitFor { $0.contains { $0.contains("[fresh launch]") } }
      try session.addItemWithPhoto(named: "lamp.png", width: 320, height: 240)
      try session.keys("Left", "Tab")
      try session.waitFor { $0.contains { $0.contains("(1 in memory)") } }

      // 224 MiB touched in a 256 MiB cgroup: with the app and the interpreter, well past the 80 %
      // (205 MiB) the app watches, and short of the limit.
      let hog = Process()
      hog.executableURL = URL(fileURLWithPath: try #require(Self.python))
      hog.arguments = [
        "-c",
        "import os, sys, time; open(sys.argv[1] + '/cgroup.procs', 'w').write(str(os.getpid())); b = b'x' * (224 << 20); time.sleep(2)",
        cgroup.path,
      ]
      hog.standardOutput = FileHandle.nullDevice
      hog.standardError = FileHandle.nullDevice
      try hog.run()
      let warned = try session.waitFor(seconds: 20) { $0.contains { $0.contains("(0 in memory)") } }
      hog.waitUntilExit()
      #expect(warned.contains { $0.contains("(0 in memory)") })
      #expect(hog.terminationStatus == 0, "the memory taker ended normally (137 would be the OOM killer)")
      let peak = (try? String(contentsOfFile: cgroup.path + "/memory.max_usage_in_bytes", encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      print("homepwner real memory warning: cache emptied; the cgroup's peak \((peak ?? 0) >> 20) MiB of \(limit >> 20) MiB")

      // The app is alive and the photo is read again from disk.
      try session.keys("Tab", "Enter")
      try session.waitFor { $0.contains { $0.contains("Photo:") && $0.contains("PNG, 320 × 240") } }
      try session.keys("Left", "Tab")
      try session.waitFor { $0.contains { $0.contains("(1 in memory)") } }
      try session.keys("q")
    }
    cgroup.remove()
  }
}
