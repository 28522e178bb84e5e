import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Every connection of every corpus nib, and of every corpus document compiled, is applied in
/// the live graph: loaded strictly with the app's classes registered (``AppClasses``), every
/// connector the Python `nibarchive` package finds in the nib's `NSConnections` and
/// `NSAccessibilityConnectors` (or `UINibConnectionsKey`) is counted applied, class by class.
@MainActor
@Suite struct ConnectorCoverageTests {
  /// A compiled nib to load: its NIBArchive file and the graphs the app classes come from.
  struct Unit {
    let path: String
    let graph: NibGraph
  }

  /// The NIBArchive nibs of corpus/nib (flat files and those inside nib folders and storyboardc).
  static func corpusNibs() throws -> [Unit] {
    var units: [Unit] = []
    for file in Corpus.files(in: "nib") where file.path.hasSuffix(".nib") {
      let bytes = try file.bytes()
      guard NIBArchive.isNIBArchive(bytes) else { continue }
      units.append(Unit(path: file.path, graph: NibGraph(try NIBArchive(bytes: bytes))))
    }
    return units
  }

  /// Every corpus xib and storyboard compiled strictly (Stasis's compilers), each nib written as
  /// a NIBArchive into `scratch`.
  static func compiledDocuments(into scratch: ScratchFolder) throws -> [Unit] {
    var units: [Unit] = []
    for (number, file) in CorpusDocumentLoadingTests.documents.enumerated() {
      for (name, graph) in try compile(file) {
        let fileName = "\(number)-\(file.lastPathComponent)\(name.isEmpty ? "" : "-" + name).nib"
        try scratch.write(NIBArchive(graph).encoded(), to: fileName)
        units.append(Unit(path: scratch.file(fileName), graph: graph))
      }
    }
    return units
  }

  /// The nibs `file` compiles to strictly (Stasis's compilers), by name (empty for a xib).
  static func compile(_ file: CorpusFile) throws -> [(String, NibGraph)] {
    let document = try InterfaceDocument(contentsOfFile: file.path)
    switch (document.platform, document.kind) {
    case (.macOS, .xib): return [("", try CocoaNibCompiler.compile(document))]
    case (.macOS, .storyboard): return try CocoaStoryboardCompiler.compile(document).nibs.map { ($0.name, $0.graph) }
    case (.iOS, .xib): return [("", try CocoaTouchCompiler.compile(document))]
    case (.iOS, .storyboard): return try CocoaTouchStoryboardCompiler.compile(document).nibs.map { ($0.name, $0.graph) }
    }
  }

