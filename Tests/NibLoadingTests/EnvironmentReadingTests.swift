import Foundation
import NibLoading
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// `Nib(contentsOf:environment:)` and `Storyboard(contentsOf:environment:)` read through the
/// environment's file system: the same corpus files give the same graphs from an in-memory disk
/// as from the real one, and a path that exists only on the real disk is not found in memory.
@Suite @MainActor struct EnvironmentReadingTests {
  static let pair = "ios_pairs/brave+mixpanel-swift/bdb2cf98e7ba/MiniNotificationViewController"
  static let storyboard = "ios_pairs/mixpanel+mixpanel-iphone/98090f512e7f/MPSurvey.storyboardc"

  /// An environment whose file system is `disk`.
  static func world(_ disk: InMemoryFileSystem) -> HostEnvironment {
    var environment = HostEnvironment.current
    environment.fileSystem = disk
    return environment
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: ["xib", "nib"])
  func aNibReadsThroughTheEnvironment(kind: String) throws {
    let file = Corpus.file(Self.pair + "." + kind)
    let disk = InMemoryFileSystem()
    disk.seed(try file.data(), atFile: "/app/Main." + kind)
    let fromMemory = try Nib(contentsOf: "/app/Main." + kind, environment: Self.world(disk))
    let fromDisk = try Nib(contentsOf: file.path)
    #expect(fromMemory.graph == fromDisk.graph)
    #expect(disk.callLog.allSatisfy { $0.hasSuffix("/app/Main." + kind) }, "\(disk.callLog)")

    let error = expectError(NibLoadingError.self, .unreadable) { _ = try Nib(contentsOf: file.path, environment: Self.world(disk)) }
    #expect(error?.cause(AtomicFileError.self)?.code == .notFound, "the real file must not be read: \(String(describing: error))")
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func aCompiledStoryboardReadsThroughTheEnvironment() throws {
    let folder = Corpus.file(Self.storyboard)
    let disk = InMemoryFileSystem()
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      disk.seed(try Data(contentsOf: folder.url.appendingPathComponent(name)), atFile: "/app/Survey.storyboardc/" + name)
    }
    let fromMemory = try Storyboard(contentsOf: "/app/Survey.storyboardc", environment: Self.world(disk))
    let fromDisk = try Storyboard(contentsOf: folder.path)
    #expect(fromMemory.info == fromDisk.info)
    #expect(fromMemory.identifiers == fromDisk.identifiers && !fromDisk.identifiers.isEmpty)

    expectError(NibLoadingError.self, .unreadable) { _ = try Storyboard(contentsOf: folder.path, environment: Self.world(disk)) }
  }
}
