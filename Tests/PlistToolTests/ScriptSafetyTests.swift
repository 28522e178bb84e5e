import StasisSystem
import Foundation
@testable import PlistTool
import PropertyLists
import Testing
import TestSupport

/// Issue 13, findings 2 and 5 (the `plutil` parts), in process.
@Suite("plutil in scripts: standard output failures, constant names, control characters")
struct PlistToolScriptSafetyTests {
  /// Standard output that fails as a full disk does (after taking `accepted` bytes).
  static func failingOutput(_ environment: MemoryEnvironment) -> HostEnvironment {
    var host = environment.host
    let streams = host.standardStreams
    host.standardStreams = StandardStreams(
      readInput: streams.readInput,
      writeOutput: { (_) throws(AtomicFileError) in
        throw AtomicFileError(.noSpace, path: "<stdout>", systemError: ENOSPC, detail: "cannot write")
      },
      writeError: streams.writeError)
    return host
  }

  @Test(arguments: [["-p", "a.plist"], ["-convert", "xml1", "-o", "-", "a.plist"], ["-lint", "a.plist"], ["-help"]])
  func aFailedWriteToStandardOutputIsExitStatusOne(_ arguments: [String]) throws {
    let environment = MemoryEnvironment(files: ["a.plist": try Samples.bytes(["k": "v"], .xml)])
    let status = PlistTool(environment: Self.failingOutput(environment)).run(["plutil"] + arguments)
    #expect(status == 1)
    #expect(String(decoding: environment.standardError, as: UTF8.self) == "plutil: cannot write to standard output: No space left on device\n")
  }

  @Test func aGoodRunStaysZero() throws {
    let run = plutil("-p", "a.plist", files: ["a.plist": try Samples.bytes(["k": "v"], .xml)])
    #expect(run.status == 0)
  }

  /// Every file name gives a constant that Swift parses (checked with `swiftc -parse`).
  static let awkwardNames = [
    "a.b.plist", "1st.plist", "class.plist", "let.plist", "my-file $1+2.plist", "(x).plist", "_.plist", "é-ü.plist",
    "self.plist", "Any.plist", "a'b.plist", "+.plist", "x y.z.plist",
  ]

  @Test func constantNamesAreIdentifiers() {
    #expect(Literal.variableName("a.b.plist") == "a_b")
    #expect(Literal.variableName("1st.plist") == "_1st")
    #expect(Literal.variableName("class.plist") == "`class`")
    #expect(Literal.variableName("class.plist", swift: false) == "class")
    #expect(Literal.variableName("int.plist", swift: false) == "int_")
    #expect(Literal.variableName("+.plist") == "plist")
    #expect(Literal.variableName("_.plist") == "_")   // `let _` and `const _` are valid, as for standard input
    #expect(Literal.variableName("/x/my-file $1+2.plist") == "my_file_12")
  }

  static var swiftc: String? {
    let candidates = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test(.enabled(if: swiftc != nil, "swiftc not found at /opt/swift/usr/bin or /usr/bin"))
  func generatedSwiftParsesForAwkwardFileNames() throws {
    let folder = try ScratchFolder("plutil-swift-names")
    defer { folder.remove() }
    var sources: [String] = []
    for (index, name) in Self.awkwardNames.enumerated() {
      let run = plutil("-convert", "swift", "-o", "-", name, files: [name: try Samples.bytes(["k": "v", "n": 1], .xml)])
      #expect(run.status == 0, "\(name): \(run.stderr)")
      let path = folder.file("case\(index).swift")
      try folder.write(run.stdoutBytes, to: "case\(index).swift")
      sources.append(path)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.swiftc))
    process.arguments = ["-parse"] + sources
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }

  /// CF reads NUL and C0 control characters in XML strings and keys (XML 1.0 forbids them), and
  /// so does Stasis; the toolchain's plutil, which uses CF's parser, is the oracle.
  @Test func controlCharactersInXMLAreReadAsCFReadsThem() throws {
    let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>a\u{01}b</key><string>x\u{00}y\u{1F}z</string></dict></plist>\n"
    let value = try PropertyListValue(decoding: Array(xml.utf8))
    #expect(value["a\u{01}b"]?.stringValue == "x\u{00}y\u{1F}z")
    guard ToolchainPlutil.isAvailable else { return }
    let folder = try ScratchFolder("plutil-control")
    defer { folder.remove() }
    try folder.write(Array(xml.utf8), to: "c.plist")
    let oracle = try ToolchainPlutil.run(["-convert", "json", "-o", "-", folder.file("c.plist")])
    #expect(oracle.status == 0)
    #expect(oracle.stdoutText == #"{"a\u0001b":"x\u0000y\u001fz"}"#)
  }
}
