import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// For the Apple-compiled iOS pairs (ios_pairs), loading Apple's nib and loading the nib
/// `UIKitNibCompiler` compiles from the same document (as the Xcode that made Apple's, for its
/// deployment target) — each
/// through the loader — give live graphs described alike, object for object by path.
@MainActor
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct UIKitAppleEquivalenceTests {
  /// One row of ios_pairs/MANIFEST.tsv: the pair's folder, its files, `DTXcode` and the module
  /// of the framework it was built into.
  struct Pair {
    var source: String
    var apple: [String]
    var xcode: Int
    var module: String?
    var target: Int?
  }

  nonisolated static let pairs: [Pair] = {
    let manifest = Corpus.file("ios_pairs/MANIFEST.tsv").path
    guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else { return [] }
    // The manifest's lines end in CRLF.
    var rows = text.split(whereSeparator: \.isNewline).map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    guard let header = rows.first else { return [] }
    rows.removeFirst()
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
    guard let folder = column("folder"), let source = column("source_file"), let compiled = column("compiled_file"),
      let xcode = column("DTXcode"), let path = column("compiled_path"), let minimum = column("MinimumOSVersion")
    else { return [] }
    return rows.compactMap { row -> Pair? in
      guard row.count == header.count, row[source].hasSuffix(".xib"), let version = Int(row[xcode]) else { return nil }
      let base = Corpus.root.appendingPathComponent("ios_pairs/" + row[folder]).path
      let output = base + "/" + row[compiled]
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) else { return nil }
      let apple =
        isFolder.boolValue
        ? ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).sorted().map { output + "/" + $0 } : [output]
      let module = row[path].split(separator: "/").first { $0.hasSuffix(".framework") }.map { String($0.dropLast(".framework".count)) }
      let target = row[minimum].split(separator: ".").first.flatMap { Int($0) }
      return Pair(source: base + "/" + row[source], apple: apple, xcode: version, module: module, target: target)
    }
  }()

  static func describe(_ nib: Nib) throws -> [String] {
    let owner = GenericObject(className: "Owner")
    // The apps' own classes are not here: their outlets are warnings (the same on both sides).
    var options = Nib.Options(missingConnections: .warning)
    options.externalObjects = [:]
    let loaded = try nib.load(owner: owner, options: options)
    return LiveGraphDescription(loaded, owner: owner).lines
  }

  /// Every pair whose compile is Apple's graph (by `canonicalDifference`) loads alike; the
  /// loader reads Apple's UIKit encoding as it reads Stasis's.
  @Test func appleNibsAndCompiledNibsLoadAlike() throws {
    #expect(Self.pairs.count >= 700)
    var compared = 0
    var differing: [String] = []
    var loadFailures: [String] = []
    for pair in Self.pairs {
      let document = try InterfaceDocument(contentsOfFile: pair.source)
      let graph = try UIKitNibCompiler.compile(
        document, options: .init(module: pair.module, xcode: pair.xcode, deploymentTarget: pair.target.map { ($0, 0) }))
      let ours = NIBArchive(graph, keepingUnreachable: false)
      for path in pair.apple {
        guard let apple = try? NIBArchive(contentsOfFile: path), ours.canonicalDifference(from: apple) == nil else { continue }
        compared += 1
        do {
          let appleLines = try Self.describe(try Nib(contentsOf: path))
          let ourLines = try Self.describe(Nib(graph: graph, name: pair.source))
          if appleLines != ourLines {
            let first = zip(appleLines, ourLines).first { $0 != $1 }
            differing.append("\(path): \(first.map { "Apple \($0.0) / ours \($0.1)" } ?? "\(appleLines.count) vs \(ourLines.count) lines")")
          }
        } catch {
          loadFailures.append("\(path): \(error)")
        }
        break
      }
    }
    print("iOS pairs: \(compared) compile to Apple's graph; \(compared - differing.count - loadFailures.count) load alike, \(loadFailures.count) do not load")
    for line in (differing + loadFailures).prefix(10) { print("  " + line) }
    #expect(compared >= 500)
    #expect(differing.isEmpty)
    #expect(loadFailures.isEmpty)
  }
}
