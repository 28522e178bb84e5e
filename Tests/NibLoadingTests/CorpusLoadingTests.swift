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
  static func load(_ nib: Nib, strict: Bool = false) throws(NibLoadingError) -> LoadedNib {
    // App classes the corpus names are not here, so their outlets are warnings, not errors:
    // strictness is about classes in these tests.
    var options = Nib.Options(isStrict: strict, missingConnections: .warning)
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
      objects += result.objects.count
      for name in result.unknownClassNames { unknown[name, default: []].insert(Corpus.name(URL(fileURLWithPath: path))) }
    }
    print("loaded \(loaded) of \(paths.count) nibs, \(objects) objects; unknown classes: \(unknown.keys.sorted())")
    #expect(loaded == paths.count - 1)
  }

  /// Every menu item archived with a submenu has it live (submenus are archived after their item).
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func menuItemsKeepTheirSubmenus() throws {
    var withSubmenu = 0
    for path in Self.nibPaths {
      guard let nib = try? Nib(contentsOf: path) else { continue }
      let loaded = try Self.load(nib)
      for case let item as MenuItem in loaded.objects {
        guard item.submenu != nil || item.title.isEmpty == false else { continue }
        if item.submenu != nil { withSubmenu += 1 }
      }
      let archived = nib.graph.objects.filter { object in
        guard object.className == "NSMenuItem", case .object? = object["NSSubmenu"] else { return false }
        return true
      }.count
      let live = loaded.objects.compactMap { ($0 as? MenuItem)?.submenu }.count
      #expect(live == archived, "\(path): \(archived) items archived with a submenu, \(live) have one")
    }
    #expect(withSubmenu > 20)
  }

  /// Strict mode fails on a class lenient mode did not find, and the classes lenient mode did
  /// not find are all app classes: no AppKit class of the corpus is missing from the model.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func strictModeNamesOnlyAppClasses() throws {
    var missing: Set<String> = []
    for path in Self.nibPaths {
      guard let nib = try? Nib(contentsOf: path) else { continue }
      let lenient = try Self.load(nib)
      missing.formUnion(lenient.unknownClassNames)
      do {
        _ = try Self.load(nib, strict: true)
        #expect(lenient.unknownClassNames.isEmpty, "strict mode loaded \(path) although \(lenient.unknownClassNames) are unknown")
      } catch {
        #expect(error.code == .unknownClass, "\(path): \(error)")
        #expect(lenient.unknownClassNames.contains(error.key ?? "?"), "\(path): strict mode names \(error.key ?? "?")")
      }
    }
    print("strict mode: \(missing.count) classes missing: " + missing.sorted().joined(separator: ", "))
    #expect(missing.allSatisfy { !$0.hasPrefix("NS") && !$0.hasPrefix("UI") })
  }
}

/// Every xib and storyboard of the corpus, straight from the document: loaded, or refused by the
/// compiler with its line (never a loader failure).
@Suite struct CorpusDocumentLoadingTests {
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyDocumentLoadsOrIsRefusedByTheCompiler() throws {
    let documents = Corpus.files(in: "xib").filter { $0.path.hasSuffix(".xib") || $0.path.hasSuffix(".storyboard") }
    #expect(documents.count >= 190)
    var loaded = 0
    var objects = 0
    var refusals: [String: Int] = [:]
    var menus = 0
    let options = Nib.Options(missingConnections: .warning)
    for document in documents {
      do {
        if document.path.hasSuffix(".xib") {
          let result = try CorpusLoadingTests.load(try Nib(contentsOf: document.path))
          objects += result.objects.count
        } else {
          let storyboard = try Storyboard(contentsOf: document.path, options: options)
          // Apple names a main menu in every macOS storyboard's Info.plist, with or without its nib.
          let application = Application()
          if let menu = try storyboard.loadMainMenu(into: application) {
            #expect(application.mainMenu === menu && !menu.items.isEmpty, "\(document.name)")
            menus += 1
          }
          for identifier in storyboard.identifiers {
            let controller = try storyboard.instantiateController(withIdentifier: identifier)
            try (controller as? ViewController ?? (controller as? WindowController)?.contentViewController)?.loadViewIfNeeded()
          }
        }
        loaded += 1
      } catch let error as NibLoadingError {
        // Only the compiler may refuse (its error is the underlying cause, with a line).
        #expect(error.code == .unreadable, "\(document.name): \(error)")
        let iOS = (try? String(contentsOfFile: document.path, encoding: .utf8))?.contains("CocoaTouch") == true
        refusals[iOS ? "iOS document" : "macOS document", default: 0] += 1
        if iOS { print("refused iOS: \(document.name): \(error.underlying.map { "\($0)" } ?? error.detail)") }
      } catch {
        Issue.record("\(document.name): \(error)")
      }
    }
    print("documents: \(loaded) of \(documents.count) load (\(objects) objects from xibs, \(menus) storyboard main menus); refused: \(refusals)")
    #expect(menus >= 4)
    #expect(loaded >= 142)
  }
}
