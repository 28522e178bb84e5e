// Runs the README's examples as a reader would: the Swift ones through the built
// `readme-examples` program (Examples/ReadmeExamples), the shell ones through `sh` with
// `swift run <tool>` answered by the built tool, in a scratch folder holding a copy of Examples/.
import Foundation
import Testing
import TestSupport

@Suite("README examples run as written")
struct ReadmeExampleTests {
  static let repositoryRoot = SnippetSyncTests.repositoryRoot

  /// The folder of the built executables (beside the test bundle).
  static let productsFolder: URL? = BuiltExecutables.path(named: "readme-examples").map {
    URL(fileURLWithPath: $0).deletingLastPathComponent()
  }

  static var available: Bool { productsFolder != nil }

  /// A scratch folder with a copy of Examples/, a `swift` shim on PATH and its own containers root.
  struct Workspace {
    let folder: URL
    var environment: [String: String]

    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-readme-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder.appendingPathComponent("bin"), withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: ReadmeExampleTests.repositoryRoot.appendingPathComponent("Examples"), to: folder.appendingPathComponent("Examples"))
      let products = try #require(ReadmeExampleTests.productsFolder).path
      let shim = """
        #!/bin/sh
        # `swift run <tool> args…` as the README writes it, answered by the tool this package built.
        [ "$1" = run ] || { echo "swift shim: only 'swift run <tool>' is supported" >&2; exit 2; }
        shift
        tool="$1"
        shift
        exec "\(products)/$tool" "$@"

        """
      let shimPath = folder.appendingPathComponent("bin/swift").path
      try Data(shim.utf8).write(to: URL(fileURLWithPath: shimPath))
      chmod(shimPath, 0o755)
      var environment = ProcessInfo.processInfo.environment
      for name in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "STASIS_CONTAINERS_ROOT", "XDG_DATA_HOME"] { environment[name] = nil }
      environment["LANG"] = "en_US.UTF-8"
      environment["HOME"] = folder.path
      environment["PATH"] = folder.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
      self.environment = environment
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `executable` with `arguments` here; returns status and standard output and error.
    func run(_ executable: String, _ arguments: [String], environment extra: [String: String] = [:]) throws
      -> (status: Int32, stdout: String, stderr: String)
    {
      let out = folder.appendingPathComponent(".out-\(UUID().uuidString)")
      let err = folder.appendingPathComponent(".err-\(UUID().uuidString)")
      _ = FileManager.default.createFile(atPath: out.path, contents: nil)
      _ = FileManager.default.createFile(atPath: err.path, contents: nil)
      defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      process.currentDirectoryURL = folder
      process.environment = environment.merging(extra) { $1 }
      process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
      process.standardOutput = try FileHandle(forWritingTo: out)
      process.standardError = try FileHandle(forWritingTo: err)
      try process.run()
      process.waitUntilExit()
      return (
        process.terminationStatus, String(decoding: try Data(contentsOf: out), as: UTF8.self),
        String(decoding: try Data(contentsOf: err), as: UTF8.self)
      )
    }
  }

  /// The pages whose examples are run as written: the README and the guide.
  static let pages = ["README.md", "Docs/guide.md"]

  /// The code blocks of one language in ``pages``, in order.
  static func blocks(_ language: String) throws -> [[String]] {
    try pages.flatMap { try blocks(language, in: $0) }
  }

  /// The code blocks of one language in `page`, in order.
  static func blocks(_ language: String, in page: String) throws -> [[String]] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent(page), encoding: .utf8)
    var result: [[String]] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```" + language {
        current = []
      } else if current != nil, line == "```" {
        result.append(current!)
        current = nil
      } else if current != nil {
        current!.append(String(line))
      }
    }
    return result
  }

  @Test(.enabled(if: available, "the built readme-examples was not found next to the tests"))
  func theSwiftExamplesRun() throws {
    let workspace = try Workspace()
    defer { workspace.remove() }
    let products = try #require(Self.productsFolder)
    let outcome = try workspace.run(products.appendingPathComponent("readme-examples").path, [])
    #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
    #expect(!outcome.stdout.contains("FAILED"), "\(outcome.stdout)")
    // What the examples' comments promise.
    for expected in [
      "XML property list com.bignerdranch.Homepwner", "\nfr\n", "com.example.Demo [\"en\"]", "Hello", "Anna has 3 items", "Supprimer",
      "0 note\n", "Notes (fr)", "[\"fr\"]", "\n50\n", "no such folder", "now 16", "UINibTopLevelObjectsKey object(1)", "restored note-42",
    ] {
      #expect(outcome.stdout.contains(expected), "the examples' output lacks \(expected):\n\(outcome.stdout)")
    }
    // The archive the KeyedArchive example writes is the one the README dumps with plutil -archive.
    let written = try Data(contentsOf: workspace.folder.appendingPathComponent("Items.archive"))
    let kept = try Data(contentsOf: Self.repositoryRoot.appendingPathComponent("Examples/Items.archive"))
    #expect(written == kept, "Examples/Items.archive differs from what the KeyedArchive example writes")
  }

  /// Every ```sh block, less the test command itself (`Tools/test.sh`, or a line with
  /// `swift test`), runs with status 0.
  @Test(.enabled(if: available, "the built tools were not found next to the tests"))
  func theShellExamplesRun() throws {
    let blocks = try Self.blocks("sh")
    #expect(blocks.count >= 3)
    for block in blocks {
      let workspace = try Workspace()
      defer { workspace.remove() }
      let script = block.filter { !$0.contains("swift test") && !$0.contains("Tools/test.sh") }.joined(separator: "\n")
      let outcome = try workspace.run("/bin/sh", ["-e", "-c", script])
      #expect(outcome.status == 0, "README block failed:\n\(script)\n\(outcome.stdout)\n\(outcome.stderr)")
    }
  }

  /// Every ```text block that shows a shell session (`$ ` lines) prints what it shows.
  @Test(.enabled(if: available, "the built tools were not found next to the tests"))
  func theShellSessionsPrintWhatTheyShow() throws {
    var sessions = 0
    for block in try Self.blocks("text") where block.first?.hasPrefix("$ ") == true {
      sessions += 1
      let workspace = try Workspace()
      defer { workspace.remove() }
      var environment: [String: String] = [:]
      var index = 0
      while index < block.count {
        let command = String(block[index].dropFirst(2))
        index += 1
        var expected: [String] = []
        while index < block.count, !block[index].hasPrefix("$ ") {
          expected.append(block[index])
          index += 1
        }
        if command.hasPrefix("export ") {
          let assignment = command.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
          environment[String(assignment[0])] = String(assignment[1])
          continue
        }
        let outcome = try workspace.run("/bin/sh", ["-c", command], environment: environment)
        #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
        let shown = expected.joined(separator: "\n")
        let printed = outcome.stdout.hasSuffix("\n") ? String(outcome.stdout.dropLast()) : outcome.stdout
        #expect(printed == shown, "\(command) printed:\n\(printed)\nbut the README shows:\n\(shown)")
      }
    }
    #expect(sessions >= 2)
  }
}
