import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// One test per step of the nib loading sequence (Apple's Resource Programming Guide), each over a small macOS xib
/// written by the test and compiled on the spot by `Nib(contentsOf:)`: placeholders, outlets
/// through key-value coding, actions and the responder chain, runtime attributes,
/// `awakeFromNib`, custom classes and their fallbacks, ownership of the top-level objects, and
/// every error the loader reports.
@MainActor
@Suite struct LoaderStepTests {
  // MARK: - Placeholders

  @Test func filesOwnerOutletsGoToTheOwnerPassedIn() throws {
    let folder = try ScratchFolder("loader-owner")
    let path = try Self.write(
      Self.xib(
        owner: """
          <outlet property="window" destination="w1" id="c1"/>
          <outlet property="label" destination="t1" id="c2"/>
          """,
        Self.window(id: "w1", content: "v1", subviews: Self.textField(id: "t1", title: "Hello"))),
      to: "Owner.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let owner = OwnerController()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes))

    let window = try #require(loaded.topLevelObjects.first as? Window)
    #expect(loaded.topLevelObjects.count == 1, "the window is the only top-level object; the placeholders are left out")
    #expect(!loaded.topLevelObjects.contains { $0 === owner })
    #expect(owner.window === window)
    let label = try #require(owner.label)
    #expect(label === window.contentView?.subviews.first)
    #expect(label.text == "Hello")

    // A second instantiation makes new objects and connects them to its own owner.
    let other = OwnerController()
    _ = try nib.load(owner: other, options: Nib.Options(classes: Self.classes))
    #expect(other.window != nil)
    #expect(other.window !== window)
    #expect(owner.window === window)
  }

  @Test func filesOwnerIsNeverInstantiatedAndNilOwnerDropsItsOutlets() throws {
    let folder = try ScratchFolder("loader-owner-nil")
    // The owner's class is registered nowhere: the placeholder stands for the owner passed in,
    // so even strict mode makes no object of that class.
    let path = try Self.write(
      Self.xib(
        ownerClass: "NeverRegisteredOwner", owner: #"<outlet property="window" destination="w1" id="c1"/>"#,
        Self.window(id: "w1", content: "v1")),
      to: "NilOwner.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let strict = Nib.Options(isStrict: true)
    let loaded = try nib.load(owner: nil, options: strict)
    #expect(loaded.topLevelObjects.count == 1)
    #expect(loaded.topLevelObjects.first is Window)
    #expect(loaded.unknownClassNames.isEmpty, "the File's Owner's class is not looked up: \(loaded.unknownClassNames)")
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")

    let owner = OwnerController()
    _ = try nib.load(owner: owner, options: strict)
    #expect(owner.window != nil)
  }

  @Test func applicationPlaceholderIsTheOptionsApplication() throws {
    let folder = try ScratchFolder("loader-application")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="d1" customClass="ChainDelegate">
            <connections>
                <outlet property="application" destination="-3" id="c1"/>
            </connections>
        </customObject>
        \(Self.menu(id: "m1", item: "i1", title: "Quit", action: #"<action selector="terminate:" target="-3" id="c2"/>"#))
        """),
      to: "Application.xib", in: folder)
    let nib = try Nib(contentsOf: path)

    let application = QuittingApplication()
    let options = Nib.Options(classes: Self.classes, isStrict: true, application: application)
    let loaded = try nib.load(owner: nil, options: options)
    #expect(loaded.application === application)
    #expect(!loaded.topLevelObjects.contains { $0 === application }, "the Application placeholder is not a top-level object")
    let delegate = try #require(loaded.topLevelObjects.compactMap { $0 as? ChainDelegate }.first)
    #expect(delegate.application === application)
    let menu = try #require(loaded.topLevelObjects.compactMap { $0 as? Menu }.first)
    let item = try #require(menu.items.first)
    #expect(item.target === application)
    #expect(item.action == "terminate:")
    #expect(try item.performAction(in: application))
    #expect(application.terminations == 1)

    // Without an application in the options, each load makes a new one.
    let first = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
    let second = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
    #expect(first.application !== second.application)
    #expect(first.application !== application)
    let firstDelegate = try #require(first.topLevelObjects.compactMap { $0 as? ChainDelegate }.first)
    #expect(firstDelegate.application === first.application)
  }

  /// `<outlet property="delegate">` on the Application placeholder: the connection every
  /// MainMenu.xib has (`-[NSApplication setDelegate:]`).
  @Test func applicationPlaceholderTakesItsDelegateOutlet() throws {
    let folder = try ScratchFolder("loader-app-delegate")
    let path = try Self.write(
      Self.xib(
        application: #"<outlet property="delegate" destination="d1" id="c1"/>"#,
        #"<customObject id="d1" customClass="ChainDelegate"/>"#),
      to: "AppDelegate.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let lenient = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
    let delegate = try #require(lenient.topLevelObjects.first as? ChainDelegate)
    #expect(lenient.application.delegate === delegate, "warnings: \(lenient.warnings)")
    #expect(lenient.warnings.isEmpty, "\(lenient.warnings)")

    let strict = Self.result { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    if case .failure(let error) = strict { Issue.record("strict mode refused the application's delegate outlet: \(error)") }
  }

  @Test func externalObjectsStandInForTheirPlaceholders() throws {
    let folder = try ScratchFolder("loader-external")
    let nib = try Self.externalObjectNib(in: folder)
    let helper = Recorder()
    let owner = OwnerController()
    let loaded = try nib.load(
      owner: owner, options: Nib.Options(classes: Self.classes, externalObjects: ["SharedHelper": helper], isStrict: true))
    #expect(owner.helper === helper)
    #expect(!loaded.topLevelObjects.contains { $0 === helper }, "an external object is a placeholder, not a top-level object")
    #expect(!loaded.objectsByID.values.contains { $0 === helper }, "the nib did not make the external object")
    #expect(helper.awakenings == 1, "macOS sends awakeFromNib to placeholders too (Apple's nib loading sequence)")
  }

  @Test func missingExternalObjectIsAnError() throws {
    let folder = try ScratchFolder("loader-external-missing")
    let nib = try Self.externalObjectNib(in: folder)
    let error = expectError(NibLoadingError.self, .missingExternalObject) { () throws(NibLoadingError) in
      try nib.load(owner: OwnerController(), options: Nib.Options(classes: Self.classes, externalObjects: ["Other": Recorder()]))
    }
    #expect(error?.key == "SharedHelper")
    #expect(error?.nib == nib.name)
    #expect(error?.objectID != nil)
    #expect(error?.description.hasPrefix(nib.name + ": ") == true)
    #expect(error?.description.contains("SharedHelper") == true)
  }

  // MARK: - Outlets through key-value coding

  @Test func outletsAreSetThroughTheKeyTables() throws {
    let folder = try ScratchFolder("loader-outlets")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="vc" customClass="ItemsController">
            <connections>
                <outlet property="view" destination="v1" id="c1"/>
                <outlet property="nameField" destination="t1" id="c2"/>
                <outlet property="partner" destination="r1" id="c3"/>
            </connections>
        </customObject>
        <customObject id="r1" customClass="Recorder"/>
        \(Self.window(id: "w1", content: "v1", subviews: Self.textField(id: "t1", title: "Name")))
        """),
      to: "Outlets.xib", in: folder)
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    let controller = try #require(loaded.topLevelObjects.compactMap { $0 as? ItemsController }.first)
    let recorder = try #require(loaded.topLevelObjects.compactMap { $0 as? Recorder }.first)
    let window = try #require(loaded.topLevelObjects.compactMap { $0 as? Window }.first)
    #expect(controller.viewIfLoaded === window.contentView, "the inherited ViewController key view")
    #expect(controller.nameField === window.contentView?.subviews.first, "the controller's own key nameField")
    #expect(controller.partner === recorder)
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
  }

  @Test func undefinedOutletKeyIsAnErrorInStrictModeAndSkippedInLenientMode() throws {
    let folder = try ScratchFolder("loader-undefined-outlet")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="vc" customClass="ItemsController">
            <connections>
                <outlet property="missingOutlet" destination="t1" id="c1"/>
                <outlet property="nameField" destination="t1" id="c2"/>
            </connections>
        </customObject>
        \(Self.window(id: "w1", content: "v1", subviews: Self.textField(id: "t1", title: "Name")))
        """),
      to: "UndefinedOutlet.xib", in: folder)
    let nib = try Nib(contentsOf: path)

    // Lenient (AppKit): the outlet is skipped with a warning; the other outlets are made.
    let loaded = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
    let controller = try #require(loaded.topLevelObjects.compactMap { $0 as? ItemsController }.first)
    #expect(controller.nameField != nil)
    #expect(loaded.warnings.contains { $0.contains("missingOutlet") }, "\(loaded.warnings)")
    let controllerID = try #require(loaded.objectsByID.first { $0.value === controller }?.key)

    // Strict: an error naming the nib, the object and the key.
    let error = expectError(NibLoadingError.self, .undefinedKey) { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    #expect(error?.key == "missingOutlet")
    #expect(error?.nib == path)
    #expect(error?.objectID == controllerID)
    #expect(error?.description.hasPrefix("\(path): object \(controllerID): missingOutlet: ") == true, "\(String(describing: error))")
    #expect(error?.description.contains("not key value coding-compliant for the key missingOutlet") == true)

    // The policy for missing connections overrides the mode.
    expectError(NibLoadingError.self, .undefinedKey, "missingConnections: .error in lenient mode") { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, missingConnections: .error))
    }
    let warned = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true, missingConnections: .warning))
    #expect(warned.warnings.contains { $0.contains("missingOutlet") }, "\(warned.warnings)")
  }

  @Test func undefinedOutletKeyOnTheFilesOwner() throws {
    let folder = try ScratchFolder("loader-owner-undefined")
    let path = try Self.write(
      Self.xib(owner: #"<outlet property="noSuchOutlet" destination="w1" id="c1"/>"#, Self.window(id: "w1", content: "v1")),
      to: "OwnerUndefined.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let loaded = try nib.load(owner: OwnerController(), options: Nib.Options(classes: Self.classes))
    #expect(loaded.warnings.contains { $0.contains("noSuchOutlet") }, "\(loaded.warnings)")
    let error = expectError(NibLoadingError.self, .undefinedKey) { () throws(NibLoadingError) in
      try nib.load(owner: OwnerController(), options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    #expect(error?.key == "noSuchOutlet")
    #expect(error?.nib == path)
    #expect(error?.description.contains("OwnerController") == true, "the error names the owner's class: \(String(describing: error))")
  }

  // MARK: - Actions

  @Test func actionToTheFilesOwnerHasAnExplicitTarget() throws {
    let folder = try ScratchFolder("loader-action-owner")
    let path = try Self.write(
      Self.xib(Self.window(id: "w1", content: "v1", subviews: Self.button(id: "b1", action: #"<action selector="save:" target="-2" id="a1"/>"#))),
      to: "ActionOwner.xib", in: folder)
    let owner = OwnerController()
    let loaded = try Nib(contentsOf: path).load(owner: owner, options: Nib.Options(classes: Self.classes, isStrict: true))
    let window = try #require(loaded.topLevelObjects.first as? Window)
    let button = try #require(window.contentView?.subviews.first as? Button)
    #expect(button.target === owner)
    #expect(button.action == "save:")
    #expect(owner.saves.isEmpty)
    #expect(try button.performClick())
    #expect(owner.saves.count == 1)
    #expect(owner.saves.first.flatMap { $0 } === button, "the sender is the button")
  }

  @Test func actionToTheFirstResponderTravelsTheResponderChain() throws {
    let folder = try ScratchFolder("loader-action-chain")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="vc" customClass="ChainController">
            <connections>
                <outlet property="view" destination="v1" id="c1"/>
            </connections>
        </customObject>
        <customObject id="wd" customClass="ChainDelegate"/>
        \(Self.window(
          id: "w1", content: "v1", subviews: Self.button(id: "b1", action: #"<action selector="doIt:" target="-1" id="a1"/>"#),
          connections: #"<outlet property="delegate" destination="wd" id="c2"/>"#))
        """),
      to: "ActionChain.xib", in: folder)
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    let window = try #require(loaded.topLevelObjects.compactMap { $0 as? Window }.first)
    let controller = try #require(loaded.topLevelObjects.compactMap { $0 as? ChainController }.first)
    let windowDelegate = try #require(loaded.topLevelObjects.compactMap { $0 as? ChainDelegate }.first)
    let button = try #require(window.contentView?.subviews.first as? Button)
    #expect(button.target == nil, "the First Responder is a nil target")
    #expect(button.action == "doIt:")
    #expect(window.delegate === windowDelegate)
    #expect(window.application === loaded.application)

    let applicationDelegate = ChainDelegate()
    loaded.application.delegate = applicationDelegate
    window.makeKeyAndVisible()
    #expect(loaded.application.keyWindow === window)
    #expect(window.makeFirstResponder(button))

    // The nearest candidate first: the view controller of the content view …
    #expect(try button.performClick())
    #expect((controller.hits, windowDelegate.hits, applicationDelegate.hits) == (1, 0, 0))
    // … without it, the window's delegate …
    controller.view = nil
    #expect(try button.performClick())
    #expect((controller.hits, windowDelegate.hits, applicationDelegate.hits) == (1, 1, 0))
    // … without that, the application's delegate …
    window.delegate = nil
    #expect(try button.performClick())
    #expect((controller.hits, windowDelegate.hits, applicationDelegate.hits) == (1, 1, 1))
    // … and with none left, nobody.
    loaded.application.delegate = nil
    #expect(try button.performClick() == false)
    #expect((controller.hits, windowDelegate.hits, applicationDelegate.hits) == (1, 1, 1))
  }

