import Foundation
import Interface
import InterfaceObjects
import NibLoading
import Testing
import TestSupport

/// The corpus's NeXT/OPENSTEP typedstream nib (GNUstep's `Model/test.nib`) loads in lenient mode:
/// every object generic with its positional values, the File's Owner placeholder from
/// `NSIBObjectData`'s root, its top-level objects and names, and its connections.
@MainActor
@Suite struct TypedStreamNibLoadingTests {
  nonisolated static var path: String { Corpus.file("nib/gnustep_model_test.nib").path }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func loadsLenientlyAsGenericObjectsWithConnections() throws {
    let nib = try Nib(contentsOf: Self.path)
    #expect(nib.graph.isTypedStreamNib)
    let owner = NibObject()
    let loaded = try nib.load(owner: owner, options: Nib.Options(missingConnections: .warning))
    // Two window templates (generic NSWindows), the Controller, the font manager and the main menu, under the File's Owner.
    let top = loaded.topLevelObjects.compactMap { $0 as? GenericObject }
    #expect(top.count == 5 && loaded.topLevelObjects.count == 5)
    #expect(top.map(\.className).sorted() == ["Controller", "NSFontManager", "NSMenuTemplate", "NSWindow", "NSWindow"])
    #expect(loaded.objects.allSatisfy { $0 is GenericObject }, "every object is generic")
    #expect(loaded.objects.count > 50)
    // The File's Owner (the root, an NSCustomObject of class NSApplication) is the owner passed in.
    #expect(loaded.namedObjects["File's Owner"] === owner)
    #expect(Set(loaded.namedObjects.keys) == ["File's Owner", "Controller", "Font Manager", "MainMenu", "MyWindow", "Window", "PopUpList"])
    let controller = try #require(loaded.namedObjects["Controller"] as? GenericObject)
    #expect(controller.className == "Controller")
    // The outlet: Controller.textField is the text field.
    let field = try #require(controller["textField"] as? GenericObject)
    #expect(field.className == "NSTextField")
    // The actions: seven of the eight buttons send buttonPressed: to the Controller (the
    // Toggle button has no action).
    let buttons = loaded.objects.compactMap { $0 as? GenericObject }.filter { $0.className == "NSButton" }
    #expect(buttons.count == 8)
    let connected = buttons.filter { $0["action"] as? String == "buttonPressed:" }
    #expect(connected.count == 7)
    #expect(connected.allSatisfy { $0["target"] as AnyObject? === controller })
    // Each keeps its archived values in order: the NSView frame among them.
    #expect(buttons.allSatisfy { $0.keys.starts(with: ["0.0", "1.0", "2.0", "2.1", "2.2", "2.3", "2.4"]) })
    #expect(loaded.objectsByID.count > 40)
    // The owner lacks the delegate outlet: a warning, not an error, in lenient mode.
    #expect(loaded.warnings.contains { $0.contains("delegate") })
    print("typedstream nib: \(loaded.objects.count) objects, \(loaded.warnings.count) warnings")
  }

  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
  func strictModeRefusesItNamingWhy() throws {
    let nib = try Nib(contentsOf: Self.path)
    let error = expectError(NibLoadingError.self, .unknownClass) {
      try nib.load(owner: NibObject(), options: Nib.Options(isStrict: true, missingConnections: .warning))
    }
    #expect(error?.description.contains("typedstream") == true, "\(error.map(String.init(describing:)) ?? "")")
    #expect(error?.key != nil)
  }

  /// Seeded byte flips of the nib, loaded leniently: a typed error or a load, never a crash.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.missingReason), arguments: 0..<4 as Range<UInt64>)
  func damagedCopiesLoadOrThrow(seed: UInt64) throws {
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path + "/objects.nib")))
    var random = SplitMix64(seed: seed)
    var loads = 0
    for _ in 0..<150 {
      var bytes = original
      let at = Int.random(in: 16..<bytes.count, using: &random)
      bytes[at] = UInt8.random(in: 0...255, using: &random)
      do {
        let nib = try Nib(data: bytes, name: "flipped.nib")
        _ = try nib.load(owner: NibObject(), options: Nib.Options(missingConnections: .warning))
        loads += 1
      } catch {
        _ = error.description
      }
    }
    print("seed \(seed): \(loads) of 150 damaged copies load")
  }
}
