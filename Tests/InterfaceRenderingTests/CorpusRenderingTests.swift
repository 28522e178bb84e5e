import Foundation
@testable import IBTool
import InterfaceRendering
import Testing
import TestSupport

/// `ibtool --render` on every interface document of the corpus — AppKit and UIKit xibs and
/// storyboards, Apple's compiled nibs and storyboards, a sample of the iOS pairs (both the
/// documents and Apple's compiled output) — each written as SVG that parses as XML.
@MainActor
@Suite("Rendering the corpus")
struct CorpusRenderingTests {
  /// Every 8th iOS pair (sorted), both its source and Apple's compiled output.
  nonisolated static var iOSPairSample: [String] {
    var folders: Set<String> = []
    for file in Corpus.files(in: "ios_pairs", excluding: ["licenses"]) {
      let parts = file.name.split(separator: "/")
      guard parts.count >= 4 else { continue }
      folders.insert(parts.prefix(3).joined(separator: "/"))
    }
    var documents: [String] = []
    for (index, folder) in folders.sorted().enumerated() where index % 8 == 0 {
      let path = Corpus.root.appendingPathComponent(folder).path
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      for entry in entries.sorted() where [".xib", ".storyboard", ".nib", ".storyboardc"].contains(where: entry.hasSuffix) {
        documents.append(path + "/" + entry)
      }
    }
    return documents
  }

  /// The corpus's interface documents: xib/ (documents), nib/ (compiled nibs, nib folders and
  /// storyboard folders) and the iOS pair sample.
  nonisolated static var documents: [String] {
    var paths: Set<String> = []
    for file in Corpus.files(in: "xib") where file.path.hasSuffix(".xib") || file.path.hasSuffix(".storyboard") { paths.insert(file.path) }
    for file in Corpus.files(in: "nib") {
      let path = file.path
      if let range = path.range(of: ".storyboardc/") {
        paths.insert(String(path[..<range.lowerBound]) + ".storyboardc")
      } else if let range = path.range(of: ".nib/") {
        paths.insert(String(path[..<range.lowerBound]) + ".nib")
      } else if path.hasSuffix(".nib") {
        paths.insert(path)
      }
    }
    return paths.sorted() + iOSPairSample
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func everyCorpusDocumentRenders() throws {
    let documents = Self.documents
    #expect(documents.count > 400)
    var rendered = 0, scenes = 0, empty = 0
    var failures: [String] = []
    try withScratchFolder("render-corpus") { folder in
      for (index, path) in documents.enumerated() {
        var options = Options(input: path)
        options.render = folder.file("d\(index).svg")
        do {
          let files = try IBTool().render(path, request: try RenderRequest(options, output: options.render!))
          // A document of menus or custom objects only has nothing to draw.
          if files.isEmpty { empty += 1 }
          for file in files {
            let tree = try SVGTree(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self))
            #expect(tree.elements.first?.name == "svg", "\(file)")
            scenes += 1
            try? FileManager.default.removeItem(atPath: file)
          }
          rendered += 1
        } catch {
          failures.append("\(Corpus.name(URL(fileURLWithPath: path))): \(error)")
        }
      }
    }
    print("rendered \(rendered) of \(documents.count) corpus documents, \(scenes) pictures; \(empty) with nothing to draw")
    #expect(empty < 30, "most documents have a window, a view or a scene")
    #expect(failures.isEmpty, "\(failures.count) failed:\n\(failures.prefix(20).joined(separator: "\n"))")
    #expect(rendered == documents.count)
  }

  /// Kraftstoff's storyboard: one file per scene named after its identifier; `--scene` writes
  /// OUT itself; an unknown scene is an error naming the scenes; the contact sheet has an arrow
  /// per segue between its scenes.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func scenesScenePickingAndTheContactSheet() throws {
    let path = Corpus.file("xib/kraftstoff/MainStoryboard.storyboard").path
    try withScratchFolder("render-scenes") { folder in
      var options = Options(input: path)
      let files = try IBTool().render(path, request: try RenderRequest(options, output: folder.file("k.svg")))
      #expect(files.count == 11, "\(files)")
      #expect(files.contains(folder.file("k-TabBarController.svg")) && !FileManager.default.fileExists(atPath: folder.file("k.svg")))
      options.scene = "TabBarController"
      let one = try IBTool().render(path, request: try RenderRequest(options, output: folder.file("one.svg")))
      #expect(one == [folder.file("one.svg")])
      options.scene = "NoSuchScene"
      #expect {
        try IBTool().render(path, request: try RenderRequest(options, output: folder.file("none.svg")))
      } throws: { error in
        "\(error)".contains("--scene NoSuchScene: no such scene") && "\(error)".contains("TabBarController")
      }
      options.scene = nil
      options.contactSheet = true
      let sheet = try IBTool().render(path, request: try RenderRequest(options, output: folder.file("sheet.svg")))
      let tree = try SVGTree(String(decoding: try Data(contentsOf: URL(fileURLWithPath: sheet[0])), as: UTF8.self))
      let arrows = tree.all("line").filter { $0.attributes["marker-end"] != nil }
      // One arrow per link between two scenes on the sheet (Kraftstoff: the tab bar controller's
      // two tabs, the two navigation controllers' roots, two segues).
      let document = try RenderedDocument(path: path, layout: SceneLayout())
      let identifiers = Set(document.scenes.map(\.identifier))
      let links = Set(document.links.filter { identifiers.contains($0.from) && identifiers.contains($0.to) && $0.from != $0.to })
      #expect(arrows.count == links.count && links.count >= 6, "\(arrows.count) arrows, \(links.count) links")
      #expect(tree.texts("rootViewController").count >= 2)
    }
  }

  @Test("Bad --scale, --appearance and output names are usage errors naming the flag")
  func badValues() throws {
    var options = Options(input: "x.xib")
    options.scale = "0"
    #expect(throws: IBToolError.self) { try RenderRequest(options, output: "a.svg") }
    options.scale = "2"
    options.appearance = "sepia"
    #expect { try RenderRequest(options, output: "a.svg") } throws: { "\($0)".contains("--appearance sepia") }
    options.appearance = "dark"
    #expect { try RenderRequest(options, output: "a.pdf") } throws: { "\($0)".contains(".svg or .png") }
    let request = try RenderRequest(options, output: "out/a.svg")
    #expect(request.scale == 2 && request.appearance == .dark && request.file(forScene: "UIViewController-x/y z") == "out/a-UIViewController-x_y_z.svg")
  }
}
