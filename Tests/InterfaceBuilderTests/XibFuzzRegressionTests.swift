import Foundation
import Interface
import InterfaceBuilder
import Testing
import PropertyLists
import TestSupport

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

/// Inputs a review found could trap, hang or write outside the output: each is now a typed error.
@Suite struct HostileDocumentTests {
  static func storyboard(_ scenes: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <document type="com.apple.InterfaceBuilder3.Cocoa.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa">
          <scenes>
      \(scenes)
          </scenes>
      </document>
      """.utf8)
  }

  static func windowControllerScene(_ identifier: String, id: String) -> String {
    """
            <scene sceneID="s-\(id)"><objects>
                <windowController id="\(id)" storyboardIdentifier="\(identifier)" sceneMemberID="viewController">
                    <window key="window" title="W" id="w-\(id)"><rect key="contentRect" x="0" y="0" width="10" height="10"/></window>
                </windowController>
            </objects></scene>
    """
  }

  @Test(arguments: ["../../../../tmp/escape", "a/b", ".hidden", "", "Info"])
  func aNibNameThatIsNotAFileNameIsRefused(_ identifier: String) throws {
    let document = try InterfaceDocument(bytes: Self.storyboard(Self.windowControllerScene(identifier, id: "c1")), path: "s.storyboard")
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) { try CocoaStoryboardCompiler.compile(document) }
    #expect(error?.line == 5, "\(String(describing: error))")
  }

  @Test func twoScenesWithOneNameAreRefused() throws {
    let scenes = Self.windowControllerScene("Main", id: "c1") + Self.windowControllerScene("Main", id: "c2")
    let document = try InterfaceDocument(bytes: Self.storyboard(scenes), path: "s.storyboard")
    let error = expectError(InterfaceBuilderError.self, .invalidDocument) { try CocoaStoryboardCompiler.compile(document) }
    #expect(error?.description.contains("\"Main\"") == true)
  }

  @Test func aUIDPastWhatAnIntHoldsIsCorrupt() throws {
    let archive = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("$archiver", .string("NSKeyedArchiver")), ("$objects", .array([.string("$null")])),
        ("$top", .dictionary(PropertyListDictionary([("IB.objectdata", .uid(UInt64.max))]))),
      ]))
    expectError(InterfaceError.self, .corrupt) { try NibGraph(keyedArchive: archive, path: "k.nib") }
  }

  @Test func aLongChainOfReferencesDoesNotExhaustTheStack() throws {
    // 200,000 objects, each holding the next: read with a work list, not recursion.
    let count = 200_000
    var objects: [PropertyListValue] = [.string("$null"), .dictionary(PropertyListDictionary([("$classname", .string("Link")), ("$classes", .array([.string("Link")]))]))]
    for index in 0..<count {
      let next: PropertyListValue = index + 1 < count ? .uid(UInt64(index + 3)) : .uid(0)
      objects.append(.dictionary(PropertyListDictionary([("$class", .uid(1)), ("next", next)])))
    }
    let archive = PropertyListValue.dictionary(
      PropertyListDictionary([
        ("$archiver", .string("NSKeyedArchiver")), ("$objects", .array(objects)),
        ("$top", .dictionary(PropertyListDictionary([("IB.objectdata", .uid(2))]))),
      ]))
    let graph = try NibGraph(keyedArchive: archive)
    #expect(graph.objects.count == count + 1)
  }
}
