import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Every compiled nib of the corpus loads; strict mode names exactly the classes the headless
/// model lacks.
@MainActor
@Suite struct CorpusLoadingTests {
  /// Every compiled nib under corpus/nib: flat NIBArchive files, nib folders (the NeXT
  /// typedstream nib among them), the nibs inside compiled storyboards.
  nonisolated static var nibPaths: [String] {
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
      let nib = try Nib(contentsOf: path)
      let result = try Self.load(nib)
      loaded += 1
      objects += result.objects.count
      for name in result.unknownClassNames { unknown[name, default: []].insert(Corpus.name(URL(fileURLWithPath: path))) }
    }
    print("loaded \(loaded) of \(paths.count) nibs, \(objects) objects; unknown classes: \(unknown.keys.sorted())")
    #expect(loaded == paths.count)
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
      // The NeXT typedstream nib's objects are all generic (their values are positional, which
      // no class decodes), AppKit's too: its strict refusal is checked below, not its names.
      if !nib.graph.isTypedStreamNib { missing.formUnion(lenient.unknownClassNames) }
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

/// Every xib and storyboard of the corpus, straight from the document. Lenient mode (the
/// loader's default) loads every one: what the compiler cannot compile Apple's way is left out or
/// compiled best-effort, each time a warning naming the line. Strict mode refuses exactly the
/// documents lenient mode warned about, with the compiler's error and its line.
@MainActor
@Suite struct CorpusDocumentLoadingTests {
  nonisolated static var documents: [CorpusFile] {
    Corpus.files(in: "xib").filter { $0.path.hasSuffix(".xib") || $0.path.hasSuffix(".storyboard") }
  }

  /// Loads `document` (every storyboard controller made, its view loaded) and answers the
  /// warnings of the compile and of the loads.
  static func load(_ document: CorpusFile, strict: Bool = false) throws -> (warnings: [String], objects: Int, menus: Int) {
    if document.path.hasSuffix(".xib") {
      let nib = try Nib(contentsOf: document.path, lenient: !strict)
      let result = try CorpusLoadingTests.load(nib, strict: strict)
      #expect(result.warnings.starts(with: nib.compileWarnings), "\(document.name): the compile's warnings come first")
      return (nib.compileWarnings, result.objects.count, 0)
    }
    let storyboard = try Storyboard(contentsOf: document.path, options: Nib.Options(isStrict: strict, missingConnections: .warning))
    var menus = 0
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
    return (storyboard.compileWarnings, 0, menus)
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyDocumentLoadsInLenientModeAndStrictModeRefusesWhatItWarnedAbout() throws {
    let documents = Self.documents
    #expect(documents.count == 192)
    var loaded = 0
    var objects = 0
    var menus = 0
    var warned: Set<String> = []
    var warnings = 0
    var kinds: [String: Int] = [:]
    for document in documents {
      do {
        let result = try Self.load(document)
        loaded += 1
        objects += result.objects
        menus += result.menus
        if !result.warnings.isEmpty { warned.insert(document.name) }
        warnings += result.warnings.count
        for warning in result.warnings {
          // Each names the document, the line and the element: "<path>:<line>: <element> …".
          let named = warning.hasPrefix(document.path + ":") && warning.dropFirst(document.path.count + 1).prefix { $0.isNumber }.isEmpty == false
          #expect(named, "\(document.name): \(warning)")
          #expect(warning.contains(": <"), "\(document.name): \(warning)")
          let element = warning.split(separator: "<", maxSplits: 1).last?.prefix { $0 != ">" && $0 != " " } ?? ""
          kinds[String(element), default: 0] += 1
        }
      } catch {
        Issue.record("\(document.name) does not load in lenient mode: \(error)")
      }
    }
    print("documents: \(loaded) of \(documents.count) load in lenient mode (\(objects) objects from xibs, \(menus) storyboard main menus); \(warned.count) with \(warnings) warnings; by element: \(kinds.sorted { $0.key < $1.key })")
    #expect(loaded == documents.count)
    #expect(menus >= 4)
    // 26 since the table rules (scrollview_table, sv16b, test_outline_small_sv, both copies of
    // test17_scrollhiding and five tables in windows) and controls (tab views, predicate editors)
    // compile strictly; 40 before. 25 since sb_tv_customclass's custom-class text view compiles.
    // Then the compiler's last features (text view options, named color spaces, multipliers, chained
    // bindings, old-style boxes, bare matrices, configured symbols; table styles, sort
    // descriptors, grid views, controllers, web views, system toolbar items, stack view
    // priorities; storyboard controller scenes) compile, strictly and leniently alike; and with
    // the app's asset-catalog colors (NetNewsWire's AccentColor), every document.
    #expect(warned.isEmpty, "\(warned.sorted())")

    // Strict mode: the compiler refuses exactly the documents lenient mode warned about, naming the line.
    var refused: Set<String> = []
    for document in documents {
      do {
        _ = try Self.load(document, strict: true)
      } catch let error as NibLoadingError where error.code == .unreadable {
        refused.insert(document.name)
        let compilerError = try #require(error.underlying as? InterfaceBuilderError, "\(document.name): \(error)")
        #expect(compilerError.line != nil && compilerError.path == document.path, "\(document.name): \(compilerError)")
        #expect(compilerError.code == .unsupported || compilerError.code == .invalidDocument, "\(document.name): \(compilerError)")
      } catch {
        // Strict loading also refuses the corpus's app classes, which the headless model lacks.
        #expect(!warned.contains(document.name), "\(document.name): \(error)")
      }
    }
    #expect(refused == warned, "refused strictly but loaded leniently without warnings: \(refused.subtracting(warned).sorted()); warned about but not refused: \(warned.subtracting(refused).sorted())")
  }
}
