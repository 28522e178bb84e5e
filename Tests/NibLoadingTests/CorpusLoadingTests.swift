import Foundation
import Interface
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Every compiled nib of the corpus loads; strict mode names exactly the classes the headless
/// model lacks.
@Suite struct CorpusLoadingTests {
  /// Every compiled nib under corpus/nib: flat NIBArchive files, nib folders, the nibs inside
  /// compiled storyboards; the NeXT typedstream nib (GNUstep) is refused by the reader.
  static var nibPaths: [String] {
    var paths: Set<String> = []
    for file in Corpus.files(in: "nib") {
      let path = file.path
      if let range = path.range(of: ".nib/") {
        paths.insert(String(path[..<range.lowerBound]) + ".nib")
      } else if path.hasSuffix(".nib") {
        paths.insert(path)
      }
    }
    return paths.sorted()
  }

  /// Loads `nib` with a File's Owner and stand-ins for the external objects it names (a
  /// storyboard's view nibs name their scene's objects), found by the loader's error.
  static func load(_ nib: Nib, strict: Bool = false) throws -> LoadedNib {
    var options = Nib.Options(isStrict: strict)
    while true {
      do {
        return try nib.load(owner: NibObject(), options: options)
      } catch {
        guard error.code == .missingExternalObject, let name = error.key, options.externalObjects[name] == nil else { throw error }
        options.externalObjects[name] = NibObject()
      }
    }
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyCompiledNibLoadsInLenientMode() throws {
    let paths = Self.nibPaths
    #expect(paths.count > 150)
    var loaded = 0
    var objects = 0
    var unknown: [String: Set<String>] = [:]
    for path in paths {
      guard let nib = try? Nib(contentsOf: path) else {
        #expect(path.hasSuffix("gnustep_model_test.nib"), "only the typedstream nib may be unreadable: \(path)")
        continue
      }
      let result = try Self.load(nib)
      loaded += 1
      objects += result.objectsByID.count
      for name in result.unknownClassNames { unknown[name, default: []].insert(Corpus.name(URL(fileURLWithPath: path))) }
    }
    print("loaded \(loaded) of \(paths.count) nibs, \(objects) objects; unknown classes: \(unknown.keys.sorted())")
    #expect(loaded == paths.count - 1)
  }
}
