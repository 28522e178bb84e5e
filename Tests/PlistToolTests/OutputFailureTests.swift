import StasisSystem
import StasisSystemTesting
import Foundation
@testable import PlistTool
import PropertyLists
import Testing
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// A write that fails names the file that failed: with `-o` (or `-e`) that is the output, not
/// the input the message starts with.
@Suite struct OutputFailureTests {
  /// The environment whose disk fails every call after the first (the read of the input) as
  /// `kind` says.
  static func failingWrites(_ environment: MemoryEnvironment, _ kind: FileFault.Kind) -> HostEnvironment {
    environment.disk.inject(.from(2, kind))
    return environment.host
  }

  @Test("-o OUT: the message names OUT, once, with the system's reason", arguments: [FileFault.Kind.readOnly, .noSpace, .ioError])
  func outputNamed(kind: FileFault.Kind) throws {
    let environment = MemoryEnvironment(files: ["in/Info.bplist": try Samples.bytes(["k": "v"], .binary)])
    environment.disk.seedFolder("out")
    let status = PlistTool(environment: Self.failingWrites(environment, kind)).run(
      ["plutil", "-convert", "xml1", "-o", "out/Info.plist", "in/Info.bplist"])
    #expect(status == 1)
    let message = String(decoding: environment.standardError, as: UTF8.self)
    let reason = String(cString: strerror(kind.systemError))
    #expect(message.contains("(out/Info.plist: cannot ") && message.hasSuffix(": \(reason))\n"), "\(message)")
    #expect(message.components(separatedBy: "out/Info.plist").count == 2, "\(message)")
  }

  @Test("In place: the file is named once (it is the input)")
  func inPlaceNamedOnce() throws {
    let environment = MemoryEnvironment(files: ["Info.plist": try Samples.bytes(["k": "v"], .xml)])
    let status = PlistTool(environment: Self.failingWrites(environment, .readOnly)).run(["plutil", "-convert", "binary1", "Info.plist"])
    #expect(status == 1)
    let message = String(decoding: environment.standardError, as: UTF8.self)
    #expect(message.components(separatedBy: "Info.plist").count == 2, "\(message)")
    #expect(message.contains("Read-only file system"), "\(message)")
  }
}
