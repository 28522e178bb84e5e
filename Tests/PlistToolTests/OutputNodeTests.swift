import Foundation
import Testing
import TestSupport

/// Issue 13, findings 1 and 2, through the built `plutil` as a script runs it, as root and as
/// `nobody`: `-o` onto `/dev/stdout`, `/dev/null`, `/dev/full`, a link to a descriptor and a FIFO
/// never replaces the node, and a failed write to standard output is exit status 1.
@Suite("plutil output onto devices, links and FIFOs", .enabled(if: BuiltTool.isAvailable, BuiltTool.missingReason))
struct OutputNodeTests {
  static let document = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    + #"<plist version="1.0"><dict><key>Name</key><string>Stasis</string><key>Count</key><integer>3</integer></dict></plist>"#
    + "\n"

  /// A scratch folder anyone may use (the tool may run as `nobody`) holding `in.plist`.
  static func folder() throws -> ScratchFolder {
    let folder = try ScratchFolder("plutil-nodes")
    try folder.write(Array(document.utf8), to: "in.plist")
    chmod(folder.path, 0o777)
    chmod(folder.file("in.plist"), 0o644)
    return folder
  }

  static func run(_ arguments: [String], as user: ToolUser, in folder: ScratchFolder, stdout: ToolProcess.Output = .captured)
    throws -> ToolOutcome
  {
    try ToolProcess.run(
      try #require(BuiltTool.path), arguments, in: folder.path, stdout: stdout, asNobody: user == .nobody)
  }

  @Test(arguments: ToolUser.allCases)
  func outputToDevStdoutGoesToStandardOutput(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    let outcome = try Self.run(["-convert", "json", "-o", "/dev/stdout", "in.plist"], as: user, in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdoutText == #"{"Name":"Stasis","Count":3}"#)
    #expect(fileKind("/dev/stdout") == S_IFLNK)
  }

  @Test(arguments: ToolUser.allCases)
  func outputToDevNullIsDiscardedAndTheDeviceKept(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    let outcome = try Self.run(["-convert", "binary1", "-o", "/dev/null", "in.plist"], as: user, in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(fileKind("/dev/null") == S_IFCHR)
  }

  @Test(arguments: ToolUser.allCases)
  func outputFileOnAFullDeviceFailsAndKeepsIt(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    let outcome = try Self.run(["-convert", "xml1", "-o", "/dev/full", "in.plist"], as: user, in: folder)
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("No space left on device"), "\(outcome.stderr)")
    #expect(fileKind("/dev/full") == S_IFCHR)
  }

  /// `plutil -convert xml1 -o - Info.plist > /dev/full; echo $?` printed 0.
  @Test(arguments: ToolUser.allCases, [["-convert", "xml1", "-o", "-", "in.plist"], ["-p", "in.plist"], ["-lint", "in.plist"]])
  func standardOutputOnAFullDeviceIsExitStatusOne(_ user: ToolUser, _ arguments: [String]) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    let outcome = try Self.run(arguments, as: user, in: folder, stdout: .path("/dev/full"))
    #expect(outcome.status == 1)
    #expect(outcome.stderr == "plutil: cannot write to standard output: No space left on device\n")
  }

  @Test(arguments: ToolUser.allCases)
  func aLinkToStandardOutputIsWrittenThroughAndKept(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    #expect(symlink("/proc/self/fd/1", folder.file("s")) == 0)
    let outcome = try Self.run(["-convert", "json", "-o", "./s", "in.plist"], as: user, in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdoutText == #"{"Name":"Stasis","Count":3}"#)
    #expect(fileKind(folder.file("s")) == S_IFLNK, "the link was replaced")
  }

  @Test(arguments: ToolUser.allCases)
  func aFIFOIsWrittenForItsReaderAndKept(_ user: ToolUser) throws {
    guard user.isPossible else { return }
    let folder = try Self.folder()
    defer { folder.remove() }
    let fifo = folder.file("fifo")
    #expect(mkfifo(fifo, 0o666) == 0)
    chmod(fifo, 0o666)
    let reader = FIFOReader(path: fifo)
    let outcome = try Self.run(["-convert", "json", "-o", "fifo", "in.plist"], as: user, in: folder)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(String(decoding: try #require(reader.wait()), as: UTF8.self) == #"{"Name":"Stasis","Count":3}"#)
    #expect(fileKind(fifo) == S_IFIFO, "the FIFO was replaced")
  }
}
