import DefaultsTool
import Foundation
import Testing
import TestSupport

/// Failures that say what failed and why: a container that cannot be made is not a bad domain
/// name; an import that cannot read its file gives the system's reason.
@Suite struct FailureMessageTests {
  @Test("A container that cannot be made (its root is a file): the container is named, not 'Invalid domain name'")
  func containerCreationFailure() throws {
    let tool = CapturingEnvironment()
    try Data("a file".utf8).write(to: URL(fileURLWithPath: tool.root + "/Containers"))
    let result = tool.run("write", "com.example.app", "Key", "-string", "v")
    #expect(result.status != 0)
    #expect(!result.stderr.contains("Invalid domain name"), "\(result.stderr)")
    #expect(result.stderr.contains("com.example.app"), "\(result.stderr)")
    #expect(result.stderr.contains("Containers: exists and is not a folder"), "\(result.stderr)")
  }

  @Test("A bad domain name is still called one")
  func badNameStillInvalid() {
    let tool = CapturingEnvironment()
    let result = tool.run("write", "../escape", "Key", "-string", "v")
    #expect(result.status != 0)
    #expect(result.stderr.contains("Invalid domain name") || result.stderr.contains("domain"), "\(result.stderr)")
  }

  @Test("defaults import of a file it cannot read says why", arguments: ["missing.plist", "."])
  func importGivesTheReason(file: String) {
    let tool = CapturingEnvironment()
    let result = tool.run("import", "com.example.app", file)
    #expect(result.status != 0)
    #expect(result.stderr.contains("Could not read data from \(file): "), "\(result.stderr)")
    #expect(result.stderr.contains(file == "." ? "folder" : "No such file or directory"), "\(result.stderr)")
  }
}