  /// A view controller that owns the content view but lacks the action passes it on to the
  /// window and the window's delegate before the application (AppKit inserts the controller
  /// between the view and its old next responder, the window; UIKit makes a root view
  /// controller's next responder its window).
  @Test func viewControllerPassesTheActionToItsWindow() throws {
    let folder = try ScratchFolder("loader-action-vc-window")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="vc" customClass="NSViewController">
            <connections>
                <outlet property="view" destination="v1" id="c1"/>
            </connections>
        </customObject>
        <customObject id="wd" customClass="ChainDelegate"/>
        \(Self.window(
          id: "w1", content: "v1", subviews: Self.button(id: "b1", action: #"<action selector="doIt:" target="-1" id="a1"/>"#),
          connections: #"<outlet property="delegate" destination="wd" id="c2"/>"#))
        """),
      to: "ActionVCWindow.xib", in: folder)
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    let window = try #require(loaded.topLevelObjects.compactMap { $0 as? Window }.first)
    let controller = try #require(loaded.topLevelObjects.compactMap { $0 as? ViewController }.first)
    let windowDelegate = try #require(loaded.topLevelObjects.compactMap { $0 as? ChainDelegate }.first)
    let button = try #require(window.contentView?.subviews.first as? Button)
    let applicationDelegate = ChainDelegate()
    loaded.application.delegate = applicationDelegate
    window.makeKeyAndVisible()
    #expect(window.makeFirstResponder(button))
    #expect(controller.viewIfLoaded === window.contentView)

    let chain = button.responderChain
    #expect(chain.contains { $0 === controller })
    #expect(chain.contains { $0 === window }, "the window follows its content view's controller: \(chain.map { type(of: $0) })")
    #expect(try button.performClick())
    #expect(windowDelegate.hits == 1, "the window's delegate comes before the application's")
    #expect(applicationDelegate.hits == 0)
  }

  @Test func actionTheTargetLacksIsAnErrorInStrictMode() throws {
    let folder = try ScratchFolder("loader-unknown-action")
    let path = try Self.write(
      Self.xib(Self.window(id: "w1", content: "v1", subviews: Self.button(id: "b1", action: #"<action selector="frobnicate:" target="-2" id="a1"/>"#))),
      to: "UnknownAction.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let owner = OwnerController()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes))
    #expect(loaded.warnings.contains { $0.contains("frobnicate:") }, "\(loaded.warnings)")
    let button = try #require(loaded.objectsByID.values.compactMap { $0 as? Button }.first)
    #expect(try button.performClick() == false, "the owner does not answer frobnicate:")
    #expect(owner.saves.isEmpty)
    let buttonID = try #require(loaded.objectsByID.first { $0.value === button }?.key)

    let error = expectError(NibLoadingError.self, .unknownAction) { () throws(NibLoadingError) in
      try nib.load(owner: OwnerController(), options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    #expect(error?.key == "frobnicate:")
    #expect(error?.nib == path)
    #expect(error?.objectID == buttonID, "the error names the control whose action it is")
    #expect(error?.description.hasPrefix("\(path): object \(buttonID): frobnicate:: ") == true, "\(String(describing: error))")
  }

  // MARK: - Runtime attributes

  @Test func runtimeAttributesOfEveryCompiledTypeAreSet() throws {
    let folder = try ScratchFolder("loader-runtime-attributes")
    let path = try Self.write(
      Self.xib(
        Self.window(
          id: "w1", content: "v1",
          subviews: Self.settingsView(
            attributes: """
              <userDefinedRuntimeAttribute type="string" keyPath="title" value="Inventory"/>
              <userDefinedRuntimeAttribute type="number" keyPath="count">
                  <integer key="value" value="42"/>
              </userDefinedRuntimeAttribute>
              <userDefinedRuntimeAttribute type="number" keyPath="ratio">
                  <real key="value" value="2.5"/>
              </userDefinedRuntimeAttribute>
              <userDefinedRuntimeAttribute type="number" keyPath="numberFlag">
                  <bool key="value" value="YES"/>
              </userDefinedRuntimeAttribute>
              <userDefinedRuntimeAttribute type="boolean" keyPath="flag" value="YES"/>
              <userDefinedRuntimeAttribute type="boolean" keyPath="onByDefault" value="NO"/>
              <userDefinedRuntimeAttribute type="number" keyPath="tag">
                  <integer key="value" value="7"/>
              </userDefinedRuntimeAttribute>
              <userDefinedRuntimeAttribute type="string" keyPath="field.stringValue" value="Through the outlet"/>
              """,
            connections: #"<outlet property="field" destination="t1" id="c1"/>"#)
            + Self.textField(id: "t1", title: "Before"))),
      to: "RuntimeAttributes.xib", in: folder)
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    let window = try #require(loaded.topLevelObjects.first as? Window)
    let settings = try #require(window.contentView?.subviews.first as? SettingsView)
    #expect(settings.title == "Inventory")
    #expect(settings.count == 42)
    #expect(settings.ratio == 2.5)
    #expect(settings.numberFlag == true, "<bool value=YES> in a number attribute")
    #expect(settings.flag == true, "type=boolean value=YES")
    #expect(settings.onByDefault == false, "type=boolean value=NO")
    #expect(settings.tag == 7, "an inherited View key")
    #expect(settings.field?.text == "Through the outlet", "a key path through an outlet made before the attributes")
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
  }

  /// Runtime attributes on a `<customObject>` (a controller's settings): Apple's ibtool
  /// compiles them as on any object; they must not vanish without a word.
  @Test func runtimeAttributesOnACustomObjectAreNotDropped() throws {
    let folder = try ScratchFolder("loader-runtime-attributes-object")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="r1" customClass="Recorder">
            <userDefinedRuntimeAttributes>
                <userDefinedRuntimeAttribute type="string" keyPath="name" value="configured"/>
            </userDefinedRuntimeAttributes>
        </customObject>
        """),
      to: "ObjectAttributes.xib", in: folder)
    switch Self.result({ () throws(NibLoadingError) in try Nib(contentsOf: path) }) {
    case .failure(let error):
      // Refusing the element would do too (the compiler's rule for what it cannot compile).
      #expect(error.code == .unreadable)
    case .success(let nib):
      let loaded = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
      let recorder = try #require(loaded.topLevelObjects.first as? Recorder)
      #expect(recorder.name == "configured", "the custom object's runtime attribute was dropped")
    }
  }

  @Test func runtimeAttributeOfTheWrongTypeOrKeyIsAnErrorInStrictMode() throws {
    let folder = try ScratchFolder("loader-runtime-attributes-bad")
    for (name, attribute, key) in [
      ("WrongType", #"<userDefinedRuntimeAttribute type="string" keyPath="count" value="many"/>"#, "count"),
      ("NoSuchKey", #"<userDefinedRuntimeAttribute type="string" keyPath="colour" value="red"/>"#, "colour"),
      ("NoSuchPath", #"<userDefinedRuntimeAttribute type="string" keyPath="field.colour" value="red"/>"#, "field.colour"),
    ] {
      let path = try Self.write(
        Self.xib(
          Self.window(
            id: "w1", content: "v1",
            subviews: Self.settingsView(
              attributes: attribute + #"<userDefinedRuntimeAttribute type="string" keyPath="title" value="Kept"/>"#,
              connections: #"<outlet property="field" destination="t1" id="c1"/>"#)
              + Self.textField(id: "t1", title: "Name"))),
        to: "\(name).xib", in: folder)
      let nib = try Nib(contentsOf: path)
      let loaded = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
      let window = try #require(loaded.topLevelObjects.first as? Window)
      let settings = try #require(window.contentView?.subviews.first as? SettingsView)
      #expect(settings.title == "Kept", "\(name): the other attributes are still set in lenient mode")
      #expect(settings.count == 0, "\(name)")
      #expect(loaded.warnings.count == 1, "\(name): \(loaded.warnings)")
      #expect(loaded.warnings.first?.contains(key) == true, "\(name): \(loaded.warnings)")
      let settingsID = try #require(loaded.objectsByID.first { $0.value === settings }?.key)

      let error = expectError(NibLoadingError.self, .undefinedKey, "\(name)") { () throws(NibLoadingError) in
        try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
      }
      #expect(error?.key == key, "\(name)")
      #expect(error?.nib == path, "\(name)")
      #expect(error?.objectID == settingsID, "\(name)")
      #expect(error?.description.hasPrefix("\(path): object \(settingsID): \(key): ") == true, "\(name): \(String(describing: error))")
    }
  }

  /// The xib types the compiler refuses (Docs/ibtool.md lists them; `CocoaNibCompiler`
  /// compiles only boolean, string and number): the load fails with the compiler's error,
  /// naming the file and the attribute's line.
  @Test(arguments: [
    ("point", #"<userDefinedRuntimeAttribute type="point" keyPath="origin"><point key="value" x="1" y="2"/></userDefinedRuntimeAttribute>"#),
    ("size", #"<userDefinedRuntimeAttribute type="size" keyPath="extent"><size key="value" width="3" height="4"/></userDefinedRuntimeAttribute>"#),
    ("rect", #"<userDefinedRuntimeAttribute type="rect" keyPath="bounds"><rect key="value" x="0" y="0" width="5" height="6"/></userDefinedRuntimeAttribute>"#),
    ("range", #"<userDefinedRuntimeAttribute type="range" keyPath="selection"><range key="value" location="1" length="2"/></userDefinedRuntimeAttribute>"#),
    ("color", #"<userDefinedRuntimeAttribute type="color" keyPath="tint"><color key="value" red="1" green="0" blue="0" alpha="1" colorSpace="calibratedRGB"/></userDefinedRuntimeAttribute>"#),
    ("image", #"<userDefinedRuntimeAttribute type="image" keyPath="icon" value="NSAddTemplate"/>"#),
    ("nil", #"<userDefinedRuntimeAttribute type="nil" keyPath="note"/>"#),
    ("localizedString", #"<userDefinedRuntimeAttribute type="localizedString" keyPath="title" value="Hello"/>"#),
  ])
  func runtimeAttributeTypesTheCompilerRefuses(type: String, attribute: String) throws {
    let folder = try ScratchFolder("loader-runtime-attribute-\(type)")
    let text = Self.xib(Self.window(id: "w1", content: "v1", subviews: Self.settingsView(attributes: "\n" + attribute + "\n")))
    let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("type=\"\(type)\"") }) + 1
    let path = try Self.write(text, to: "Refused-\(type).xib", in: folder)
    let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: path) }
    #expect(error?.nib == path)
    let compilerError = try #require(error?.underlying as? InterfaceBuilderError, "\(String(describing: error))")
    #expect(compilerError.code == .unsupported)
    #expect(compilerError.line == line)
    #expect(compilerError.path == path)
    #expect(error?.description.hasPrefix(path + ": ") == true)
    #expect(error?.description.contains("\(path):\(line)") == true, "\(String(describing: error))")
    #expect(error?.description.contains("\"\(type)\"") == true, "the message names the type: \(String(describing: error))")
  }

  // MARK: - awakeFromNib

  @Test func awakeFromNibReachesEveryNibObjectThenTheOwnerLast() throws {
    let folder = try ScratchFolder("loader-awake")
    let path = try Self.write(
      Self.xib(
        owner: #"<outlet property="helper" destination="r1" id="c0"/>"#,
        """
        <customObject id="r1" customClass="Recorder">
            <connections>
                <outlet property="partner" destination="r2" id="c1"/>
            </connections>
        </customObject>
        <customObject id="r2" customClass="Recorder">
            <connections>
                <outlet property="partner" destination="r1" id="c2"/>
            </connections>
        </customObject>
        \(Self.window(
          id: "w1", content: "v1",
          subviews: """
            <customView id="cv1" customClass="RecordingView">
                <rect key="frame" x="0" y="0" width="10" height="10"/>
                <autoresizingMask key="autoresizingMask"/>
                <userDefinedRuntimeAttributes>
                    <userDefinedRuntimeAttribute type="string" keyPath="name" value="nested view"/>
                </userDefinedRuntimeAttributes>
            </customView>
            """))
        """),
      to: "Awake.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let log = CallLog()
    let owner = OwnerController()
    owner.log = log
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes(log: log), isStrict: true))
    let entries = log.entries
    #expect(entries.sorted() == ["nested view", "owner", "recorder", "recorder"], "\(entries)")
    #expect(entries.last == "owner", "File's Owner last: \(entries)")
    #expect(owner.awakenings == 1)
    #expect(owner.helperAtAwake == true, "the owner's outlets are made before its awakeFromNib")
    // Each object once, with its outlets (and attributes) in place.
    let recorders = loaded.topLevelObjects.compactMap { $0 as? Recorder }
    #expect(recorders.count == 2)
    for recorder in recorders {
      #expect(recorder.awakenings == 1)
      #expect(recorder.partnerAtAwake == true)
    }
    let view = try #require(loaded.objectsByID.values.compactMap { $0 as? RecordingView }.first)
    #expect(view.nameAtAwake == "nested view", "runtime attributes are set before awakeFromNib")

    // Every load awakes its own objects, and the owner, once more.
    let again = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes(log: log), isStrict: true))
    #expect(log.entries.count == 8)
    #expect(owner.awakenings == 2)
    #expect(recorders.allSatisfy { $0.awakenings == 1 }, "the first load's objects are not awoken again")
    #expect(again.topLevelObjects.compactMap { $0 as? Recorder }.allSatisfy { $0.awakenings == 1 })
  }

  /// Apple's Resource Programming Guide: macOS sends awakeFromNib "to File's Owner and other placeholders";
  /// the Application placeholder is one.
  @Test func awakeFromNibReachesTheApplicationPlaceholder() throws {
    let folder = try ScratchFolder("loader-awake-application")
    let path = try Self.write(
      Self.xib(application: #"<outlet property="quitItem" destination="i1" id="c1"/>"#, Self.menu(id: "m1", item: "i1", title: "Quit", action: "")),
      to: "AwakeApplication.xib", in: folder)
    let log = CallLog()
    let application = QuittingApplication()
    application.log = log
    let owner = OwnerController()
    owner.log = log
    let loaded = try Nib(contentsOf: path).load(owner: owner, options: Nib.Options(classes: Self.classes, application: application))
    #expect(application.quitItem != nil, "the outlet on the Application placeholder: \(loaded.warnings)")
    #expect(log.entries.filter { $0 == "application" }.count == 1, "\(log.entries)")
    #expect(log.entries.last == "owner", "\(log.entries)")
  }

  // MARK: - Custom classes

  /// A window with a custom view and a view with a custom class (a class swapper) that no one
  /// registered, and a custom view of a registered class.
  static func customViewsXib(in folder: ScratchFolder) throws -> String {
    try write(
      xib(
        window(
          id: "w1", content: "v1",
          subviews: """
            <customView id="cv1" customClass="MissingCustomView">
                <rect key="frame" x="1" y="2" width="30" height="40"/>
                <autoresizingMask key="autoresizingMask"/>
            </customView>
            <view id="cv2" customClass="MissingSwappedView">
                <rect key="frame" x="5" y="6" width="70" height="80"/>
                <autoresizingMask key="autoresizingMask"/>
            </view>
            <customView id="cv3" customClass="RecordingView">
                <rect key="frame" x="0" y="0" width="10" height="10"/>
                <autoresizingMask key="autoresizingMask"/>
            </customView>
            """)),
      to: "CustomView.xib", in: folder)
  }

  @Test func customViewOfAnUnregisteredClassFallsBackToViewInLenientMode() throws {
    let folder = try ScratchFolder("loader-custom-view")
    let path = try Self.customViewsXib(in: folder)
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.classes))
    let window = try #require(loaded.topLevelObjects.first as? Window)
    let subviews = try #require(window.contentView?.subviews)
    try #require(subviews.count == 3)
    #expect(type(of: subviews[0]) == View.self, "NSCustomView falls back to NSView: \(type(of: subviews[0]))")
    #expect(subviews[0].frame == CGRect(x: 1, y: 2, width: 30, height: 40))
    #expect(type(of: subviews[1]) == View.self, "a class swapper falls back to its original class: \(type(of: subviews[1]))")
    #expect(subviews[1].frame == CGRect(x: 5, y: 6, width: 70, height: 80))
    #expect(subviews[2] is RecordingView, "a registered custom class is made")
    #expect(loaded.unknownClassNames == ["MissingCustomView", "MissingSwappedView"])
    #expect(loaded.warnings.contains { $0.contains("MissingCustomView") }, "\(loaded.warnings)")
    #expect(loaded.warnings.contains { $0.contains("MissingSwappedView") }, "\(loaded.warnings)")
    #expect(!loaded.warnings.contains { $0.contains("RecordingView") }, "\(loaded.warnings)")
  }

  /// Strict mode refuses an unregistered custom class even where the nib names a class to fall
  /// back on (`NibUnarchiver.Options.isStrict`).
  @Test func customViewOfAnUnregisteredClassIsAnErrorInStrictMode() throws {
    let folder = try ScratchFolder("loader-custom-view-strict")
    let path = try Self.customViewsXib(in: folder)
    let nib = try Nib(contentsOf: path)
    let lenient = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes))
    let window = try #require(lenient.topLevelObjects.first as? Window)
    let fallback = try #require(window.contentView?.subviews.first)
    let objectID = try #require(lenient.objectsByID.first { $0.value === fallback }?.key)
    let error = expectError(NibLoadingError.self, .unknownClass) { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    #expect(error?.key == "MissingCustomView")
    #expect(error?.nib == path)
    #expect(error?.objectID == objectID)
    #expect(error?.description.hasPrefix("\(path): object \(objectID): MissingCustomView: ") == true, "\(String(describing: error))")

    // Registering the class is what strict mode asks for.
    var classes = Self.classes
    classes.register(RecordingView.self, as: "MissingCustomView", makeInstanceOnMainActor: { RecordingView() })
    classes.register(RecordingView.self, as: "MissingSwappedView", makeInstanceOnMainActor: { RecordingView() })
    let loaded = try nib.load(owner: nil, options: Nib.Options(classes: classes, isStrict: true))
    let subviews = (loaded.topLevelObjects.first as? Window)?.contentView?.subviews ?? []
    #expect(subviews.count == 3)
    #expect(subviews.allSatisfy { $0 is RecordingView })
    #expect(loaded.unknownClassNames.isEmpty)
  }

  @Test func customObjectOfAnUnregisteredClassIsGenericInLenientModeAndAnErrorInStrictMode() throws {
    let folder = try ScratchFolder("loader-custom-object")
    let path = try Self.write(
      Self.xib(
        owner: #"<outlet property="helper" destination="o1" id="c1"/>"#,
        """
        <customObject id="o1" customClass="MissingModelController">
            <connections>
                <outlet property="anyOutlet" destination="w1" id="c2"/>
            </connections>
        </customObject>
        \(Self.window(id: "w1", content: "v1"))
        """),
      to: "CustomObject.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let owner = OwnerController()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.classes))
    let generic = try #require(loaded.topLevelObjects.first as? GenericObject)
    #expect(generic.className == "MissingModelController")
    #expect(generic["anyOutlet"] as AnyObject? === loaded.topLevelObjects.last, "a generic object takes any outlet")
    #expect(owner.helper === generic, "outlets to a generic object are made")
    #expect(loaded.unknownClassNames == ["MissingModelController"])
    #expect(loaded.warnings.contains { $0.contains("MissingModelController") }, "\(loaded.warnings)")
    let objectID = try #require(loaded.objectsByID.first { $0.value === generic }?.key)

    let error = expectError(NibLoadingError.self, .unknownClass) { () throws(NibLoadingError) in
      try nib.load(owner: OwnerController(), options: Nib.Options(classes: Self.classes, isStrict: true))
    }
    #expect(error?.key == "MissingModelController")
    #expect(error?.nib == path)
    #expect(error?.objectID == objectID)
    #expect(error?.description.hasPrefix("\(path): object \(objectID): MissingModelController: ") == true, "\(String(describing: error))")
  }

  @Test func swiftModuleClassesResolveByTheirPlainName() throws {
    let folder = try ScratchFolder("loader-module-class")
    let path = try Self.write(
      Self.xib(#"<customObject id="o1" customClass="Recorder" customModule="InventoryApp"/>"#), to: "ModuleClass.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    // The compiler archives the mangled runtime name; the registry knows the class as Recorder.
    let names = nib.graph.objects.indices.compactMap { nib.graph.text(of: $0) }
    #expect(names.contains("_TtC12InventoryApp8Recorder"), "\(names)")
    let loaded = try nib.load(owner: nil, options: Nib.Options(classes: Self.classes, isStrict: true))
    #expect(loaded.topLevelObjects.first is Recorder)
    #expect(loaded.unknownClassNames.isEmpty)
  }

  // MARK: - Ownership

  @Test func topLevelObjectsAreReleasedWhenTheCallerDropsThem() throws {
    let folder = try ScratchFolder("loader-ownership")
    let path = try Self.write(
      Self.xib(
        """
        <customObject id="k1" customClass="ItemsController">
            <connections>
                <outlet property="view" destination="v1" id="c1"/>
                <outlet property="nameField" destination="t1" id="c2"/>
            </connections>
        </customObject>
        \(Self.window(
          id: "w1", content: "v1", visible: true,
          subviews: Self.textField(id: "t1", title: "Name") + Self.button(id: "b1", action: #"<action selector="doIt:" target="k1" id="a1"/>"#),
          connections: #"<outlet property="delegate" destination="k1" id="c3"/>"#))
        """),
      to: "Ownership.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let application = Application()
    weak var window: Window?
    weak var contentView: View?
    weak var field: View?
    weak var button: View?
    weak var controller: ItemsController?
    do {
      let objects = try nib.instantiate(withOwner: nil, options: Nib.Options(classes: Self.classes, application: application))
      #expect(objects.count == 2)
      window = objects.compactMap { $0 as? Window }.first
      controller = objects.compactMap { $0 as? ItemsController }.first
      contentView = window?.contentView
      field = contentView?.subviews.first
      button = contentView?.subviews.last
      #expect(window != nil && contentView != nil && field != nil && button != nil && controller != nil)
      #expect(application.windows.contains { $0 === window }, "a visible-at-launch window is ordered front")
    }
    #expect(window == nil, "the window outlived its nib's top-level objects")
    #expect(contentView == nil)
    #expect(field == nil)
    #expect(button == nil)
    #expect(controller == nil)
    #expect(application.windows.isEmpty, "the application does not keep windows alive")
  }

  @Test func ownersStrongOutletKeepsItsObjectsAlive() throws {
    let folder = try ScratchFolder("loader-ownership-owner")
    let path = try Self.write(
      Self.xib(
        owner: #"<outlet property="window" destination="w1" id="c1"/>"#,
        Self.window(id: "w1", content: "v1", subviews: Self.textField(id: "t1", title: "Name"))),
      to: "OwnerKeeps.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    var owner: OwnerController? = OwnerController()
    weak var window: Window?
    weak var field: View?
    do {
      _ = try nib.instantiate(withOwner: owner, options: Nib.Options(classes: Self.classes))
      window = owner?.window
      field = owner?.window?.contentView?.subviews.first
    }
    #expect(window != nil, "the owner's strong outlet keeps the window")
    #expect(field != nil)
    owner = nil
    #expect(window == nil)
    #expect(field == nil)
  }

  // MARK: - Unreadable nibs

  @Test func garbageBytesAreUnreadable() {
    for (label, bytes) in [
      ("garbage", [UInt8]((0..<64).map { UInt8(($0 * 37 + 11) % 256) })),
      ("empty", []),
      ("truncated NIBArchive", Array("NIBArchive".utf8) + [1, 0, 0, 0, 9, 0]),
      ("a property list that is not a nib", Array(#"<?xml version="1.0"?><plist version="1.0"><string>x</string></plist>"#.utf8)),
    ] {
      let error = expectError(NibLoadingError.self, .unreadable, "\(label)") { () throws(NibLoadingError) in
        try Nib(data: bytes, name: "Garbage.nib")
      }
      #expect(error?.nib == "Garbage.nib", "\(label)")
      #expect(error?.description.hasPrefix("Garbage.nib: ") == true, "\(label): \(String(describing: error))")
      #expect(error?.underlying != nil, "\(label): the reader's error is kept")
    }
  }

  @Test func malformedXibIsUnreadableWithTheCompilersError() throws {
    let folder = try ScratchFolder("loader-malformed")
    let broken = Self.xib(#"<customObject id="o1" customClass="Recorder">"#)  // never closed
    let path = try Self.write(broken, to: "Broken.xib", in: folder)
    let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: path) }
    #expect(error?.nib == path)
    #expect(error?.description.hasPrefix(path + ": ") == true)
    let compilerError = try #require(error?.underlying as? InterfaceBuilderError, "\(String(describing: error))")
    #expect(compilerError.code == .malformedXML)
    #expect(compilerError.path == path)
    #expect(compilerError.line != nil)

    // Well-formed, but an element the compiler does not know.
    let unknownPath = try Self.write(Self.xib(#"<frobnicator id="f1"/>"#), to: "Unknown.xib", in: folder)
    let unknown = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: unknownPath) }
    #expect((unknown?.underlying as? InterfaceBuilderError)?.code == .unsupported)
    #expect(unknown?.description.contains("frobnicator") == true, "\(String(describing: unknown))")

    // An outlet to an id the document does not define.
    let danglingPath = try Self.write(
      Self.xib(owner: #"<outlet property="window" destination="nowhere" id="c1"/>"#, ""), to: "Dangling.xib", in: folder)
    let dangling = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: danglingPath) }
    #expect((dangling?.underlying as? InterfaceBuilderError)?.code == .invalidDocument)
    #expect(dangling?.description.contains("nowhere") == true, "\(String(describing: dangling))")

    // No file at all.
    let missing = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: folder.file("Absent.xib")) }
    #expect(missing?.nib == folder.file("Absent.xib"))
  }

  @Test func graphWithoutObjectDataIsUnreadable() {
    var graph = NibGraph(rootClass: "NSObject")
    graph.append("title", .object(graph.string("not a nib")), to: graph.root)
    let nib = Nib(graph: graph, name: "Rootless.nib")
    let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try nib.load(owner: nil) }
    #expect(error?.nib == "Rootless.nib")
    #expect(error?.description.hasPrefix("Rootless.nib: ") == true)
  }
}

// MARK: - The app's classes

/// A File's Owner: outlets to a window, a label and a helper; the action `save:`.
@MainActor private final class OwnerController: NibObject {
  var window: Window?
  weak var label: TextField?
  var helper: AnyObject?
  var saves: [AnyObject?] = []
  var log: CallLog?
  var awakenings = 0
  var helperAtAwake: Bool?

  required init() { super.init() }

  static let keys = KeyTable(for: OwnerController.self, inheriting: NibObject.objectKeys) {
    $0.key("window", \.window)
    $0.key("label", \.label)
    $0.key("helper", \.helper)
  }
  override class var keyTable: KeyTable { keys }

  static let actions = ActionTable(for: OwnerController.self) {
    $0.action("save:") { owner, sender in owner.saves.append(sender as AnyObject?) }
  }
  override class var actionTable: ActionTable { actions }

  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    helperAtAwake = helper != nil
    log?.append("owner")
  }
}

/// A plain object that records its `awakeFromNib` in a log, with a name (a runtime attribute)
/// and a partner (an outlet).
@MainActor private final class Recorder: NibObject {
  var name = ""
  weak var partner: Recorder?
  var log: CallLog?
  var awakenings = 0
  var partnerAtAwake: Bool?

  required init() { super.init() }

  static let keys = KeyTable(for: Recorder.self) {
    $0.key("name", \.name)
    $0.key("partner", \.partner)
  }
  override class var keyTable: KeyTable { keys }

  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    partnerAtAwake = partner != nil
    log?.append("recorder")
  }
}

/// A custom view that records its `awakeFromNib`.
@MainActor private final class RecordingView: View {
  var name = ""
  var log: CallLog?
  var nameAtAwake: String?

  required init() { super.init() }

  static let keys = KeyTable(for: RecordingView.self, inheriting: View.viewKeys) { $0.key("name", \.name) }
  override class var keyTable: KeyTable { keys }

  override func awakeFromNib() {
    super.awakeFromNib()
    nameAtAwake = name
    log?.append(name)
  }
}

/// A view controller subclass with an outlet of its own besides the inherited `view`.
@MainActor private final class ItemsController: ViewController {
  weak var nameField: TextField?
  weak var partner: Recorder?

  required init() { super.init() }

  static let keys = KeyTable(for: ItemsController.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("nameField", \.nameField)
    $0.key("partner", \.partner)
  }
  override class var keyTable: KeyTable { keys }

  static let actions = ActionTable(for: ItemsController.self) { $0.action("doIt:") { _, _ in } }
  override class var actionTable: ActionTable { actions }
}

/// A view controller that answers `doIt:`.
@MainActor private final class ChainController: ViewController {
  var hits = 0
  required init() { super.init() }
  static let actions = ActionTable(for: ChainController.self) { $0.action("doIt:") { controller, _ in controller.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

/// A delegate (of a window or the application) that answers `doIt:` and has an outlet to the
/// application.
@MainActor private final class ChainDelegate: NibObject {
  var hits = 0
  weak var application: Application?
  required init() { super.init() }
  static let keys = KeyTable(for: ChainDelegate.self) { $0.key("application", \.application) }
  override class var keyTable: KeyTable { keys }
  static let actions = ActionTable(for: ChainDelegate.self) { $0.action("doIt:") { delegate, _ in delegate.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

/// An application that answers `terminate:` and records its `awakeFromNib`.
@MainActor private final class QuittingApplication: Application {
  var terminations = 0
  var log: CallLog?
  weak var quitItem: MenuItem?
  required init() { super.init() }
  static let keys = KeyTable(for: QuittingApplication.self) { $0.key("quitItem", \.quitItem) }
  override class var keyTable: KeyTable { keys }
  static let actions = ActionTable(for: QuittingApplication.self) { $0.action("terminate:") { app, _ in app.terminations += 1 } }
  override class var actionTable: ActionTable { actions }
  override func awakeFromNib() {
    super.awakeFromNib()
    log?.append("application")
  }
}

/// A custom view with keys of every type a runtime attribute sets, and an outlet.
@MainActor private final class SettingsView: View {
  var title = ""
  var count = 0
  var ratio = 0.0
  var numberFlag = false
  var flag = false
  var onByDefault = true
  weak var field: TextField?

  required init() { super.init() }

  static let keys = KeyTable(for: SettingsView.self, inheriting: View.viewKeys) {
    $0.key("title", \.title)
    $0.key("count", \.count)
    $0.key("ratio", \.ratio)
    $0.key("numberFlag", \.numberFlag)
    $0.key("flag", \.flag)
    $0.key("onByDefault", \.onByDefault)
    $0.key("field", \.field)
  }
  override class var keyTable: KeyTable { keys }
}

/// Names in the order objects report them, from any thread.
private final class CallLog: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [String] = []

  func append(_ entry: String) { lock.withLock { recorded.append(entry) } }
  var entries: [String] { lock.withLock { recorded } }
}

// MARK: - Helpers

@MainActor extension LoaderStepTests {
  /// The interface classes with the test's own registered.
  static var classes: ClassRegistry { classes(log: nil) }

  /// The interface classes with the test's own; recorders made by the nib log into `log`.
  fileprivate static func classes(log: CallLog?) -> ClassRegistry {
    var registry = ClassRegistry.interfaceObjects
    registry.register(OwnerController.self, as: "OwnerController", makeInstanceOnMainActor: { OwnerController() })
    registry.register(
      Recorder.self, as: "Recorder",
      makeInstanceOnMainActor: {
        let recorder = Recorder()
        recorder.log = log
        return recorder
      })
    registry.register(
      RecordingView.self, as: "RecordingView",
      makeInstanceOnMainActor: {
        let view = RecordingView()
        view.log = log
        return view
      })
    registry.register(ItemsController.self, as: "ItemsController", makeInstanceOnMainActor: { ItemsController() })
    registry.register(ChainController.self, as: "ChainController", makeInstanceOnMainActor: { ChainController() })
    registry.register(ChainDelegate.self, as: "ChainDelegate", makeInstanceOnMainActor: { ChainDelegate() })
    registry.register(SettingsView.self, as: "SettingsView", makeInstanceOnMainActor: { SettingsView() })
    return registry
  }

  /// A macOS xib: the File's Owner (of `ownerClass`, with `owner`'s connections), the First
  /// Responder, the Application (with `application`'s connections), then `objects`.
  static func xib(ownerClass: String = "OwnerController", owner: String = "", application: String = "", _ objects: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="22505" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" useAutolayout="YES">
        <dependencies>
            <plugIn identifier="com.apple.InterfaceBuilder.CocoaPlugin" version="22505"/>
        </dependencies>
        <objects>
            <customObject id="-2" userLabel="File's Owner" customClass="\(ownerClass)">\(connections(owner))</customObject>
            <customObject id="-1" userLabel="First Responder" customClass="FirstResponder"/>
            <customObject id="-3" userLabel="Application" customClass="NSObject">\(connections(application))</customObject>
    \(objects)
        </objects>
    </document>

    """
  }

  static func connections(_ body: String) -> String {
    body.isEmpty ? "" : "\n<connections>\n\(body)\n</connections>\n"
  }

  /// A window `id` whose content view is `content`, holding `subviews`.
  static func window(id: String, content: String, visible: Bool = false, subviews: String = "", connections body: String = "") -> String {
    """
    <window title="Window" allowsToolTipsWhenApplicationIsInactive="NO" autorecalculatesKeyViewLoop="NO" releasedWhenClosed="NO" visibleAtLaunch="\(visible ? "YES" : "NO")" animationBehavior="default" id="\(id)">
        <windowStyleMask key="styleMask" titled="YES" closable="YES"/>
        <rect key="contentRect" x="100" y="100" width="300" height="200"/>
        <rect key="screenRect" x="0.0" y="0.0" width="1440" height="900"/>
        <view key="contentView" id="\(content)">
            <rect key="frame" x="0.0" y="0.0" width="300" height="200"/>
            <autoresizingMask key="autoresizingMask"/>
            \(subviews.isEmpty ? "" : "<subviews>\n\(subviews)\n</subviews>")
        </view>\(connections(body))
    </window>
    """
  }

  /// A `SettingsView` custom view with runtime `attributes` and `connections`.
  static func settingsView(attributes: String, connections body: String = "") -> String {
    """
    <customView id="sv1" customClass="SettingsView">
        <rect key="frame" x="0" y="0" width="50" height="50"/>
        <autoresizingMask key="autoresizingMask"/>
        <userDefinedRuntimeAttributes>\(attributes)</userDefinedRuntimeAttributes>\(connections(body))
    </customView>
    """
  }

  static func textField(id: String, title: String) -> String {
    """
    <textField id="\(id)">
        <rect key="frame" x="20" y="80" width="260" height="22"/>
        <autoresizingMask key="autoresizingMask"/>
        <textFieldCell key="cell" lineBreakMode="clipping" selectable="YES" editable="YES" title="\(title)" id="\(id)-cell">
            <font key="font" metaFont="system"/>
        </textFieldCell>
    </textField>
    """
  }

  static func button(id: String, action: String) -> String {
    """
    <button id="\(id)">
        <rect key="frame" x="20" y="20" width="80" height="32"/>
        <autoresizingMask key="autoresizingMask"/>
        <buttonCell key="cell" type="push" title="Go" bezelStyle="rounded" alignment="center" borderStyle="border" imageScaling="proportionallyDown" inset="2" id="\(id)-cell">
            <behavior key="behavior" pushIn="YES" lightByBackground="YES" lightByGray="YES"/>
            <font key="font" metaFont="system"/>
        </buttonCell>\(connections(action))
    </button>
    """
  }

  static func menu(id: String, item: String, title: String, action: String) -> String {
    """
    <menu title="Main Menu" systemMenu="main" id="\(id)">
        <items>
            <menuItem title="\(title)" keyEquivalent="q" id="\(item)">\(connections(action))</menuItem>
        </items>
    </menu>
    """
  }

  static func write(_ text: String, to name: String, in folder: ScratchFolder) throws -> String {
    try folder.write(Array(text.utf8), to: name)
    return folder.file(name)
  }

  /// A nib whose owner has an outlet `helper` to the external object `SharedHelper`: compiled
  /// from a xib with a stand-in custom object, which is then made the placeholder a storyboard's
  /// nibs hold (`NSNibExternalObjectPlaceholder`), since xibs cannot declare one.
  static func externalObjectNib(in folder: ScratchFolder) throws -> Nib {
    let path = try write(
      xib(
        owner: #"<outlet property="helper" destination="x1" id="c1"/>"#,
        #"<customObject id="x1" customClass="ExternalStandIn"/>"#),
      to: "External.xib", in: folder)
    var graph = try Nib(contentsOf: path).graph
    let standIn = try #require(
      graph.objects.indices.first { index in
        graph.objects[index].className == "NSCustomObject"
          && graph.objects[index].entries.contains { entry in
            if case .object(let name) = entry.value, entry.key == "NSClassName" { return graph.text(of: name) == "ExternalStandIn" }
            return false
          }
      })
    let identifier = graph.string("SharedHelper")
    graph[standIn] = NibGraph.Object(
      className: "NSNibExternalObjectPlaceholder", entries: [.init("NSExternalObjectPlaceholderIdentifier", .object(identifier))])
    return Nib(graph: graph, name: "External.nib")
  }

  /// What `body` gave or threw.
  static func result<R>(_ body: () throws(NibLoadingError) -> R) -> Result<R, NibLoadingError> {
    do { return .success(try body()) } catch { return .failure(error) }
  }
}
