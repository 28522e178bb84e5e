import Foundation
@testable import IBTool
import InterfaceBuilder
import InterfaceRendering
import StasisSystem
import Testing
import TestSupport

/// `ibtool --render` draws every scene of a storyboard, not only those an app can make by
/// identifier: a window's content view controller, a tab or split view controller's items (which
/// Apple's compiler puts in their container's nib) and the application scene's main menu — as
/// many pictures as the document has `<scene>`s, from the document itself, from our compile of it
/// and from Apple's `.storyboardc`, AppKit and UIKit.
@Suite("Every storyboard scene rendered")
@MainActor struct StoryboardScenesTests {
  /// The `<scene>` elements of a storyboard document.
  static func sceneCount(_ path: String) throws -> Int {
    let document = try InterfaceDocument(contentsOfFile: path)
    return document.root.child("scenes")?.children("scene").count ?? 0
  }

  static func rendered(_ path: String, in folder: ScratchFolder) throws -> [String] {
    let options = Options(input: path)
    return try IBTool().render(path, request: try RenderRequest(options, output: folder.file("s.svg")))
  }

  /// Source storyboards: Rectangle's (12 scenes, three without an identifier: its windows'
  /// content view controllers, one of them a tab view controller), NetNewsWire's split window
  /// and preferences (AppKit), Kraftstoff's and NetNewsWire's account storyboards (UIKit).
  @Test(
    .enabled(if: Corpus.isAvailable, Corpus.missingReason),
    arguments: [
      "xib/rectangle/Rectangle_Base.lproj_Main.storyboard", "xib/netnewswire/Mac_Base.lproj_UnifiedWindow.storyboard",
      "xib/netnewswire/Mac_Base.lproj_Preferences.storyboard", "xib/rectangle/RectangleLauncher_Base.lproj_Main.storyboard",
      "xib/kraftstoff/MainStoryboard.storyboard", "xib/netnewswire/iOS_Account_Account.storyboard",
    ])
  func everySceneOfADocument(_ name: String) throws {
    let path = Corpus.file(name).path
    try withScratchFolder("render-scenes") { folder in
      let files = try Self.rendered(path, in: folder)
      #expect(files.count == (try Self.sceneCount(path)), "\(files.map { URL(fileURLWithPath: $0).lastPathComponent })")
    }
  }

  /// Rectangle's scenes by name: those with an identifier by it, the windows' content view
  /// controllers by their object ids (their view nibs' names give them away), the tab view
  /// controller, whose view sits in the window controller's nib, by its class; the main menu. On
  /// the contact sheet the window controllers point at their content and the tab view controller
  /// at its tabs.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func scenesWithoutIdentifiersAreNamedByObjectID() throws {
    let path = Corpus.file("xib/rectangle/Rectangle_Base.lproj_Main.storyboard").path
    let document = try RenderedDocument(path: path, layout: SceneLayout())
    let names = Set(document.scenes.map(\.identifier))
    for expected in ["PrefsWindowController", "TabViewController", "5D9-0a-Mbi", "6vv-bW-t7F", "MainMenu", "HookshotConfigViewController"] {
      #expect(names.contains(expected), "\(names.sorted())")
    }
    let links = Set(document.links.map { "\($0.from) → \($0.to): \($0.label)" })
    #expect(links.contains("PrefsWindowController → TabViewController: window content"), "\(links.sorted())")
    #expect(links.contains("AboutTodoWindowController → 6vv-bW-t7F: window content"))
    #expect(links.contains("TabViewController → PrefsViewController: tabItems"))
    #expect(links.contains("WelcomeWindowController → WelcomeViewController: window content"))
  }

  /// Compiled storyboards: ours of Rectangle's, Apple's of an iOS storyboard (mixpanel's survey)
  /// and of macOS ones (the window controller's content sits in its nib), each with as many
  /// pictures as its document has scenes.
  @Test(
    .enabled(if: Corpus.isAvailable, Corpus.missingReason),
    arguments: [
      ("xib/rectangle/Rectangle_Base.lproj_Main.storyboard", nil),
      (
        "ios_pairs/mixpanel+mixpanel-iphone/98090f512e7f/MPSurvey.storyboard",
        "ios_pairs/mixpanel+mixpanel-iphone/98090f512e7f/MPSurvey.storyboardc"
      ),
      ("xib/ibtool_pairs/correct/sb_basic_wc.storyboard", "nib/ibtool_pairs/correct/sb_basic_wc.out"),
      ("xib/ibtool_pairs/correct/sb_toolbar.storyboard", "nib/ibtool_pairs/correct/sb_toolbar.out"),
      ("xib/ibtool_pairs/correct/sb_swift_wc.storyboard", "nib/ibtool_pairs/correct/sb_swift_wc.out"),
    ] as [(String, String?)])
  func everySceneOfACompiledStoryboard(_ source: String, _ compiled: String?) throws {
    let document = Corpus.file(source).path
    try withScratchFolder("render-compiled") { folder in
      let storyboard = folder.file("S.storyboardc")
      if let compiled {
        // Apple's output folder, under the name a bundle gives it.
        try FileManager.default.copyItem(atPath: Corpus.file(compiled).path, toPath: storyboard)
      } else {
        // Its report (the lenient notes, a property list) is not this test's business.
        var environment = HostEnvironment.current
        environment.standardStreams = StandardStreams(readInput: { _ in [] }, writeOutput: { _ in }, writeError: { _ in })
        #expect(IBTool(environment: environment).run(["ibtool", "--compile", storyboard, document]) == 0)
      }
      let files = try Self.rendered(storyboard, in: folder)
      #expect(files.count == (try Self.sceneCount(document)), "\(files.map { URL(fileURLWithPath: $0).lastPathComponent })")
    }
  }
}
