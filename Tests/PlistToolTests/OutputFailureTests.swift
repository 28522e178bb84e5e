import StasisSystem
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
  static func failingWrites(_ environment: MemoryEnvironment, _ number: Int32) -> HostEnvironment {
    var host = environment.host
    host.fileSystem.writeAtomically = { (_, path) throws(AtomicFileError) in
      throw AtomicFileError(AtomicFileError.code(for: number), path: path, systemError: number, detail: "cannot rename the temporary file over the destination")
    }
    return host
  }

  @Test("-o OUT: the message names OUT, once, with the system's reason", arguments: [EROFS, ENOSPC, EIO])
  func outputNamed(number: Int32) throws {
    let environment = MemoryEnvironment(files: ["in/Info.bplist": try Samples.bytes(["k": "v"], .binary)])
    let status = PlistTool(environment: Self.failingWrites(environment, number)).run(
      ["plutil", "-convert", "xml1", "-o", "out/Info.plist", "in/Info.bplist"])
    #expect(status == 1)
    let message = String(decoding: environment.standardError, as: UTF8.self)
    #expect(message.contains("out/Info.plist: cannot rename the temporary file over the destination: \(String(cString: strerror(number)))"), "\(message)")
    #expect(message.components(separatedBy: "out/Info.plist").count == 2, "\(message)")
  }

  @Test("In place: the file is named once (it is the input)")
  func inPlaceNamedOnce() throws {
    let environment = MemoryEnvironment(files: ["Info.plist": try Samples.bytes(["k": "v"], .xml)])
    let status = PlistTool(environment: Self.failingWrites(environment, EROFS)).run(["plutil", "-convert", "binary1", "Info.plist"])
    #expect(status == 1)
    let message = String(decoding: environment.standardError, as: UTF8.self)
    #expect(message.components(separatedBy: "Info.plist").count == 2, "\(message)")
    #expect(message.contains("Read-only file system"), "\(message)")
  }
}
