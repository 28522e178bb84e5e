import ObjectModel
import Testing

@MainActor
@Suite("Class registry")
struct ClassRegistryTests {
  static func registry() -> ClassRegistry {
    var classes = ClassRegistry()
    classes.register(Responder.self, as: "UIResponder", makeInstance: { Responder() })
    classes.register(View.self, as: "UIView", makeInstance: { View() })
    classes.register(Button.self, as: "UIButton", makeInstance: { Button() })
    classes.register(Point.self, as: "NSPoint")
    return classes
  }

  @Test func namesAndTypesBothWays() throws {
    let classes = Self.registry()
    #expect(classes.classNames == ["NSPoint", "UIButton", "UIResponder", "UIView"])
    #expect(classes.name(for: Button.self) == "UIButton")
    #expect(classes.name(for: Point.self) == "NSPoint")
    #expect(classes.name(for: Int.self) == nil)
    let entry = try #require(classes.entry(named: "UIView"))
    #expect(ObjectIdentifier(entry.swiftType) == ObjectIdentifier(View.self))
    #expect(entry.typeName == "View")
    #expect(entry.isInstantiable)
    #expect(classes.entry(named: "NSPoint")?.isInstantiable == false)
  }

  @Test func lineageAndKindOf() {
    let classes = Self.registry()
    #expect(classes.isKind(of: "UIButton", "UIView"))
    #expect(classes.isKind(of: "UIButton", "UIResponder"))
    #expect(classes.isKind(of: "UIButton", "UIButton"))
    #expect(!classes.isKind(of: "UIView", "UIButton"))
    #expect(!classes.isKind(of: "UIView", "NSPoint"))
    #expect(!classes.isKind(of: "Unknown", "UIView"))
    #expect(classes.isKind(Button(), of: "UIView"))
    #expect(!classes.isKind(View(), of: "UIButton"))
    #expect(classes.registeredLineageNames(of: "UIButton") == ["UIButton", "UIView", "UIResponder"])
    #expect(classes.registeredLineageNames(of: "NSPoint") == ["NSPoint"])
  }

  @Test func unregisteredAncestorsAreSkippedInTheLineageNames() {
    var classes = ClassRegistry()
    classes.register(Responder.self, as: "UIResponder")
    classes.register(Button.self, as: "UIButton")
    #expect(classes.registeredLineageNames(of: "UIButton") == ["UIButton", "UIResponder"])
  }

  @Test func resolveTriesAlternativesThenFallbacks() throws {
    var classes = Self.registry()
    #expect(classes.resolve("UIView")?.foundAs == "UIView")
    #expect(classes.resolve("MyFancyButton", alternatives: ["MyBaseButton", "UIButton", "UIView"])?.foundAs == "UIButton")
    #expect(classes.resolve("MyFancyButton") == nil)
    classes.setFallbacks(["NotHere", "UIView"], forClassNamed: "MyFancyButton")
    #expect(classes.resolve("MyFancyButton")?.foundAs == "UIView")
    let made = try classes.makeInstance(ofClassNamed: "MyFancyButton")
    #expect(ObjectIdentifier(type(of: made)) == ObjectIdentifier(View.self))
  }

  @Test func makingInstancesOfUnknownOrValueClassesThrows() {
    let classes = Self.registry()
    #expect(throws: ObjectModelError.self) { try classes.makeInstance(ofClassNamed: "Nope") }
    do {
      _ = try classes.makeInstance(ofClassNamed: "Nope")
      Issue.record("no error")
    } catch ObjectModelError.Code.unknownClass {
    } catch {
      Issue.record("wrong error \(error)")
    }
    do {
      _ = try classes.makeInstance(ofClassNamed: "NSPoint")
      Issue.record("no error")
    } catch {
      #expect(error.code == .notInstantiable)
      #expect(error.description.contains("Point"))
    }
  }

  struct ArchiveCodingStandIn: Sendable, Equatable { var version: Int }
  struct NibStandIn: Sendable, Equatable { var keys: [String] }

  @Test func addOnsAreKeptPerTypeAndSurviveReRegistration() {
    var classes = Self.registry()
    classes.attach(ArchiveCodingStandIn(version: 2), toClassNamed: "UIView")
    classes.attach(NibStandIn(keys: ["UIFrame"]), toClassNamed: "UIView")
    classes.attach(NibStandIn(keys: ["ignored"]), toClassNamed: "NotRegistered")
    #expect(classes.addOn(ArchiveCodingStandIn.self, forClassNamed: "UIView") == ArchiveCodingStandIn(version: 2))
    #expect(classes.addOn(NibStandIn.self, for: View.self) == NibStandIn(keys: ["UIFrame"]))
    #expect(classes.addOn(NibStandIn.self, forClassNamed: "UIButton") == nil)
    #expect(classes.addOn(NibStandIn.self, forClassNamed: "NotRegistered") == nil)
    classes.register(View.self, as: "UIView", makeInstance: { View() })
    #expect(classes.addOn(ArchiveCodingStandIn.self, forClassNamed: "UIView")?.version == 2)
    #expect(classes.addOns(NibStandIn.self).map(\.name) == ["UIView"])
  }

  @Test func primaryNameForATypeWithSeveralNames() {
    var classes = ClassRegistry()
    classes.register(View.self, as: "UIView")
    classes.register(View.self, as: "NSView")
    #expect(classes.name(for: View.self) == "UIView")
    classes.makePrimaryName("NSView")
    #expect(classes.name(for: View.self) == "NSView")
  }
}
