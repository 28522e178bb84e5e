import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ibtool --compile OUT.storyboardc`: the folder replaced in one step, a dead run's temporary
/// folder swept, failures naming OUT (never a private temporary name).
@Suite(.enabled(if: builtIBTool != nil, "the built ibtool was not found next to the tests"))
struct StoryboardFolderReplacementTests {
  static let fixtures = Corpus.repositoryRoot.appendingPathComponent("Tests/Fixtures/fault-harness").path

  func compile(_ storyboard: String, to output: String, in folder: ScratchFolder) throws -> ToolOutcome {
    try ToolProcess.run(try #require(builtIBTool), ["--compile", output, Self.fixtures + "/" + storyboard], in: folder.path)
  }

  func files(_ folder: String) -> [String: Data] {
    var result: [String: Data] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
      result[name] = FileManager.default.contents(atPath: folder + "/" + name)
    }
    return result
  }

  @Test("Compiling over an old folder leaves exactly the new compile and nothing beside it")
  func replacesTheOldFolder() throws {
    let folder = try ScratchFolder("storyboardc")
    defer { folder.remove() }
    #expect(try compile("textview.storyboard", to: "out.storyboardc", in: folder).status == 0)
    #expect(try compile("basic.storyboard", to: "fresh.storyboardc", in: folder).status == 0)
    let outcome = try compile("basic.storyboard", to: "out.storyboardc", in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(files(folder.file("out.storyboardc")) == files(folder.file("fresh.storyboardc")))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["fresh.storyboardc", "out.storyboardc"])
  }

  @Test("A killed run's temporary folder is swept by the next run")
  func deadRunsFolderSwept() throws {
    let folder = try ScratchFolder("storyboardc")
    defer { folder.remove() }
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let debris = folder.file(".out.storyboardc.stasis-tmp.\(ended.processIdentifier).7f")
    mkdir(debris, 0o755)
    try Data("half".utf8).write(to: URL(fileURLWithPath: debris + "/Info.plist"))
    #expect(try compile("basic.storyboard", to: "out.storyboardc", in: folder).status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.storyboardc"])
  }

  @Test("A folder that cannot be made: the message names OUT and the system's reason, once, and no private name")
  func failureNamesTheOutput() throws {
    let folder = try ScratchFolder("storyboardc")
    defer { folder.remove() }
    try Data("a file".utf8).write(to: URL(fileURLWithPath: folder.file("blocker")))
    let outcome = try compile("basic.storyboard", to: "blocker/out.storyboardc", in: folder)
    #expect(outcome.status != 0)
    // ibtool reports errors as Apple's does: in its report on standard output.
    let report = outcome.stdoutText + outcome.stderr
    #expect(report.contains("blocker/out.storyboardc"), "\(report)")
    #expect(report.contains("Not a directory"), "\(report)")
    #expect(!report.contains("tmp"), "\(report)")
    #expect(report.components(separatedBy: "Not a directory").count == 2, "\(report)")
  }
}