  /// Every corpus xib and storyboard, straight from the document (`Nib(contentsOf:)`,
  /// `Storyboard(contentsOf:)`), loads strictly once its app classes are registered: every
  /// storyboard controller made and its view loaded, the main menu too.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyDocumentLoadsStrictlyWithItsAppClasses() throws {
    var loaded = 0, controllers = 0
    var failed: [String] = []
    for document in CorpusDocumentLoadingTests.documents {
      do {
        let registry = AppClasses.registry(for: try Self.compile(document).map(\.1))
        if document.path.hasSuffix(".xib") {
          let result = try Self.loadStrictly(try Nib(contentsOf: document.path), classes: registry)
          #expect(result.warnings.isEmpty, "\(document.name): \(result.warnings.prefix(3))")
        } else {
          let storyboard = try Storyboard(contentsOf: document.path, options: Nib.Options(classes: registry, isStrict: true))
          _ = try storyboard.loadMainMenu(into: Application())
          for identifier in storyboard.identifiers {
            let controller = try storyboard.instantiateController(withIdentifier: identifier)
            try (controller as? ViewController ?? (controller as? WindowController)?.contentViewController)?.loadViewIfNeeded()
            controllers += 1
          }
        }
        loaded += 1
      } catch {
        failed.append("\(document.name): \(error)")
      }
    }
    print("strict loading with app classes: \(loaded) of \(CorpusDocumentLoadingTests.documents.count) documents (\(controllers) storyboard controllers)")
    #expect(failed.isEmpty, "\(failed.joined(separator: "\n"))")
    #expect(loaded == 192)
  }

  /// The oracle's counts, by path.
  static func oracleCounts(_ paths: [String]) throws -> [String: [String: Int]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Oracles/connector_count.py").path,
    ]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(paths.joined(separator: "\n").utf8))
    try input.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    var counts: [String: [String: Int]] = [:]
    var current = ""
    for line in text.split(separator: "\n") {
      if line.hasPrefix("== ") {
        current = String(line.dropFirst(3))
        counts[current] = [:]
      } else if let space = line.lastIndex(of: " "), let count = Int(line[line.index(after: space)...]) {
        counts[current, default: [:]][String(line[..<space])] = count
      }
    }
    return counts
  }

  /// Loads `unit` strictly with its app classes, stand-ins for its external objects.
  static func loadStrictly(_ unit: Unit) throws -> LoadedNib {
    let nib = try Nib(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: unit.path))), name: unit.path)
    return try loadStrictly(nib, classes: AppClasses.registry(for: [unit.graph]))
  }

  /// Loads `nib` strictly with `classes`, stand-ins for its external objects.
  static func loadStrictly(_ nib: Nib, classes: ClassRegistry) throws(NibLoadingError) -> LoadedNib {
    var options = Nib.Options(classes: classes, isStrict: true, missingConnections: .error)
    while true {
      do {
        return try nib.load(owner: AppObject(), options: options)
      } catch {
        guard error.code == .missingExternalObject, let name = error.key, options.externalObjects[name] == nil else { throw error }
        // A storyboard's nibs name the storyboard itself; the others are the scene's objects.
        options.externalObjects[name] = name.hasSuffix("StoryboardPlaceholder") ? StoryboardStandIn() : AppObject()
      }
    }
  }

  /// What a storyboard's `storyboard` outlets are set to when its nibs are loaded one by one.
  final class StoryboardStandIn: ViewControllerSource {
    func instantiateViewController(withIdentifier identifier: String) throws -> ViewController {
      throw TestFailure("the stand-in storyboard makes no scenes (\(identifier))")
    }
    var storyboardName: String { "stand-in" }
  }

  nonisolated static let pythonAvailable = PythonModule.isAvailable("nibarchive")

  @Test(.enabled(if: Corpus.isAvailable && pythonAvailable, "needs the corpus and python3 with nibarchive (pip install nibarchive)"))
  func everyConnectorIsAppliedInTheLiveGraph() throws {
    let scratch = try ScratchFolder("connectors")
    defer { scratch.remove() }
    let nibs = try Self.corpusNibs()
    let documents = try Self.compiledDocuments(into: scratch)
    let units = nibs + documents
    let expected = try Self.oracleCounts(units.map(\.path))
    var connectors = 0, applied = 0, failed: [String] = []
    var byClass: [String: Int] = [:]
    for unit in units {
      let oracle = expected[unit.path] ?? [:]
      connectors += oracle.values.reduce(0, +)
      byClass.merge(oracle, uniquingKeysWith: +)
      do {
        let loaded = try Self.loadStrictly(unit)
        applied += loaded.appliedConnections.values.reduce(0, +)
        #expect(loaded.appliedConnections == oracle, "\(unit.path): applied \(loaded.appliedConnections), nibarchive \(oracle)")
        #expect(loaded.warnings.isEmpty, "\(unit.path): \(loaded.warnings.prefix(3))")
      } catch {
        failed.append("\(unit.path): \(error)")
      }
    }
    print("connectors: \(nibs.count) corpus nibs and \(documents.count) nibs compiled from \(CorpusDocumentLoadingTests.documents.count) documents; \(applied) of \(connectors) connectors (nibarchive's count) applied strictly; \(failed.count) nibs refused; by class: \(byClass.sorted { $0.key < $1.key })")
    #expect(failed.isEmpty, "\(failed.count) refused strictly: \(failed.joined(separator: "\n"))")
    #expect(applied == connectors)
  }
}
