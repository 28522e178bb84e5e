import Foundation
import HomepwnerKit
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// Homepwner's interface file: `Base.lproj/Main.storyboard`, compiled by Stasis's `ibtool`
/// into Apple's UIKit encoding (or Stasis's own with `--stasis-runtime`), loads into the same
/// controllers as the document itself.
@MainActor
@Suite("Homepwner's storyboard, compiled by ibtool and loaded")
struct InterfaceFileTests {
  nonisolated static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples/Homepwner/Homepwner.app/Base.lproj/Main.storyboard").path

  func options() -> Nib.Options {
    var options = Nib.Options()
    options.classes.register(ItemsViewController.self, as: "ItemsViewController", makeInstanceOnMainActor: { ItemsViewController() })
    options.classes.register(DetailViewController.self, as: "DetailViewController", makeInstanceOnMainActor: { DetailViewController() })
    options.classes.register(DateViewController.self, as: "DateViewController", makeInstanceOnMainActor: { DateViewController() })
    options.classes.register(SettingsViewController.self, as: "SettingsViewController", makeInstanceOnMainActor: { SettingsViewController() })
    options.isStrict = true
    return options
  }

  /// The controller tree as class names and restoration identifiers, the detail's outlets, and
  /// the date editor's picker (identifier, mode, range).
  func shape(_ storyboard: Storyboard) throws -> [String] {
    let tabs = try #require(try storyboard.instantiateInitialViewController() as? TabBarController)
    var lines = tabs.controllerTree.map { "\(type(of: $0)) \($0.restorationIdentifier ?? "-")" }
    let detail = try #require(try storyboard.instantiateViewController(withIdentifier: "Detail") as? DetailViewController)
    // Apple's encoding loads a view from its nib on first use, as UIKit does.
    try detail.loadViewIfNeeded()
    lines.append(detail.fields.map { $0.restorationIdentifier ?? "-" }.joined(separator: ","))
    #expect(detail.fields.allSatisfy { $0.superview === detail.viewIfLoaded })
    // The labels and buttons the renderer draws are the storyboard's; the buttons send their
    // actions to the first responder (no target), for the responder chain to carry.
    #expect(detail.nameLabel.text == "Name:" && detail.nameLabel.superview === detail.viewIfLoaded)
    #expect(detail.dateButton.actions(for: .touchUpInside) == ["showDateEditor:"] && detail.dateButton.target == nil)
    #expect(detail.choosePhotoButton.actions(for: .touchUpInside) == ["choosePhoto:"] && detail.choosePhotoButton.title == "Choose Photo")
    let editor = try #require(try storyboard.instantiateViewController(withIdentifier: "Date") as? DateViewController)
    try editor.loadViewIfNeeded()
    let picker = editor.datePicker
    #expect(picker.superview === editor.viewIfLoaded)
    lines.append("\(editor.restorationIdentifier ?? "-") \(picker.restorationIdentifier ?? "-") \(picker.datePickerMode)")
    lines.append("\(picker.minimumDate?.timeIntervalSinceReferenceDate ?? 0)…\(picker.maximumDate?.timeIntervalSinceReferenceDate ?? 0)")
    // The settings' scroll view is the storyboard's (its outlet), with the restoration identifier
    // state restoration finds it by (its scroll offset survives a kill).
    let settings = try #require(tabs.viewControllers.last as? SettingsViewController)
    try settings.loadViewIfNeeded()
    #expect(settings.scroll.superview === settings.viewIfLoaded)
    lines.append("\(type(of: settings.scroll)) \(settings.scroll.restorationIdentifier ?? "-")")
    return lines
  }

  @Test("ibtool --compile compiles the iOS storyboard into Apple's UIKit encoding, --stasis-runtime into Stasis's; both load as the document does", .enabled(if: BuiltExecutables.path(named: "ibtool") != nil, "ibtool was not built next to the tests"))
  func compiledAndDocumentAgree() throws {
    let scratch = try ScratchFolder("homepwner-ibtool")
    let output = scratch.file("Main.storyboardc")
    let stasisOutput = scratch.file("Stasis.storyboardc")
    func ibtool(_ arguments: [String]) throws -> (status: Int32, output: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try #require(BuiltExecutables.path(named: "ibtool")))
      process.arguments = ["--output-format", "human-readable-text"] + arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      try process.run()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, output)
    }
    let apple = try ibtool(["--compile", output, Self.document])
    #expect(apple.status == 0)
    #expect(!apple.output.contains("errors"), "\(apple.output)")
    // Apple's encoding: a nib per scene and one per controller's view.
    let appleNibs = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
    #expect(appleNibs.contains { $0.contains("-view-") })
    let stasis = try ibtool(["--stasis-runtime", "--compile", stasisOutput, Self.document])
    #expect(stasis.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: stasisOutput).sorted() != appleNibs)
    #expect(try scratch.contents().sorted() == ["Main.storyboardc", "Stasis.storyboardc"])
    let fromStasis = try shape(try Storyboard(contentsOf: stasisOutput, options: options()))
    let fromDocument = try shape(try Storyboard(contentsOf: Self.document, options: options()))
    let fromCompiled = try shape(try Storyboard(contentsOf: output, options: options()))
    #expect(fromCompiled == fromDocument)
    #expect(fromStasis == fromDocument)
    #expect(fromDocument.first == "TabBarController Tabs")
    #expect(fromDocument.contains("ItemsViewController Items"))
    #expect(fromDocument.contains("SettingsViewController Settings"))
    #expect(fromDocument.suffix(4) == ["Name,Serial,Value", "Date DatePicker date", "-3187296000.0…3124137599.0", "ScrollView SettingsScroll"])
  }
}
