import Foundation
import PropertyLists
import Testing
import TestSupport

import Interface

/// Every compiled nib and storyboard in corpus/nib opens through `CompiledNib` /
/// `CompiledStoryboard`, whatever its form (flat file, `.nib/` folder, `.storyboardc`-style
/// folder with an Info.plist), the NeXT typedstream nib among them.
@Suite("Compiled nibs and storyboards on disk")
struct CompiledNibTests {
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyCorpusNibOpens() throws {
    let root = Corpus.root.appendingPathComponent("nib")
    let entries = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
    var nibArchives = 0, keyedArchives = 0, typedStreams = 0, storyboards = 0, storyboardNibs = 0
    for entry in entries {
      let path = root.appendingPathComponent(entry).path
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      if entry.hasSuffix(".out") && isFolder.boolValue {
        let storyboard = try CompiledStoryboard(contentsOf: path)
        storyboards += 1
        storyboardNibs += storyboard.nibs.count
        #expect(storyboard.info["NSStoryboardVersion"] == 1, "\(entry)")
        let names = storyboard.info["NSViewControllerIdentifiersToNibNames"]?.dictionaryValue?.values.compactMap(\.stringValue) ?? []
        for name in names { #expect(storyboard.nibs[name] != nil, "\(entry): Info.plist names \(name).nib, which is not there") }
        continue
      }
      guard entry.hasSuffix(".nib"), !entry.contains(".out/") else { continue }
      if entry.hasPrefix("Test-nib.nib/") || entry.hasPrefix("gnustep_model_test.nib/") { continue }   // inside the folders below
      switch try CompiledNib(contentsOf: path) {
      case .nibArchive: nibArchives += 1
      case .keyedArchive(let archive):
        keyedArchives += 1
        #expect(archive["$top"]?["IB.objectdata"] != nil, "\(entry): a keyed-archive nib's root is IB.objectdata")
      case .typedStream(let stream):
        typedStreams += 1
        #expect(stream.rootObject.map(stream.className(ofObject:)) == "NSIBObjectData", "\(entry): a typedstream nib's root is NSIBObjectData")
      }
    }
    print("compiled nibs: \(nibArchives) NIBArchive nibs, \(keyedArchives) keyed-archive nib folders, \(typedStreams) typedstream nib folders, \(storyboards) compiled storyboards holding \(storyboardNibs) nibs")
    #expect(nibArchives >= 100 && keyedArchives >= 1 && typedStreams == 1 && storyboards >= 8)
  }
}

/// A keyed-archive nib in the same model as a NIBArchive.
@Suite struct KeyedArchiveNibGraphTests {
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func theKeyedArchiveNibBecomesAGraph() throws {
    let path = Corpus.file("nib/Test-nib.nib").path
    guard case .keyedArchive(let archive) = try CompiledNib(contentsOf: path) else {
      Issue.record("Test-nib.nib is a keyed-archive nib")
      return
    }
    let graph = try NibGraph(keyedArchive: archive, path: path)
    #expect(graph[graph.root].entries.map(\.key) == ["IB.objectdata"])
    let listing = graph.hierarchyListing()
    #expect(listing.contains("NSMenu \"Main Menu\""))
    #expect(graph.classesListing().contains("NSMenuItem"))
    // Every $objects entry that is reachable becomes one object: written and read back unchanged.
    let written = NIBArchive(graph)
    #expect(try NIBArchive(bytes: written.encoded()).firstDifference(from: written) == nil)
  }

  @Test func aUIDPastTheObjectsIsCorrupt() throws {
    let archive = try PropertyListValue(decoding: Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>$archiver</key><string>NSKeyedArchiver</string>
      <key>$objects</key><array><string>$null</string></array>
      <key>$top</key><dict><key>IB.objectdata</key><dict><key>CF$UID</key><integer>7</integer></dict></dict>
      </dict></plist>
      """.utf8))
    expectError(InterfaceError.self, .corrupt) { try NibGraph(keyedArchive: archive, path: "k.nib") }
  }
}
