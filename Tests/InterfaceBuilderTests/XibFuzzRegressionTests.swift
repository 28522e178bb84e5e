import Foundation
import Interface
import InterfaceBuilder
import Testing

/// Replays every input FuzzXibDocument ever crashed on (Fuzz/FailCases/FuzzXibDocument/*) through
/// the checks the fuzz target makes: the document reads or is a typed error naming the path; one
/// that reads compiles or is a typed error naming the path; compiled nibs read back the same.
@Suite("xib fuzz regressions")
struct XibFuzzRegressionTests {
  static let failCasesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/FailCases/FuzzXibDocument")

  static var allCases: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: failCasesFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test func thereAreCases() {
    #expect(!Self.allCases.isEmpty, "the folder holds the fuzzer's crashes")
  }

  @Test(arguments: allCases)
  func replay(_ name: String) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.failCasesFolder.appendingPathComponent(name)))
    let path = "fuzz.xib"
    let document: InterfaceDocument
    do {
      document = try InterfaceDocument(bytes: bytes, path: path, limits: .init(maximumByteCount: 1 << 20, maximumElementCount: 10_000, maximumDepth: 128))
    } catch {
      #expect(error.description.hasPrefix(path))
      return
    }
    let options = CocoaNibCompiler.Options(colorProfiles: ColorProfiles(genericGray: [1, 2, 3], sRGB: [4, 5, 6]))
    let graphs: [NibGraph]
    do {
      graphs =
        document.kind == .storyboard
        ? try CocoaStoryboardCompiler.compile(document, options: options).nibs.map(\.graph)
        : [try CocoaNibCompiler.compile(document, options: options)]
    } catch {
      #expect(error.description.hasPrefix(path), "\(error)")
      return
    }
    for graph in graphs {
      let archive = NIBArchive(graph, keepingUnreachable: false)
      #expect(try NIBArchive(bytes: archive.encoded()).firstDifference(from: archive) == nil)
    }
  }

  /// The first crash: a content view with its window's id took the window's object over.
  @Test func aRepeatedIDIsAnErrorNamingBothLines() throws {
    let bytes = [UInt8](try Data(contentsOf: Self.failCasesFolder.appendingPathComponent("duplicate-id-window-and-view.xib")))
    let document = try InterfaceDocument(bytes: bytes, path: "dup.xib")
    do {
      _ = try CocoaNibCompiler.compile(document, options: .init(colorProfiles: ColorProfiles(genericGray: [1], sRGB: [2])))
      Issue.record("a document with a repeated id compiled")
    } catch {
      #expect(error.code == .invalidDocument)
      #expect(error.line == 15)
      #expect(error.description.contains("already the id of the element at line 11"), "\(error)")
    }
  }
}
