import Foundation
import Interface
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing

/// Replays every input FuzzNibLoader crashed on (Fuzz/FailCases/FuzzNibLoader/*): a nib that
/// reads instantiates in lenient and strict mode or fails with a NibLoadingError, never a crash.
@Suite struct NibLoaderFuzzRegressionTests {
  static let failCasesFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/FailCases/FuzzNibLoader")

  static var allCases: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: failCasesFolder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test func thereAreCases() {
    #expect(!Self.allCases.isEmpty, "the folder holds the fuzzer's crashes")
  }

  @Test(arguments: allCases)
  func replay(_ name: String) throws {
    let bytes = [UInt8](try Data(contentsOf: Self.failCasesFolder.appendingPathComponent(name)))
    guard let archive = try? NIBArchive(bytes: bytes) else { return }
    let nib = Nib(graph: NibGraph(archive), name: name)
    for strict in [false, true] {
      do {
        let loaded = try nib.load(owner: GenericObject(className: "Owner"), options: Nib.Options(isStrict: strict))
        for case let view as View in loaded.objectsByID.values { _ = view.window }
      } catch {
        #expect(!error.nib.isEmpty)
      }
    }
  }
}
