import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import PropertyLists
import Testing
import TestSupport

/// Apple's compiled iOS storyboards (ios_pairs) and the same documents compiled by
/// `UIKitStoryboardCompiler` load through `Storyboard` to the same live graph: every scene's
/// controller (class, identifier, title, segue templates, children) and its view, loaded from the
/// view's nib through the upstream placeholders (classes, frames, hierarchy, constraints).
@MainActor
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct UIKitStoryboardEquivalenceTests {
  nonisolated static let pairs = [
    ("ios_pairs/mixpanel+mixpanel-iphone/cd0935f690bf", "MPNotification"),
    ("ios_pairs/mixpanel+mixpanel-iphone/fa146cc854c2", "MPNotification"),
    ("ios_pairs/mixpanel+mixpanel-iphone/31fd4c8514cd", "MPSurvey"),
    ("ios_pairs/mixpanel+mixpanel-iphone/98090f512e7f", "MPSurvey"),
  ]

  /// Our compile of the storyboard, written as a `.storyboardc` folder under a fresh temporary
  /// folder.
  static func compiledFolder(_ source: String, name: String) throws -> String {
    let document = try InterfaceDocument(contentsOfFile: source)
    let output = try UIKitStoryboardCompiler.compile(document, options: .init(xcode: 731, deploymentTarget: (8, 0)))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stasis-sb-\(UUID().uuidString)/\(name).storyboardc").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try output.info.write(toFile: folder + "/Info.plist", format: .binary)
    for (nib, graph) in output.nibs { try NIBArchive(graph, keepingUnreachable: false).write(toFile: folder + "/" + nib + ".nib") }
    return folder
  }

  /// Every scene of a storyboard, instantiated and its view loaded, as lines.
  static func describe(_ path: String) throws -> [String] {
    // The apps' own classes are not here: their outlets are skipped alike on both sides.
    let storyboard = try Storyboard(contentsOf: path, options: Nib.Options(missingConnections: .warning))
    guard case .dictionary(let info) = storyboard.info, case .dictionary(let table)? = info["UIViewControllerIdentifiersToNibNames"] else {
      return ["no identifiers"]
    }
    var lines: [String] = []
    for identifier in table.keys.sorted() {
      let controller = try storyboard.instantiateViewController(withIdentifier: identifier)
      try controller.loadViewIfNeeded()
      lines.append("\(identifier): \(type(of: controller)) title=\(controller.title ?? "-") children=\(controller.children.count)")
      for template in controller.segueTemplates { lines.append("  segue \(template.kind) \(template.identifier) → \(template.destination)") }
      var stack: [(View, String)] = controller.viewIfLoaded.map { [($0, "view")] } ?? []
      while let (view, path) = stack.popLast() {
        lines.append("  \(path) \(type(of: view)) \(view.frame) hidden=\(view.isHidden) alpha=\(view.alpha) constraints=\(view.constraints.count)")
        for (index, subview) in view.subviews.enumerated().reversed() { stack.append((subview, "\(path).\(index)")) }
      }
    }
    return lines
  }

  @Test(arguments: pairs)
  func appleAndOursLoadAlike(_ pair: (String, String)) throws {
    let (folder, name) = pair
    let apple = try Self.describe(Corpus.file(folder + "/" + name + ".storyboardc").path)
    let ours = try Self.describe(try Self.compiledFolder(Corpus.file(folder + "/" + name + ".storyboard").path, name: name))
    #expect(apple.count > 10)
    // MPSurvey's navigation view differs from Apple's in its autoresizing mask only, which the
    // description does not show.
    #expect(apple == ours, "\(zip(apple, ours).first { $0 != $1 }.map { "Apple \($0.0) / ours \($0.1)" } ?? "\(apple.count) vs \(ours.count)")")
  }
}
