import DefaultsTool
import Foundation
import StasisSystem
import PropertyLists
import TestSupport
import Testing

/// `defaults -currentHost …`: the host-specific (`ByHost`) domains, in
/// `Library/Preferences/ByHost/<domain>.<hostUUID>.plist` as macOS keeps them.
struct ByHostTests {
  static let host = "0C4A1E2B-7F3D-4E55-9A61-2B8C9D0E1F23"

  /// Runs the tool with this host identifier.
  func run(_ capture: CapturingEnvironment, _ arguments: String..., host: String = ByHostTests.host) -> (status: Int32, stdout: String, stderr: String) {
    var environment = capture.host
    environment.hostIdentifier = host
    let status = DefaultsTool(environment: environment).run(["defaults"] + arguments)
    defer {
      capture.output = []
      capture.error = []
    }
    return (status, String(decoding: capture.output, as: UTF8.self), String(decoding: capture.error, as: UTF8.self))
  }

  @Test func writeReadDeleteAndDomains() throws {
    let capture = CapturingEnvironment()
    defer { capture.folder.remove() }
    let preferences = capture.root + "/Containers/com.example.Notes/Library/Preferences"
    #expect(run(capture, "-currentHost", "write", "com.example.Notes", "Volume", "-int", "7").status == 0)
    let byHost = preferences + "/ByHost/com.example.Notes.\(Self.host).plist"
    #expect(FileManager.default.fileExists(atPath: byHost))
    #expect(!FileManager.default.fileExists(atPath: preferences + "/com.example.Notes.plist"), "the ordinary domain is not written")
    let (value, _) = try PropertyListValue.read(Array(try Data(contentsOf: URL(fileURLWithPath: byHost))), policy: .automatic)
    #expect(value.dictionaryValue?["Volume"] == .integer(7))

    #expect(run(capture, "-currentHost", "read", "com.example.Notes", "Volume").stdout == "7\n")
    #expect(run(capture, "read", "com.example.Notes", "Volume").status == 1, "not in the ordinary domain")
    #expect(run(capture, "-currentHost", "read", "com.example.Notes", "Volume", host: "11111111-2222-3333-4444-555555555555").status == 1, "another host's domain")

    #expect(run(capture, "write", "com.example.Other", "A", "-bool", "YES").status == 0)
    #expect(run(capture, "-currentHost", "domains").stdout == "com.example.Notes\n")
    #expect(run(capture, "domains").stdout == "com.example.Other\n")

    #expect(run(capture, "-currentHost", "delete", "com.example.Notes", "Volume").status == 0)
    #expect(run(capture, "-currentHost", "read", "com.example.Notes").stdout == "{\n}\n")
    #expect(run(capture, "-currentHost", "delete", "com.example.Notes").status == 0)
    #expect(!FileManager.default.fileExists(atPath: byHost))
  }

  @Test func theGlobalDomainHasAHostFileToo() throws {
    let capture = CapturingEnvironment()
    defer { capture.folder.remove() }
    #expect(run(capture, "-currentHost", "write", "-g", "AppleLanguages", "-array", "de").status == 0)
    let path = capture.root + "/Containers/.GlobalPreferences/ByHost/.GlobalPreferences.\(Self.host).plist"
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(run(capture, "read", "-g", "AppleLanguages").status == 1)
    #expect(run(capture, "-currentHost", "read", "-g", "AppleLanguages").stdout == "(\n    de\n)\n")
  }

  /// The identifier: `$STASIS_HOST_UUID`, else the machine id in macOS's upper-case UUID form.
  @Test func theHostIdentifier() {
    #expect(HostEnvironment.hostIdentifier(from: ["STASIS_HOST_UUID": "ABC"]) == "ABC")
    let derived = HostEnvironment.hostIdentifier(from: [:])
    #expect(derived.count == 36 && derived.split(separator: "-").map(\.count) == [8, 4, 4, 4, 12], "\(derived)")
    #expect(derived == derived.uppercased())
    #expect(HostEnvironment.hostIdentifier(from: [:]) == derived, "stable")
    if let machine = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8) {
      #expect(derived.replacingOccurrences(of: "-", with: "") == machine.trimmingCharacters(in: .whitespacesAndNewlines).uppercased())
    }
  }
}
