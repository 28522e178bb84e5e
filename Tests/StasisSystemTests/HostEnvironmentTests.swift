import StasisSystem
import Foundation
import Testing

@Suite("Host environment")
struct HostEnvironmentTests {
  @Test func containersRootFollowsTheVariables() {
    #expect(HostEnvironment(variables: ["STASIS_CONTAINERS_ROOT": "/data/c", "XDG_DATA_HOME": "/x", "HOME": "/h"]).containersRoot == "/data/c")
    #expect(HostEnvironment(variables: ["STASIS_CONTAINERS_ROOT": "", "XDG_DATA_HOME": "/x", "HOME": "/h"]).containersRoot == "/x/stasis/Containers")
    #expect(HostEnvironment(variables: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).containersRoot == "/h/.local/share/stasis/Containers")
    #expect(HostEnvironment(variables: ["HOME": "/home/u"]).homeDirectory == "/home/u")
    #expect(HostEnvironment(variables: ["HOME": "/home/u"], containersRoot: "/elsewhere").containersRoot == "/elsewhere")
    let fromPasswordFile = HostEnvironment(variables: [:])
    #expect(fromPasswordFile.homeDirectory.hasPrefix("/"))
    #expect(fromPasswordFile.containersRoot.hasSuffix("/.local/share/stasis/Containers"))
  }

  @Test func theProcessEnvironmentIsTheRealOne() {
    let real = HostEnvironment.readFromProcess()
    #expect(real.variables == ProcessInfo.processInfo.environment)
    #expect(real.currentDirectory == FileManager.default.currentDirectoryPath)
    #expect(real.process.id == ProcessInfo.processInfo.processIdentifier)
    #expect(real.process.arguments == CommandLine.arguments)
    #expect(real.process.executablePath?.hasPrefix("/") == true)
    #expect(real.device == .linux)
    let before = Date()
    let now = real.clock.now()
    #expect(now >= before.addingTimeInterval(-1) && now <= Date().addingTimeInterval(1))
    let first = real.clock.uptimeNanoseconds()
    #expect(real.clock.uptimeNanoseconds() >= first)
  }

  @Test func updateCurrentChangesTheProcessWideDefault() {
    let original = HostEnvironment.current.appleLanguages
    HostEnvironment.updateCurrent { $0.appleLanguages = { ["eo"] } }
    #expect(HostEnvironment.current.appleLanguages?() == ["eo"])
    HostEnvironment.updateCurrent { $0.appleLanguages = original }
  }

  @Test func languagesFactoryStatesLanguagesAndDevice() {
    let environment = HostEnvironment.languages(["fr-CA", "en"], device: DeviceTraits(platform: "iphoneos", product: "ipad", displayScale: 0))
    #expect(environment.appleLanguages?() == ["fr-CA", "en"])
    #expect(environment.variables.isEmpty)
    #expect(environment.device.product == "ipad")
    #expect(environment.device.displayScale == 1)
  }

  @Test func fixedClockStandsStill() {
    let date = Date(timeIntervalSince1970: 1_000)
    let clock = HostClock.fixed(at: date)
    #expect(clock.now() == date && clock.now() == date && clock.uptimeNanoseconds() == 0)
  }

  @Test func systemFileSystemReadsAndWritesThroughAtomicFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let files: HostFileSystem = HostEnvironment().fileSystem
    #expect(files is POSIXFileSystem)
    try files.write(Data("hello".utf8), toFile: folder + "/a.txt")
    #expect(try files.read(contentsOfFile: folder + "/a.txt", limit: 100) == Data("hello".utf8))
    do {
      _ = try files.read(contentsOfFile: folder + "/a.txt", limit: 3)
      Issue.record("no error")
    } catch {
      #expect(error.code == .tooLarge)
    }
    do {
      try files.write(Data(), toFile: folder + "/missing/a.txt")
      Issue.record("no error")
    } catch AtomicFileError.Code.notFound {
    } catch {
      Issue.record("wrong error \(error)")
    }
  }

  @Test func standardStreamWritesReportFailures() throws {
    // A pipe whose reading end is closed: the write fails with EPIPE (SIGPIPE ignored here).
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    close(ends[0])
    let previous = signal(SIGPIPE, SIG_IGN)
    defer {
      signal(SIGPIPE, previous)
      close(ends[1])
    }
    let saved = dup(1)
    dup2(ends[1], 1)
    var failure: AtomicFileError?
    do { try StandardStreams.system.writeOutput(Array("lost".utf8)) } catch { failure = error }
    dup2(saved, 1)
    close(saved)
    #expect(failure?.path == "<stdout>")
    #expect(failure?.systemError == EPIPE)
  }
}
