import Foundation
import Interface
import InterfaceBuilder
import InterfaceObjects
import NibLoading
import ObjectModel
import Testing
import TestSupport

/// One test per step of UIKit's nib loading sequence (UIKit's documented order), each over a small
/// iOS xib or storyboard written by the test and compiled on the spot by `Nib(contentsOf:)` /
/// `Storyboard(contentsOf:)` (`CocoaTouchCompiler`, `CocoaTouchStoryboardCompiler`):
/// placeholders and external objects, outlets and outlet collections through key-value coding,
/// actions with their event masks and the responder chain, runtime attributes before
/// connections, `awakeFromNib` for the nib's own objects only, class swappers, ownership of the
/// top-level objects, storyboard scenes and segues, and localization of the exported strings.
@MainActor
@Suite struct UIKitLoaderStepTests {
  // MARK: - 1. Placeholders

  @Test func placeholdersStandForTheOwnerAndTheExternalObjects() throws {
    let folder = try ScratchFolder("uikit-placeholders")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKPlaceholderOwner",
        owner: """
          <outlet property="rootView" destination="root" id="o1"/>
          <outlet property="shared" destination="ext" id="o2"/>
          """,
        """
        <placeholder placeholderIdentifier="MyExternal" id="ext">
            <connections>
                <outlet property="label" destination="lbl" id="o3"/>
            </connections>
        </placeholder>
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
            <subviews>
                \(Self.uikitLabel(id: "lbl", text: "Shared"))
            </subviews>
        </view>
        """),
      to: "Placeholders.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let owner = UIKPlaceholderOwner()
    let external = UIKPlaceholderOwner()
    let loaded = try nib.load(owner: owner, options: Nib.Options(classes: Self.uikitClasses(), externalObjects: ["MyExternal": external]))

    let root = try #require(loaded.topLevelObjects.first as? View)
    #expect(loaded.topLevelObjects.count == 1, "the placeholders are not top-level objects: \(loaded.topLevelObjects)")
    #expect(!loaded.topLevelObjects.contains { $0 === owner || $0 === external })
    #expect(!loaded.objectsByID.values.contains { $0 === owner || $0 === external }, "the nib made neither placeholder")
    #expect(owner.rootView === root, "File's Owner outlets go to the owner passed in")
    #expect(owner.shared === external, "an outlet to the external placeholder gets the options' object")
    let label = try #require(root.subviews.first as? Label)
    #expect(external.label === label, "the external object's own outlets are connected")
    #expect(label.text == "Shared")

    // Each instantiation connects its own owner to its own objects.
    let other = UIKPlaceholderOwner()
    _ = try nib.load(owner: other, options: Nib.Options(classes: Self.uikitClasses(), externalObjects: ["MyExternal": external]))
    #expect(other.rootView != nil)
    #expect(other.rootView !== root)
    #expect(owner.rootView === root)

    // Without the external object: an error naming the placeholder's identifier.
    let error = expectError(NibLoadingError.self, .missingExternalObject) { () throws(NibLoadingError) in
      try nib.load(owner: UIKPlaceholderOwner(), options: Nib.Options(classes: Self.uikitClasses(), externalObjects: ["Other": external]))
    }
    #expect(error?.key == "MyExternal")
    #expect(error?.nib == path)
    #expect(error?.description.contains("MyExternal") == true, "\(String(describing: error))")
  }

  // MARK: - 2. Outlets

  @Test func outletsGoThroughTheKeyTablesAndCollectionsKeepDocumentOrder() throws {
    let folder = try ScratchFolder("uikit-outlets")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKOutletOwner",
        owner: """
          <outlet property="view" destination="root" id="o1"/>
          <outlet property="titleLabel" destination="lbl" id="o2"/>
          <outletCollection property="buttons" destination="b2" collectionClass="NSMutableArray" id="oc1"/>
          <outletCollection property="buttons" destination="b3" collectionClass="NSMutableArray" id="oc2"/>
          <outletCollection property="buttons" destination="b1" collectionClass="NSMutableArray" id="oc3"/>
          """,
        """
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                \(Self.uikitLabel(id: "lbl", text: "Title"))
                \(Self.uikitButton(id: "b1", tag: 1))
                \(Self.uikitButton(id: "b2", tag: 2))
                \(Self.uikitButton(id: "b3", tag: 3))
            </subviews>
        </view>
        """),
      to: "Outlets.xib", in: folder)
    let owner = UIKOutletOwner()
    let loaded = try Nib(contentsOf: path).load(owner: owner, options: Nib.Options(classes: Self.uikitClasses(), isStrict: true))
    let root = try #require(loaded.topLevelObjects.first as? View)
    #expect(owner.viewIfLoaded === root, "the inherited ViewController key view")
    #expect(owner.titleLabel === root.subviews.first, "the owner's own key titleLabel")
    #expect(owner.titleLabel?.text == "Title")
    // The collection holds the destinations in the order of the document's <outletCollection>s.
    #expect(owner.buttons.map(\.tag) == [2, 3, 1], "\(owner.buttons.map(\.tag))")
    #expect(owner.buttons.allSatisfy { button in root.subviews.contains { $0 === button } })
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
  }

  @Test func undefinedOutletKeyIsAnErrorEvenInLenientMode() throws {
    let folder = try ScratchFolder("uikit-undefined-outlet")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKOutletOwner",
        owner: """
          <outlet property="titleLabel" destination="lbl" id="o1"/>
          <outlet property="noSuchOutlet" destination="lbl" id="o2"/>
          """,
        """
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                \(Self.uikitLabel(id: "lbl", text: "Title"))
            </subviews>
            <connections>
                <outlet property="missingViewOutlet" destination="lbl" id="o3"/>
            </connections>
        </view>
        """),
      to: "UndefinedOutlet.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    // Lenient mode is the default: UIKit raises "not key value coding-compliant" all the same.
    let error = expectError(NibLoadingError.self, .undefinedKey, "lenient mode") { () throws(NibLoadingError) in
      try nib.load(owner: UIKOutletOwner(), options: Nib.Options(classes: Self.uikitClasses()))
    }
    #expect(error?.key == "noSuchOutlet")
    #expect(error?.nib == path)
    #expect(error?.objectID != nil)
    #expect(error?.description.contains("not key value coding-compliant for the key noSuchOutlet") == true, "\(String(describing: error))")
    #expect(error?.description.contains("UIKOutletOwner") == true, "the error names the owner's class: \(String(describing: error))")

    expectError(NibLoadingError.self, .undefinedKey, "strict mode") { () throws(NibLoadingError) in
      try nib.load(owner: UIKOutletOwner(), options: Nib.Options(classes: Self.uikitClasses(), isStrict: true))
    }

    // Only the explicit warning policy lets the load through, skipping both undefined keys.
    let owner = UIKOutletOwner()
    let warned = try nib.load(owner: owner, options: Nib.Options(classes: Self.uikitClasses(), missingConnections: .warning))
    #expect(owner.titleLabel != nil)
    #expect(warned.warnings.contains { $0.contains("noSuchOutlet") }, "\(warned.warnings)")
    #expect(warned.warnings.contains { $0.contains("missingViewOutlet") }, "\(warned.warnings)")
  }

  // MARK: - 3. Actions

  @Test func actionsKeepTargetActionAndEventMask() throws {
    let folder = try ScratchFolder("uikit-actions")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKActionOwner",
        """
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                \(Self.uikitButton(id: "save", tag: 1, connections: #"<action selector="save:" destination="-1" eventType="touchUpInside" id="a1"/>"#))
                <switch opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" on="YES" id="toggle">
                    <rect key="frame" x="20" y="60" width="51" height="31"/>
                    <connections>
                        <action selector="toggled:" destination="-1" eventType="valueChanged" id="a2"/>
                    </connections>
                </switch>
                <slider opaque="NO" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" value="0.25" minValue="0.0" maxValue="2" id="volume">
                    <rect key="frame" x="20" y="100" width="200" height="30"/>
                    <connections>
                        <action selector="sliderMoved:" destination="-1" eventType="valueChanged" id="a3"/>
                        <action selector="sliderReleased:" destination="-1" eventType="touchUpInside" id="a4"/>
                    </connections>
                </slider>
            </subviews>
        </view>
        <barButtonItem title="Done" id="done">
            <connections>
                <action selector="done:" destination="-1" id="a5"/>
            </connections>
        </barButtonItem>
        <barButtonItem title="Edit" id="edit">
            <connections>
                <action selector="edit:" destination="-2" id="a6"/>
            </connections>
        </barButtonItem>
        """),
      to: "Actions.xib", in: folder)
    let owner = UIKActionOwner()
    let loaded = try Nib(contentsOf: path).load(owner: owner, options: Nib.Options(classes: Self.uikitClasses()))
    let root = try #require(loaded.topLevelObjects.first as? View)
    let button = try #require(root.subviews.compactMap { $0 as? Button }.first)
    let toggle = try #require(root.subviews.compactMap { $0 as? Switch }.first)
    let slider = try #require(root.subviews.compactMap { $0 as? Slider }.first)
    #expect(toggle.isOn)
    #expect(slider.value == 0.25 && slider.maximumValue == 2)

    // The event masks as the document gave them.
    #expect(button.actions(for: .touchUpInside) == ["save:"])
    #expect(button.actions(for: .valueChanged).isEmpty)
    #expect(toggle.actions(for: .valueChanged) == ["toggled:"])
    #expect(toggle.actions(for: .touchUpInside).isEmpty, "a valueChanged action is not sent on touchUpInside")
    #expect(slider.actions(for: .valueChanged) == ["sliderMoved:"])
    #expect(slider.actions(for: .touchUpInside) == ["sliderReleased:"])
    #expect(slider.eventActions.map(\.events) == [.valueChanged, .touchUpInside])
    for control in [button, toggle, slider] as [Control] {
      #expect(control.eventActions.allSatisfy { $0.target === owner && $0.hasTarget }, "explicit target: File's Owner")
    }

    // Sending: only the registrations for the event, with the control as sender.
    #expect(try slider.sendActions(for: .valueChanged) == 1)
    #expect(owner.calls.map(\.selector) == ["sliderMoved:"])
    #expect(owner.calls.last?.sender === slider)
    #expect(try slider.sendActions(for: .touchUpInside) == 1)
    #expect(try toggle.sendActions(for: .touchUpInside) == 0)
    #expect(try toggle.sendActions(for: .valueChanged) == 1)
    #expect(try button.performClick())
    #expect(owner.calls.map(\.selector) == ["sliderMoved:", "sliderReleased:", "toggled:", "save:"])
    #expect(owner.calls.last?.sender === button)

    // A bar button item has no event mask: it keeps a target and an action.
    let items = loaded.topLevelObjects.compactMap { $0 as? BarButtonItem }
    try #require(items.count == 2)
    #expect(items[0].title == "Done")
    #expect(items[0].target === owner)
    #expect(items[0].action == "done:")
    #expect(items[1].target == nil, "the First Responder is a nil target")
    #expect(items[1].action == "edit:")
    #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
  }

  @Test func firstResponderActionsWalkTheResponderChain() throws {
    let folder = try ScratchFolder("uikit-responder-chain")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        """
        <window opaque="NO" clearsContextBeforeDrawing="NO" contentMode="scaleToFill" id="win" customClass="UIKChainWindow">
            <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
            <connections>
                <outlet property="rootViewController" destination="vc" id="o1"/>
            </connections>
        </window>
        <viewController id="vc" customClass="UIKChainController">
            <view key="view" contentMode="scaleToFill" id="root">
                <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                <subviews>
                    <view contentMode="scaleToFill" id="container" customClass="UIKChainView">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="100"/>
                        <subviews>
                            \(Self.uikitButton(id: "go", tag: 5, connections: #"<action selector="chainAction:" destination="-2" eventType="touchUpInside" id="a1"/>"#))
                        </subviews>
                    </view>
                </subviews>
            </view>
        </viewController>
        """),
      to: "Chain.xib", in: folder)
    let application = UIKChainApplication()
    let applicationDelegate = UIKChainDelegate()
    application.delegate = applicationDelegate
    let loaded = try Nib(contentsOf: path).load(owner: nil, options: Nib.Options(classes: Self.uikitClasses(), application: application))
    let window = try #require(loaded.topLevelObjects.compactMap { $0 as? UIKChainWindow }.first)
    let controller = try #require(loaded.topLevelObjects.compactMap { $0 as? UIKChainController }.first)
    let root = try #require(controller.viewIfLoaded)
    let container = try #require(root.subviews.first as? UIKChainView)
    let button = try #require(container.subviews.first as? Button)
    #expect(window.rootViewController === controller)
    #expect(window.contentView === root)
    #expect(window.application === application)

    // The First Responder is a nil target, kept with its event mask.
    #expect(button.eventActions.count == 1)
    #expect(button.eventActions.first?.target == nil)
    #expect(button.eventActions.first?.hasTarget == false)
    #expect(button.actions(for: .touchUpInside) == ["chainAction:"])

    // view → view controller → window → application → app delegate.
    let expected: [AnyObject] = [button, container, root, controller, window, application, applicationDelegate]
    let chain = button.responderChain
    #expect(chain.count == expected.count, "\(chain.map { type(of: $0) })")
    #expect(zip(chain, expected).allSatisfy { $0 === $1 }, "\(chain.map { type(of: $0) })")

    func hits() -> [Int] { [container.hits, controller.hits, window.hits, application.hits, applicationDelegate.hits] }
    // The nearest handler first: the button's superview …
    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(hits() == [1, 0, 0, 0, 0])
    #expect(container.lastSender === button)
    // … without it (the button moved to the controller's plain root view), the view controller …
    root.addSubview(button)
    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(hits() == [1, 1, 0, 0, 0])
    // … without that (the controller gives up its view), the window …
    controller.view = nil
    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(hits() == [1, 1, 1, 0, 0])
    // … in a window that lacks the action, the application …
    let plainWindow = Window()
    plainWindow.application = application
    plainWindow.contentView = root
    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(hits() == [1, 1, 1, 1, 0])
    // … with an application that lacks it, the application's delegate …
    let plainApplication = Application()
    plainApplication.delegate = applicationDelegate
    plainWindow.application = plainApplication
    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(hits() == [1, 1, 1, 1, 1])
    // … and with none left, nobody.
    plainApplication.delegate = nil
    #expect(try button.sendActions(for: .touchUpInside) == 0)
    #expect(hits() == [1, 1, 1, 1, 1])
  }

  // MARK: - 4. Runtime attributes

  @Test func runtimeAttributesOfEveryTypeAreSetBeforeTheOutlets() throws {
    let folder = try ScratchFolder("uikit-runtime-attributes")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        """
        <view contentMode="scaleToFill" id="attr" customClass="UIKAttributeView">
            <rect key="frame" x="0.0" y="0.0" width="100" height="100"/>
            <subviews>
                \(Self.uikitLabel(id: "lbl", text: "Partner"))
            </subviews>
            <userDefinedRuntimeAttributes>
                <userDefinedRuntimeAttribute type="string" keyPath="marker" value="first"/>
                <userDefinedRuntimeAttribute type="string" keyPath="name" value="Inventory"/>
                <userDefinedRuntimeAttribute type="number" keyPath="count">
                    <integer key="value" value="42"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="number" keyPath="ratio">
                    <real key="value" value="2.5"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="boolean" keyPath="flag" value="YES"/>
                <userDefinedRuntimeAttribute type="boolean" keyPath="onByDefault" value="NO"/>
                <userDefinedRuntimeAttribute type="color" keyPath="tint">
                    <color key="value" red="1" green="0.5" blue="0.0" alpha="1" colorSpace="custom" customColorSpace="sRGB"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="image" keyPath="icon" value="star.fill"/>
                <userDefinedRuntimeAttribute type="nil" keyPath="note"/>
                <userDefinedRuntimeAttribute type="point" keyPath="origin">
                    <point key="value" x="1" y="2"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="size" keyPath="extent">
                    <size key="value" width="3" height="4"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="rect" keyPath="area">
                    <rect key="value" x="5" y="6" width="7" height="8"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="localizedString" keyPath="greeting" value="Hello"/>
                <userDefinedRuntimeAttribute type="number" keyPath="settings.level">
                    <integer key="value" value="3"/>
                </userDefinedRuntimeAttribute>
                <userDefinedRuntimeAttribute type="number" keyPath="tag">
                    <integer key="value" value="9"/>
                </userDefinedRuntimeAttribute>
            </userDefinedRuntimeAttributes>
            <connections>
                <outlet property="partner" destination="lbl" id="o1"/>
            </connections>
        </view>
        """),
      to: "RuntimeAttributes.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    // The warning policy lets each attribute be checked on its own; the strict load below must
    // not need it.
    let loaded = try nib.load(owner: nil, options: Nib.Options(classes: Self.uikitClasses(), missingConnections: .warning))
    let view = try #require(loaded.topLevelObjects.first as? UIKAttributeView)
    #expect(view.name == "Inventory", "string")
    #expect(view.count == 42, "number <integer>")
    #expect(view.ratio == 2.5, "number <real>")
    #expect(view.flag == true, "boolean YES")
    #expect(view.onByDefault == false, "boolean NO")
    #expect(view.tint == Color(colorSpaceCode: 2, components: [1, 0.5, 0, 1]), "color: \(String(describing: view.tint))")
    #expect(view.icon == Image(name: "star.fill"), "image: \(String(describing: view.icon))")
    #expect(view.note == nil, "nil")
    #expect(view.origin == CGPoint(x: 1, y: 2), "point")
    #expect(view.extent == CGSize(width: 3, height: 4), "size")
    #expect(view.area == CGRect(x: 5, y: 6, width: 7, height: 8), "rect")
    #expect(view.greeting == "Hello", "localizedString")
    #expect(view.settings.level == 3, "a key path through a property object")
    #expect(view.tag == 9, "an inherited View key")
    #expect(loaded.warnings.isEmpty, "every attribute is set: \(loaded.warnings)")

    // Runtime attributes come before the connections (UIKit's order).
    #expect(view.marker == "first")
    #expect(view.partnerWasSetAtMarker == false, "the outlet partner was already connected when the attribute was applied")
    #expect(view.partner === view.subviews.first)

    let strict = LoaderStepTests.result { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: Self.uikitClasses(), isStrict: true))
    }
    if case .failure(let error) = strict { Issue.record("a strict load of every compiled attribute type failed: \(error)") }
  }

  @Test func runtimeAttributeOfAnUnsupportedTypeIsRefusedWithItsLine() throws {
    let folder = try ScratchFolder("uikit-runtime-attribute-range")
    let text = Self.uikitXib(
      """
      <view contentMode="scaleToFill" id="attr" customClass="UIKAttributeView">
          <rect key="frame" x="0.0" y="0.0" width="100" height="100"/>
          <userDefinedRuntimeAttributes>
              <userDefinedRuntimeAttribute type="range" keyPath="selection">
                  <range key="value" location="1" length="2"/>
              </userDefinedRuntimeAttribute>
          </userDefinedRuntimeAttributes>
      </view>
      """)
    let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(#"type="range""#) }) + 1
    let path = try LoaderStepTests.write(text, to: "Range.xib", in: folder)
    let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: path) }
    #expect(error?.nib == path)
    let compilerError = try #require(error?.underlying as? InterfaceBuilderError, "\(String(describing: error))")
    #expect(compilerError.code == .unsupported)
    #expect(compilerError.line == line)
    #expect(compilerError.path == path)
    #expect(error?.description.contains("\(path):\(line)") == true, "\(String(describing: error))")
    #expect(error?.description.contains(#""range""#) == true, "the message names the type: \(String(describing: error))")

    // A runtime attribute whose key the object lacks: UIKit raises, lenient mode or not.
    let unknownKey = try LoaderStepTests.write(
      Self.uikitXib(
        """
        <view contentMode="scaleToFill" id="attr" customClass="UIKAttributeView">
            <rect key="frame" x="0.0" y="0.0" width="100" height="100"/>
            <userDefinedRuntimeAttributes>
                <userDefinedRuntimeAttribute type="string" keyPath="colour" value="red"/>
            </userDefinedRuntimeAttributes>
        </view>
        """),
      to: "UnknownAttribute.xib", in: folder)
    let keyError = expectError(NibLoadingError.self, .undefinedKey) { () throws(NibLoadingError) in
      try Nib(contentsOf: unknownKey).load(owner: nil, options: Nib.Options(classes: Self.uikitClasses()))
    }
    #expect(keyError?.key == "colour")
  }

  // MARK: - 5. awakeFromNib

  @Test func awakeFromNibReachesTheNibsObjectsOnceAfterEveryConnection() throws {
    let folder = try ScratchFolder("uikit-awake")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKAwakeOwner",
        owner: """
          <outlet property="rootView" destination="root" id="o1"/>
          <outlet property="helper" destination="obj" id="o2"/>
          """,
        """
        <placeholder placeholderIdentifier="AwakeExternal" id="ext">
            <connections>
                <outlet property="partner" destination="lbl" id="o3"/>
            </connections>
        </placeholder>
        <customObject id="obj" customClass="UIKAwakeObject">
            <connections>
                <outlet property="partner" destination="lbl" id="o4"/>
            </connections>
        </customObject>
        <view contentMode="scaleToFill" id="root" customClass="UIKAwakeView">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Nested" id="lbl" customClass="UIKAwakeLabel">
                    <rect key="frame" x="20" y="20" width="100" height="21"/>
                </label>
                <button opaque="NO" contentMode="scaleToFill" id="btn" customClass="UIKAwakeButton">
                    <rect key="frame" x="20" y="60" width="100" height="30"/>
                    <connections>
                        <action selector="save:" destination="-1" eventType="touchUpInside" id="a1"/>
                    </connections>
                </button>
            </subviews>
            <connections>
                <outlet property="buddy" destination="btn" id="o5"/>
            </connections>
        </view>
        """),
      to: "Awake.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    let probe = UIKAwakeProbe()
    let owner = UIKAwakeOwner()
    let external = UIKAwakeObject()
    external.name = "external"
    external.probe = probe
    probe.isEverythingConnected = { [weak owner, weak external] in
      guard let owner, let external, let root = owner.rootView as? UIKAwakeView, let helper = owner.helper else { return false }
      return helper.partner != nil && external.partner != nil && root.buddy != nil
        && root.buddy?.actions(for: .touchUpInside) == ["save:"]
    }
    let options = Nib.Options(classes: Self.uikitClasses(probe: probe), externalObjects: ["AwakeExternal": external])
    let loaded = try nib.load(owner: owner, options: options)

    let records = probe.records
    #expect(records.map(\.name).sorted() == ["button", "label", "object", "view"], "each object the nib made, once: \(records)")
    #expect(records.allSatisfy { $0.connected }, "awakeFromNib came before every outlet and action was connected: \(records)")
    #expect(owner.awakenings == 0, "never the File's Owner on iOS (Apple's nib loading sequence)")
    #expect(external.awakenings == 0, "never an external object")
    let made = loaded.objects.compactMap { $0 as? UIKAwakeCounting }
    #expect(made.count == 4)
    #expect(made.allSatisfy { $0.awakenings == 1 })

    // A second load awakes its own objects only.
    let second = UIKAwakeOwner()
    probe.isEverythingConnected = { [weak second] in second?.rootView != nil && second?.helper?.partner != nil }
    let again = try nib.load(owner: second, options: options)
    #expect(probe.records.count == 8, "\(probe.records)")
    #expect(made.allSatisfy { $0.awakenings == 1 }, "the first load's objects are not awoken again")
    #expect(again.objects.compactMap { $0 as? UIKAwakeCounting }.allSatisfy { $0.awakenings == 1 })
    #expect(second.awakenings == 0)
    #expect(external.awakenings == 0)
  }

  // MARK: - 6. Custom classes

  fileprivate static func customClassesXib(in folder: ScratchFolder) throws -> String {
    try LoaderStepTests.write(
      uikitXib(
        """
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                <view contentMode="scaleToFill" tag="7" id="swapped" customClass="UIKSwappedView">
                    <rect key="frame" x="10" y="20" width="30" height="40"/>
                </view>
                <label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Fallback" id="missing" customClass="UIKMissingLabel">
                    <rect key="frame" x="20" y="60" width="100" height="21"/>
                </label>
                <view contentMode="scaleToFill" tag="9" id="module" customClass="UIKModuleView" customModule="ShopApp" customModuleProvider="target">
                    <rect key="frame" x="0.0" y="100" width="50" height="50"/>
                </view>
            </subviews>
        </view>
        """),
      to: "CustomClasses.xib", in: folder)
  }

  @Test func classSwappersMakeTheRegisteredClassOrFallBack() throws {
    let folder = try ScratchFolder("uikit-custom-classes")
    let nib = try Nib(contentsOf: try Self.customClassesXib(in: folder))
    var classes = Self.uikitClasses()
    classes.register(UIKModuleView.self, as: "ShopApp.UIKModuleView", makeInstanceOnMainActor: { UIKModuleView() })

    // Lenient: the registered class with the archived state; the unregistered one as its
    // original UIKit class, with a warning.
    let loaded = try nib.load(owner: nil, options: Nib.Options(classes: classes))
    let root = try #require(loaded.topLevelObjects.first as? View)
    try #require(root.subviews.count == 3)
    let swapped = try #require(root.subviews[0] as? UIKSwappedView, "\(type(of: root.subviews[0]))")
    #expect(swapped.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    #expect(swapped.tag == 7)
    #expect(type(of: root.subviews[1]) == Label.self, "falls back to UILabel's class: \(type(of: root.subviews[1]))")
    #expect((root.subviews[1] as? Label)?.text == "Fallback", "the original class keeps the archived state")
    #expect(root.subviews[2] is UIKModuleView, "customModule: registered as Module.Name: \(type(of: root.subviews[2]))")
    #expect(root.subviews[2].tag == 9)
    #expect(loaded.unknownClassNames == ["UIKMissingLabel"], "\(loaded.unknownClassNames)")
    #expect(loaded.warnings.contains { $0.contains("UIKMissingLabel") }, "\(loaded.warnings)")
    #expect(!loaded.warnings.contains { $0.contains("UIKSwappedView") || $0.contains("UIKModuleView") }, "\(loaded.warnings)")
    let missingID = try #require(loaded.objectsByID.first { $0.value === root.subviews[1] }?.key)

    // Strict: the unregistered class is an error naming it.
    let error = expectError(NibLoadingError.self, .unknownClass) { () throws(NibLoadingError) in
      try nib.load(owner: nil, options: Nib.Options(classes: classes, isStrict: true))
    }
    #expect(error?.key == "UIKMissingLabel")
    #expect(error?.objectID == missingID)
    #expect(error?.nib == nib.name)

    // A class of the same name in another module is not the module's class.
    var otherModule = Self.uikitClasses()
    otherModule.register(UIKModuleView.self, as: "OtherApp.UIKModuleView", makeInstanceOnMainActor: { UIKModuleView() })
    otherModule.register(UIKSwappedView.self, as: "UIKMissingLabel", makeInstanceOnMainActor: { UIKSwappedView() })
    let other = try nib.load(owner: nil, options: Nib.Options(classes: otherModule))
    let otherRoot = try #require(other.topLevelObjects.first as? View)
    #expect(type(of: otherRoot.subviews[2]) == View.self, "\(type(of: otherRoot.subviews[2]))")
    let mangled = "_TtC\("ShopApp".utf8.count)ShopApp\("UIKModuleView".utf8.count)UIKModuleView"
    #expect(other.unknownClassNames == [mangled], "\(other.unknownClassNames)")
  }

  // MARK: - 7. Ownership

  @Test func topLevelObjectsAreReleasedWhenTheCallerDropsThem() throws {
    let folder = try ScratchFolder("uikit-ownership")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        """
        <viewController id="vc" customClass="UIKChainController">
            <view key="view" contentMode="scaleToFill" id="root">
                <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                <subviews>
                    \(Self.uikitLabel(id: "lbl", text: "Name"))
                    \(Self.uikitButton(id: "btn", tag: 1, connections: #"<action selector="chainAction:" destination="vc" eventType="touchUpInside" id="a1"/>"#))
                </subviews>
            </view>
            <navigationItem key="navigationItem" title="Items" id="item">
                <barButtonItem key="rightBarButtonItem" title="Go" id="go">
                    <connections>
                        <action selector="chainAction:" destination="vc" id="a2"/>
                    </connections>
                </barButtonItem>
            </navigationItem>
        </viewController>
        <view contentMode="scaleToFill" id="spare" customClass="UIKAttributeView">
            <rect key="frame" x="0.0" y="0.0" width="10" height="10"/>
            <connections>
                <outlet property="partner" destination="vc" id="o1"/>
            </connections>
        </view>
        """),
      to: "Ownership.xib", in: folder)
    let nib = try Nib(contentsOf: path)
    weak var controller: UIKChainController?
    weak var root: View?
    weak var label: View?
    weak var button: View?
    weak var item: BarButtonItem?
    weak var spare: View?
    do {
      let objects = try nib.instantiate(withOwner: nil, options: Nib.Options(classes: Self.uikitClasses()))
      #expect(objects.count == 2)
      controller = objects.compactMap { $0 as? UIKChainController }.first
      spare = objects.compactMap { $0 as? UIKAttributeView }.first
      root = controller?.viewIfLoaded
      label = root?.subviews.first
      button = root?.subviews.last
      item = controller?.navigationItem.rightBarButtonItems.first
      #expect(controller != nil && root != nil && label != nil && button != nil && item != nil && spare != nil)
      #expect(item?.target === controller)
    }
    #expect(controller == nil, "the view controller outlived the caller's array")
    #expect(root == nil)
    #expect(label == nil)
    #expect(button == nil)
    #expect(item == nil)
    #expect(spare == nil)
  }

  // MARK: - 8. Storyboards

  @Test func storyboardMakesTheInitialControllerAndFillsContainers() throws {
    let folder = try ScratchFolder("uikit-storyboard-containers")
    let storyboard = try Storyboard(contentsOf: try Self.shopStoryboard(in: folder), options: Nib.Options(classes: Self.uikitClasses()))
    let tabs = try #require(try storyboard.instantiateInitialViewController() as? TabBarController)
    #expect(tabs.storyboardIdentifier == "Tabs")
    // The tab bar controller's relationship segues, in document order.
    try #require(tabs.viewControllers.count == 2, "\(tabs.viewControllers.map { type(of: $0) })")
    let navigation = try #require(tabs.viewControllers[0] as? NavigationController)
    #expect(tabs.viewControllers[1] is UIKSettingsController)
    #expect(tabs.selectedViewController === navigation)
    // The navigation controller's root.
    try #require(navigation.viewControllers.count == 1)
    let list = try #require(navigation.topViewController as? UIKListController)
    #expect(list.navigationController === navigation)
    #expect(list.tabBarController === tabs)
    #expect(list.storyboard === storyboard)
    #expect(list.title == "Items")
    // Apple's encoding: a controller's view is a nib of its own, loaded on first use, as in UIKit.
    #expect(list.viewIfLoaded == nil)
    try list.loadViewIfNeeded()
    #expect(list.viewIfLoaded != nil)

    // instantiateViewController(withIdentifier:): a new instance each time.
    let detail = try storyboard.instantiateViewController(withIdentifier: "Detail")
    #expect(detail is UIKDetailController)
    #expect(detail.storyboardIdentifier == "Detail")
    #expect(detail.storyboard === storyboard)
    #expect(try storyboard.instantiateViewController(withIdentifier: "Detail") !== detail)
    #expect(Set(storyboard.identifiers).isSuperset(of: ["Tabs", "List", "Detail", "About", "Settings"]), "\(storyboard.identifiers)")

    do {
      _ = try storyboard.instantiateViewController(withIdentifier: "NoSuchScene")
      Issue.record("an unknown identifier made a controller")
    } catch let error as NibLoadingError {
      #expect(error.code == .unknownIdentifier)
      #expect(error.key == "NoSuchScene")
    }
  }

  @Test func performSegueAsksPreparesAndShows() throws {
    let folder = try ScratchFolder("uikit-storyboard-segues")
    let storyboard = try Storyboard(contentsOf: try Self.shopStoryboard(in: folder), options: Nib.Options(classes: Self.uikitClasses()))
    let (tabs, list) = try Self.listController(in: storyboard)
    defer { withExtendedLifetime(tabs) {} }
    let navigation = try #require(list.navigationController)

    // show: shouldPerformSegue, then prepare(for:) with the destination, then a push.
    let segue = try #require(try list.performSegue(withIdentifier: "ShowDetail", sender: "sender"))
    #expect(segue.identifier == "ShowDetail")
    #expect(segue.kind == "show")
    #expect(segue.source === list)
    #expect(segue.destination is UIKDetailController)
    #expect(list.log == ["should ShowDetail", "prepare ShowDetail UIKDetailController"], "\(list.log)")
    #expect(list.preparedDestination === segue.destination)
    #expect(list.lastSender as? String == "sender")
    #expect(navigation.viewControllers.count == 2)
    #expect(navigation.topViewController === segue.destination)
    #expect(list.presentedViewController == nil)

    // presentation: presented, not pushed.
    let presentation = try #require(try list.performSegue(withIdentifier: "ShowAbout", sender: nil))
    #expect(presentation.destination is UIKAboutController)
    #expect(list.presentedViewController === presentation.destination)
    #expect(presentation.destination.presentingViewController === list)
    #expect(navigation.viewControllers.count == 2)
    #expect(list.log.suffix(2) == ["should ShowAbout", "prepare ShowAbout UIKAboutController"], "\(list.log)")

    // shouldPerformSegue saying no stops the segue before prepare.
    list.allowsSegues = false
    list.log = []
    #expect(try list.performSegue(withIdentifier: "ShowDetail", sender: nil) == nil)
    #expect(list.log == ["should ShowDetail"], "\(list.log)")
    #expect(navigation.viewControllers.count == 2)

    // An identifier the controller has no segue for.
    list.allowsSegues = true
    #expect(throws: InterfaceObjectsError.self) { try list.performSegue(withIdentifier: "NoSuchSegue", sender: nil) }
    do {
      _ = try list.performSegue(withIdentifier: "NoSuchSegue", sender: nil)
    } catch let error as InterfaceObjectsError {
      #expect(error.code == .invalidValue)
      #expect(error.key == "NoSuchSegue")
    }
  }

  @Test func buttonSegueFiresOnTouchUpInside() throws {
    let folder = try ScratchFolder("uikit-storyboard-button-segue")
    let storyboard = try Storyboard(contentsOf: try Self.shopStoryboard(in: folder), options: Nib.Options(classes: Self.uikitClasses()))
    let (tabs, list) = try Self.listController(in: storyboard)
    defer { withExtendedLifetime(tabs) {} }
    let navigation = try #require(list.navigationController)
    try list.loadViewIfNeeded()
    let button = try #require(list.viewIfLoaded?.subviews.compactMap { $0 as? Button }.first { $0.tag == 1 })
    #expect(button.actions(for: .touchUpInside) == ["perform:"], "the segue's action")

    #expect(try button.sendActions(for: .touchUpInside) == 1)
    #expect(navigation.viewControllers.count == 2, "the show segue pushed its destination")
    #expect(navigation.topViewController is UIKDetailController)
    #expect(list.lastSender as AnyObject? === button, "prepare(for:sender:) gets the button")
    // Apple's encoding names a template by its identifier alone: one without has none (UIKit's
    // `segue.identifier` is nil), and the button still performs it through its template.
    #expect(list.log.first == "should ", "a segue without identifier: \(list.log)")

    // performClick is the same touch.
    navigation.popViewController()
    #expect(try button.performClick())
    #expect(navigation.viewControllers.count == 2)
  }

  @Test func unwindSegueReachesTheControllerWithTheUnwindAction() throws {
    let folder = try ScratchFolder("uikit-storyboard-unwind")
    let storyboard = try Storyboard(contentsOf: try Self.shopStoryboard(in: folder), options: Nib.Options(classes: Self.uikitClasses()))
    let (tabs, list) = try Self.listController(in: storyboard)
    defer { withExtendedLifetime(tabs) {} }

    // From a presented controller: up the presenting chain.
    let presented = try #require(try list.performSegue(withIdentifier: "ShowAbout", sender: nil))
    let about = try #require(presented.destination as? UIKAboutController)
    let unwind = try #require(try about.performSegue(withIdentifier: "CloseAbout", sender: nil))
    #expect(unwind.kind == "unwind")
    #expect(unwind.destination === list)
    #expect(list.unwinds.count == 1)
    #expect(list.unwinds.first?.source === about)
    #expect(list.presentedViewController == nil, "the unwind dismisses what was presented")
  }

  @Test func unwindSegueFromAPushedControllerReachesTheControllerBelowIt() throws {
    let folder = try ScratchFolder("uikit-storyboard-unwind-push")
    let storyboard = try Storyboard(contentsOf: try Self.shopStoryboard(in: folder), options: Nib.Options(classes: Self.uikitClasses()))
    let (tabs, list) = try Self.listController(in: storyboard)
    defer { withExtendedLifetime(tabs) {} }
    let navigation = try #require(list.navigationController)
    let pushed = try #require(try list.performSegue(withIdentifier: "ShowDetail", sender: nil))
    let detail = try #require(pushed.destination as? UIKDetailController)
    #expect(navigation.viewControllers.count == 2)

    // UIKit looks for the unwind action in the navigation stack below the source (the
    // controllers that showed it), then pops back to the one that has it.
    let result = Result { try detail.performSegue(withIdentifier: "BackToList", sender: nil) }
    if case .failure(let error) = result { Issue.record("the unwind from a pushed controller failed: \(error)") }
    #expect(list.unwinds.count == 1)
    #expect(navigation.viewControllers.count == 1, "popped back to the list")
    #expect(navigation.topViewController === list)

    // The unwind segue started by a button (no identifier) goes the same way.
    let again = try #require(try list.performSegue(withIdentifier: "ShowDetail", sender: nil))
    try again.destination.loadViewIfNeeded()
    let done = try #require(again.destination.viewIfLoaded?.subviews.compactMap { $0 as? Button }.first)
    _ = try? done.sendActions(for: .touchUpInside)
    #expect(list.unwinds.count == 2)
    #expect(navigation.viewControllers.count == 1)
  }

  // MARK: - 9. Localization

  @Test func localizableStringsAreTranslatedByTheirStringsFileKey() throws {
    let folder = try ScratchFolder("uikit-localization")
    let translations = [
      "vc-loc.title": "Articles",
      "lbl-loc.text": "Bonjour",
      "btn-loc.normalTitle": "Aller",
      "bbi-loc.title": "Ajouter",
    ]
    let asked = UIKKeyLog()
    let localize: @Sendable (String) -> String? = { key in
      asked.append(key)
      return translations[key]
    }
    let path = try LoaderStepTests.write(
      Self.uikitStoryboard(
        initial: "vc-loc",
        """
        <scene sceneID="scene-loc">
            <objects>
                <viewController storyboardIdentifier="Localized" title="Items" id="vc-loc" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="view-loc">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
                        <subviews>
                            \(Self.uikitLabel(id: "lbl-loc", text: "Hello"))
                            <button opaque="NO" contentMode="scaleToFill" buttonType="system" id="btn-loc">
                                <rect key="frame" x="20" y="60" width="100" height="30"/>
                                <state key="normal" title="Go"/>
                            </button>
                        </subviews>
                    </view>
                    <navigationItem key="navigationItem" title="List" id="ni-loc">
                        <barButtonItem key="rightBarButtonItem" title="Add" id="bbi-loc"/>
                    </navigationItem>
                </viewController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-loc" sceneMemberID="firstResponder"/>
            </objects>
        </scene>
        """),
      to: "Localized.storyboard", in: folder)
    let export = StringsExport(try InterfaceDocument(contentsOfFile: path))
    #expect(Set(export.entries.map(\.key)) == ["vc-loc.title", "lbl-loc.text", "btn-loc.normalTitle", "ni-loc.title", "bbi-loc.title"])

    let storyboard = try Storyboard(contentsOf: path, options: Nib.Options(classes: Self.uikitClasses(), localize: localize))
    let controller = try storyboard.instantiateViewController(withIdentifier: "Localized")
    #expect(controller.title == "Articles", "view controller title")
    try controller.loadViewIfNeeded()
    let view = try #require(controller.viewIfLoaded)
    #expect((view.subviews.first as? Label)?.text == "Bonjour", "label text")
    let button = try #require(view.subviews.compactMap { $0 as? Button }.first)
    #expect(button.title(for: 0) == "Aller", "button normalTitle: \(button.titlesByState)")
    #expect(controller.navigationItem.rightBarButtonItems.first?.title == "Ajouter", "bar button item title")
    #expect(controller.navigationItem.title == "List", "a key the table lacks keeps the development string")
    #expect(Set(asked.keys).isSuperset(of: export.entries.map(\.key)), "every exported key is looked up: \(asked.keys)")

    // Without a localizer: the development strings.
    let plain = try Storyboard(contentsOf: path, options: Nib.Options(classes: Self.uikitClasses()))
      .instantiateViewController(withIdentifier: "Localized")
    #expect(plain.title == "Items")
    try plain.loadViewIfNeeded()
    #expect((plain.viewIfLoaded?.subviews.first as? Label)?.text == "Hello")
    #expect((plain.viewIfLoaded?.subviews.compactMap { $0 as? Button }.first)?.title(for: 0) == "Go")

    // The same through a xib.
    let xib = try LoaderStepTests.write(
      Self.uikitXib(
        """
        <view contentMode="scaleToFill" id="root-loc">
            <rect key="frame" x="0.0" y="0.0" width="320" height="200"/>
            <subviews>
                \(Self.uikitLabel(id: "lbl-loc", text: "Hello"))
            </subviews>
        </view>
        """),
      to: "Localized.xib", in: folder)
    let loaded = try Nib(contentsOf: xib).load(owner: nil, options: Nib.Options(classes: Self.uikitClasses(), localize: localize))
    #expect(((loaded.topLevelObjects.first as? View)?.subviews.first as? Label)?.text == "Bonjour")
  }

  // MARK: - 10. Date pickers

  @Test func datePickerKeepsItsModeDateAndRangeAndItsDateThroughRestoration() throws {
    let folder = try ScratchFolder("uikit-date-picker")
    let path = try LoaderStepTests.write(
      Self.uikitXib(
        ownerClass: "UIKActionOwner",
        """
        <view contentMode="scaleToFill" id="root">
            <rect key="frame" x="0.0" y="0.0" width="320" height="480"/>
            <subviews>
                <datePicker restorationIdentifier="Picker" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" datePickerMode="date" style="wheels" minuteInterval="1" id="picker">
                    <rect key="frame" x="0.0" y="20" width="320" height="216"/>
                    <date key="date" timeIntervalSinceReferenceDate="788918400">
                        <!--2026-01-01 00:00:00 +0000-->
                    </date>
                    <date key="minimumDate" timeIntervalSinceReferenceDate="-978307200">
                        <!--1970-01-01 00:00:00 +0000-->
                    </date>
                    <date key="maximumDate" timeIntervalSinceReferenceDate="1167523200">
                        <!--2037-12-31 00:00:00 +0000-->
                    </date>
                    <connections>
                        <action selector="sliderMoved:" destination="-1" eventType="valueChanged" id="a1"/>
                    </connections>
                </datePicker>
                <datePicker contentMode="scaleToFill" datePickerMode="time" id="now">
                    <rect key="frame" x="0.0" y="240" width="320" height="216"/>
                </datePicker>
                <datePicker contentMode="scaleToFill" id="both">
                    <rect key="frame" x="0.0" y="460" width="320" height="216"/>
                    <date key="date" timeIntervalSinceReferenceDate="0.5"/>
                </datePicker>
            </subviews>
        </view>
        """),
      to: "DatePicker.xib", in: folder)
    let owner = UIKActionOwner()
    let before = Date()
    let loaded = try Nib(contentsOf: path).load(owner: owner, options: Nib.Options(classes: Self.uikitClasses(), isStrict: true))
    let root = try #require(loaded.topLevelObjects.first as? View)
    let pickers = root.subviews.compactMap { $0 as? DatePicker }
    try #require(pickers.count == 3)
    let picker = pickers[0]
    #expect(picker.datePickerMode == .date)
    #expect(picker.date == Date(timeIntervalSinceReferenceDate: 788_918_400))
    #expect(picker.minimumDate == Date(timeIntervalSinceReferenceDate: -978_307_200))
    #expect(picker.maximumDate == Date(timeIntervalSinceReferenceDate: 1_167_523_200))
    #expect(picker.restorationIdentifier == "Picker")
    #expect(try picker.sendActions(for: .valueChanged) == 1)
    #expect(owner.calls.map(\.selector) == ["sliderMoved:"] && owner.calls.last?.sender === picker)
    // Interface Builder's "Current" (no date): the date at loading; no range; the default mode.
    #expect(pickers[1].datePickerMode == .time)
    #expect(pickers[1].date >= before && pickers[1].date <= Date())
    #expect(pickers[1].minimumDate == nil && pickers[1].maximumDate == nil)
    #expect(pickers[2].datePickerMode == .dateAndTime)
    #expect(pickers[2].date == Date(timeIntervalSinceReferenceDate: 0.5))

    // The range holds the date: set outside it, or moved out of it, it goes to the nearest end.
    picker.date = Date(timeIntervalSinceReferenceDate: -2e9)
    #expect(picker.date == picker.minimumDate)
    try picker.setValue(Date(timeIntervalSinceReferenceDate: 2e9), forKey: "date")
    #expect(try picker.value(forKey: "date") as? Date == picker.maximumDate)
    picker.maximumDate = Date(timeIntervalSinceReferenceDate: 0)
    #expect(picker.date == Date(timeIntervalSinceReferenceDate: 0))
    picker.minimumDate = Date(timeIntervalSinceReferenceDate: 10)
    picker.date = Date(timeIntervalSinceReferenceDate: 2e9)
    #expect(picker.date == Date(timeIntervalSinceReferenceDate: 2e9), "a minimum later than the maximum limits nothing")

    // Restoration keeps the date being chosen.
    let state = UIKRestorableState()
    pickers[2].encodeRestorableState(with: state)
    let restored = DatePicker()
    restored.decodeRestorableState(with: state)
    #expect(restored.date == Date(timeIntervalSinceReferenceDate: 0.5))
    #expect(state.values.keys.sorted() == [RestorableStateKey.date])
  }

  @Test func datePickerDatesAndModesNotKnownAreRefusedWithTheirLine() throws {
    let folder = try ScratchFolder("uikit-date-picker-refused")
    let cases: [(element: String, marker: String, detail: String)] = [
      (
        #"<datePicker contentMode="scaleToFill" id="p"><date key="countDownDate" timeIntervalSinceReferenceDate="0"/></datePicker>"#,
        "countDownDate", "countDownDate"
      ),
      (#"<datePicker contentMode="scaleToFill" datePickerMode="weekday" id="p"/>"#, "weekday", "weekday"),
      (#"<datePicker contentMode="scaleToFill" id="p"><date key="date"/></datePicker>"#, #"<date key="date"/>"#, "timeIntervalSinceReferenceDate"),
      (#"<view contentMode="scaleToFill" id="p"><date key="date" timeIntervalSinceReferenceDate="0"/></view>"#, "<date", "<date> inside <view>"),
    ]
    for (number, refused) in cases.enumerated() {
      let text = Self.uikitXib(refused.element.replacingOccurrences(of: "><", with: ">\n<"))
      let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(refused.marker) }) + 1
      let path = try LoaderStepTests.write(text, to: "Refused\(number).xib", in: folder)
      let error = expectError(NibLoadingError.self, .unreadable) { () throws(NibLoadingError) in try Nib(contentsOf: path) }
      let compilerError = try #require(error?.underlying as? InterfaceBuilderError, "\(String(describing: error))")
      #expect(compilerError.line == line, "\(refused.element)")
      #expect(compilerError.description.contains(refused.detail), "\(compilerError)")
    }
  }
}

// MARK: - The app's classes

/// A File's Owner with outlets to a view, and to an object (the external one); an external
/// object of the same class has an outlet to a label.
@MainActor private final class UIKPlaceholderOwner: NibObject {
  var rootView: View?
  var shared: AnyObject?
  weak var label: Label?
  required init() { super.init() }
  static let keys = KeyTable(for: UIKPlaceholderOwner.self) {
    $0.key("rootView", \.rootView)
    $0.key("shared", \.shared)
    $0.key("label", \.label)
  }
  override class var keyTable: KeyTable { keys }
}

/// A view controller File's Owner with an outlet and an outlet collection of its own.
@MainActor private final class UIKOutletOwner: ViewController {
  weak var titleLabel: Label?
  var buttons: [Button] = []
  required init() { super.init() }
  static let keys = KeyTable(for: UIKOutletOwner.self, inheriting: ViewController.viewControllerKeys) {
    $0.key("titleLabel", \.titleLabel)
    $0.key("buttons", \.buttons)
  }
  override class var keyTable: KeyTable { keys }
}

/// A File's Owner that records the actions it receives.
@MainActor private final class UIKActionOwner: NibObject {
  var calls: [(selector: String, sender: AnyObject?)] = []
  required init() { super.init() }
  static let actions = ActionTable(for: UIKActionOwner.self) {
    for selector in ["save:", "toggled:", "sliderMoved:", "sliderReleased:", "done:"] {
      $0.action(selector) { owner, sender in owner.calls.append((selector, sender as AnyObject?)) }
    }
  }
  override class var actionTable: ActionTable { actions }
}

/// The responder-chain handlers of `chainAction:`.
@MainActor private final class UIKChainView: View {
  var hits = 0
  weak var lastSender: AnyObject?
  required init() { super.init() }
  static let actions = ActionTable(for: UIKChainView.self) {
    $0.action("chainAction:") { view, sender in
      view.hits += 1
      view.lastSender = sender as AnyObject?
    }
  }
  override class var actionTable: ActionTable { actions }
}

@MainActor private final class UIKChainController: ViewController {
  var hits = 0
  required init() { super.init() }
  static let actions = ActionTable(for: UIKChainController.self) { $0.action("chainAction:") { controller, _ in controller.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

@MainActor private final class UIKChainWindow: Window {
  var hits = 0
  required init() { super.init() }
  static let actions = ActionTable(for: UIKChainWindow.self) { $0.action("chainAction:") { window, _ in window.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

@MainActor private final class UIKChainApplication: Application {
  var hits = 0
  required init() { super.init() }
  static let actions = ActionTable(for: UIKChainApplication.self) { $0.action("chainAction:") { application, _ in application.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

@MainActor private final class UIKChainDelegate: NibObject {
  var hits = 0
  required init() { super.init() }
  static let actions = ActionTable(for: UIKChainDelegate.self) { $0.action("chainAction:") { delegate, _ in delegate.hits += 1 } }
  override class var actionTable: ActionTable { actions }
}

/// An object a runtime attribute sets through a key path.
@MainActor private final class UIKSettings: NibObject {
  var level = 0
  required init() { super.init() }
  static let keys = KeyTable(for: UIKSettings.self) { $0.key("level", \.level) }
  override class var keyTable: KeyTable { keys }
}

/// A view with a key for every runtime attribute type, an outlet, and a key whose setter
/// records whether the outlet was already connected.
@MainActor private final class UIKAttributeView: View {
  var name = ""
  var count = 0
  var ratio = 0.0
  var flag = false
  var onByDefault = true
  var tint: Color?
  var icon: Image?
  var note: String? = "preset"
  var origin = CGPoint.zero
  var extent = CGSize.zero
  var area = CGRect.zero
  var greeting = ""
  let settings = UIKSettings()
  weak var partner: AnyObject?
  var marker = ""
  var partnerWasSetAtMarker: Bool?

  required init() { super.init() }

  static let keys = KeyTable(for: UIKAttributeView.self, inheriting: View.viewKeys) {
    $0.key("name", \.name)
    $0.key("count", \.count)
    $0.key("ratio", \.ratio)
    $0.key("flag", \.flag)
    $0.key("onByDefault", \.onByDefault)
    $0.key("tint", \.tint)
    $0.key("icon", \.icon)
    $0.key("note", \.note)
    $0.key("origin", \.origin)
    $0.key("extent", \.extent)
    $0.key("area", \.area)
    $0.key("greeting", \.greeting)
    $0.readOnlyKey("settings", \.settings)
    $0.key("partner", \.partner)
    $0.key(
      "marker", get: { $0.marker },
      set: { view, value in
        view.partnerWasSetAtMarker = view.partner != nil
        view.marker = value
      })
  }
  override class var keyTable: KeyTable { keys }
}

/// What the awakeFromNib test's objects report: who woke, and whether every connection of the
/// nib was made by then.
@MainActor private final class UIKAwakeProbe: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [(name: String, connected: Bool)] = []
  var isEverythingConnected: () -> Bool = { false }

  func record(_ name: String) {
    let connected = isEverythingConnected()
    lock.withLock { recorded.append((name, connected)) }
  }
  var records: [(name: String, connected: Bool)] { lock.withLock { recorded } }
}

@MainActor private protocol UIKAwakeCounting: AnyObject {
  var awakenings: Int { get }
}

@MainActor private final class UIKAwakeOwner: NibObject {
  var rootView: View?
  var helper: UIKAwakeObject?
  var awakenings = 0
  required init() { super.init() }
  static let keys = KeyTable(for: UIKAwakeOwner.self) {
    $0.key("rootView", \.rootView)
    $0.key("helper", \.helper)
  }
  override class var keyTable: KeyTable { keys }
  static let actions = ActionTable(for: UIKAwakeOwner.self) { $0.action("save:") { _, _ in } }
  override class var actionTable: ActionTable { actions }
  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
  }
}

@MainActor private final class UIKAwakeObject: NibObject, UIKAwakeCounting {
  var name = "object"
  weak var partner: AnyObject?
  var probe: UIKAwakeProbe?
  var awakenings = 0
  required init() { super.init() }
  static let keys = KeyTable(for: UIKAwakeObject.self) { $0.key("partner", \.partner) }
  override class var keyTable: KeyTable { keys }
  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    probe?.record(name)
  }
}

@MainActor private final class UIKAwakeView: View, UIKAwakeCounting {
  weak var buddy: Button?
  var probe: UIKAwakeProbe?
  var awakenings = 0
  required init() { super.init() }
  static let keys = KeyTable(for: UIKAwakeView.self, inheriting: View.viewKeys) { $0.key("buddy", \.buddy) }
  override class var keyTable: KeyTable { keys }
  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    probe?.record("view")
  }
}

@MainActor private final class UIKAwakeLabel: Label, UIKAwakeCounting {
  var probe: UIKAwakeProbe?
  var awakenings = 0
  required init() { super.init() }
  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    probe?.record("label")
  }
}

@MainActor private final class UIKAwakeButton: Button, UIKAwakeCounting {
  var probe: UIKAwakeProbe?
  var awakenings = 0
  required init() { super.init() }
  override func awakeFromNib() {
    super.awakeFromNib()
    awakenings += 1
    probe?.record("button")
  }
}

private final class UIKSwappedView: View {
  required init() { super.init() }
}

private final class UIKModuleView: View {
  required init() { super.init() }
}

/// The storyboard's list: records shouldPerformSegue, prepare(for:sender:) and its unwinds.
@MainActor private final class UIKListController: ViewController {
  var log: [String] = []
  var allowsSegues = true
  weak var preparedDestination: ViewController?
  var lastSender: Any?
  var unwinds: [StoryboardSegue] = []
  required init() { super.init() }

  override func shouldPerformSegue(withIdentifier identifier: String, sender: Any?) -> Bool {
    log.append("should \(identifier)")
    return allowsSegues
  }

  override func prepare(for segue: StoryboardSegue, sender: Any?) {
    super.prepare(for: segue, sender: sender)
    log.append("prepare \(segue.identifier) \(type(of: segue.destination))")
    preparedDestination = segue.destination
    lastSender = sender
  }

  static let actions = ActionTable(for: UIKListController.self) {
    $0.action("unwindToList:") { controller, segue in
      if let segue = segue as? StoryboardSegue { controller.unwinds.append(segue) }
    }
  }
  override class var actionTable: ActionTable { actions }
}

private final class UIKDetailController: ViewController {
  required init() { super.init() }
}

private final class UIKAboutController: ViewController {
  required init() { super.init() }
}

private final class UIKSettingsController: ViewController {
  required init() { super.init() }
}

/// Restorable state kept in a dictionary, as a view's node of a snapshot keeps it.
private final class UIKRestorableState: RestorableStateEncoder, RestorableStateDecoder {
  var values: [String: Any] = [:]
  let stateVersion = 0
  func encode(_ value: Any?, forKey key: String) { values[key] = value }
  func encodeRestorableObject(_ object: AnyObject?, forKey key: String) {}
  func encodeRestorableObjects(_ objects: [AnyObject], forKey key: String) {}
  func containsValue(forKey key: String) -> Bool { values[key] != nil }
  func decodeObject(forKey key: String) -> Any? { values[key] }
  func decodeRestorableObject(forKey key: String) -> AnyObject? { nil }
  func decodeRestorableObjects(forKey key: String) -> [AnyObject] { [] }
}

/// The keys a localizer was asked for, from any thread.
private final class UIKKeyLog: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [String] = []
  func append(_ key: String) { lock.withLock { recorded.append(key) } }
  var keys: [String] { lock.withLock { recorded } }
}

// MARK: - Helpers

extension UIKitLoaderStepTests {
  /// The interface classes with the test's own; objects that report their awakeFromNib report
  /// to `probe`.
  fileprivate static func uikitClasses(probe: UIKAwakeProbe? = nil) -> ClassRegistry {
    var registry = ClassRegistry.interfaceObjects
    registry.register(UIKPlaceholderOwner.self, as: "UIKPlaceholderOwner", makeInstanceOnMainActor: { UIKPlaceholderOwner() })
    registry.register(UIKOutletOwner.self, as: "UIKOutletOwner", makeInstanceOnMainActor: { UIKOutletOwner() })
    registry.register(UIKActionOwner.self, as: "UIKActionOwner", makeInstanceOnMainActor: { UIKActionOwner() })
    registry.register(UIKChainView.self, as: "UIKChainView", makeInstanceOnMainActor: { UIKChainView() })
    registry.register(UIKChainController.self, as: "UIKChainController", makeInstanceOnMainActor: { UIKChainController() })
    registry.register(UIKChainWindow.self, as: "UIKChainWindow", makeInstanceOnMainActor: { UIKChainWindow() })
    registry.register(UIKAttributeView.self, as: "UIKAttributeView", makeInstanceOnMainActor: { UIKAttributeView() })
    registry.register(UIKAwakeOwner.self, as: "UIKAwakeOwner", makeInstanceOnMainActor: { UIKAwakeOwner() })
    registry.register(
      UIKAwakeObject.self, as: "UIKAwakeObject",
      makeInstanceOnMainActor: {
        let object = UIKAwakeObject()
        object.probe = probe
        return object
      })
    registry.register(
      UIKAwakeView.self, as: "UIKAwakeView",
      makeInstanceOnMainActor: {
        let view = UIKAwakeView()
        view.probe = probe
        return view
      })
    registry.register(
      UIKAwakeLabel.self, as: "UIKAwakeLabel",
      makeInstanceOnMainActor: {
        let label = UIKAwakeLabel()
        label.probe = probe
        return label
      })
    registry.register(
      UIKAwakeButton.self, as: "UIKAwakeButton",
      makeInstanceOnMainActor: {
        let button = UIKAwakeButton()
        button.probe = probe
        return button
      })
    registry.register(UIKSwappedView.self, as: "UIKSwappedView", makeInstanceOnMainActor: { UIKSwappedView() })
    registry.register(UIKListController.self, as: "Shop.UIKListController", makeInstanceOnMainActor: { UIKListController() })
    registry.register(UIKDetailController.self, as: "Shop.UIKDetailController", makeInstanceOnMainActor: { UIKDetailController() })
    registry.register(UIKAboutController.self, as: "Shop.UIKAboutController", makeInstanceOnMainActor: { UIKAboutController() })
    registry.register(UIKSettingsController.self, as: "Shop.UIKSettingsController", makeInstanceOnMainActor: { UIKSettingsController() })
    return registry
  }

  /// An iOS xib: the File's Owner (of `ownerClass`, with `owner`'s connections), the First
  /// Responder, then `objects`.
  fileprivate static func uikitXib(ownerClass: String? = nil, owner: String = "", _ objects: String) -> String {
    let ownerAttribute = ownerClass.map { " customClass=\"\($0)\"" } ?? ""
    return """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES">
        <device id="retina6_12" orientation="portrait" appearance="light"/>
        <dependencies>
            <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="22504"/>
        </dependencies>
        <objects>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"\(ownerAttribute)>\(uikitConnections(owner))</placeholder>
            <placeholder placeholderIdentifier="IBFirstResponder" id="-2" customClass="UIResponder"/>
    \(objects)
        </objects>
    </document>

    """
  }

  /// An iOS storyboard of `scenes`, starting at the controller `initial`.
  fileprivate static func uikitStoryboard(initial: String, _ scenes: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES" initialViewController="\(initial)">
        <device id="retina6_12" orientation="portrait" appearance="light"/>
        <dependencies>
            <plugIn identifier="com.apple.InterfaceBuilder.IBCocoaTouchPlugin" version="22504"/>
        </dependencies>
        <scenes>
    \(scenes)
        </scenes>
    </document>

    """
  }

  fileprivate static func uikitConnections(_ body: String) -> String {
    body.isEmpty ? "" : "\n<connections>\n\(body)\n</connections>\n"
  }

  fileprivate static func uikitLabel(id: String, text: String) -> String {
    """
    <label opaque="NO" userInteractionEnabled="NO" contentMode="left" horizontalHuggingPriority="251" verticalHuggingPriority="251" text="\(text)" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontSizeToFit="NO" id="\(id)">
        <rect key="frame" x="20" y="20" width="200" height="21"/>
        <fontDescription key="fontDescription" type="system" pointSize="17"/>
        <nil key="textColor"/>
        <nil key="highlightedColor"/>
    </label>
    """
  }

  /// A button without state titles (so that no button content is archived), with `tag`.
  fileprivate static func uikitButton(id: String, tag: Int, connections body: String = "") -> String {
    """
    <button opaque="NO" tag="\(tag)" contentMode="scaleToFill" contentHorizontalAlignment="center" contentVerticalAlignment="center" buttonType="system" lineBreakMode="middleTruncation" id="\(id)">
        <rect key="frame" x="20" y="\(40 * tag)" width="100" height="30"/>\(uikitConnections(body))
    </button>
    """
  }

  /// The shop storyboard: a tab bar controller (initial) whose tabs are a navigation controller
  /// (root: the list) and the settings; the list shows the detail (segue `ShowDetail`, and from
  /// its button without identifier) and presents the about screen (`ShowAbout`); the detail and
  /// the about screen unwind to the list (`unwindToList:`).
  fileprivate static func shopStoryboard(in folder: ScratchFolder) throws -> String {
    try LoaderStepTests.write(
      uikitStoryboard(
        initial: "tab",
        """
        <scene sceneID="scene-tab">
            <objects>
                <tabBarController storyboardIdentifier="Tabs" id="tab" sceneMemberID="viewController">
                    <connections>
                        <segue destination="nav" kind="relationship" relationship="viewControllers" id="rel-nav"/>
                        <segue destination="settings" kind="relationship" relationship="viewControllers" id="rel-settings"/>
                    </connections>
                </tabBarController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-tab" sceneMemberID="firstResponder"/>
            </objects>
        </scene>
        <scene sceneID="scene-nav">
            <objects>
                <navigationController id="nav" sceneMemberID="viewController">
                    <connections>
                        <segue destination="list" kind="relationship" relationship="rootViewController" id="rel-root"/>
                    </connections>
                </navigationController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-nav" sceneMemberID="firstResponder"/>
            </objects>
        </scene>
        <scene sceneID="scene-list">
            <objects>
                <viewController storyboardIdentifier="List" title="Items" id="list" customClass="UIKListController" customModule="Shop" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="list-view">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                        <subviews>
                            \(uikitButton(id: "add", tag: 1, connections: #"<segue destination="detail" kind="show" id="btn-segue"/>"#))
                        </subviews>
                    </view>
                    <navigationItem key="navigationItem" title="Items" id="list-item"/>
                    <connections>
                        <segue destination="detail" kind="show" identifier="ShowDetail" id="seg-detail"/>
                        <segue destination="about" kind="presentation" identifier="ShowAbout" id="seg-about"/>
                    </connections>
                </viewController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-list" sceneMemberID="firstResponder"/>
            </objects>
        </scene>
        <scene sceneID="scene-detail">
            <objects>
                <viewController storyboardIdentifier="Detail" id="detail" customClass="UIKDetailController" customModule="Shop" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="detail-view">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                        <subviews>
                            \(uikitButton(id: "done", tag: 2, connections: #"<segue destination="exit-detail" kind="unwind" unwindAction="unwindToList:" id="btn-unwind"/>"#))
                        </subviews>
                    </view>
                    <connections>
                        <segue destination="exit-detail" kind="unwind" identifier="BackToList" unwindAction="unwindToList:" id="seg-back"/>
                    </connections>
                </viewController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-detail" sceneMemberID="firstResponder"/>
                <exit id="exit-detail" userLabel="Exit" sceneMemberID="exit"/>
            </objects>
        </scene>
        <scene sceneID="scene-about">
            <objects>
                <viewController storyboardIdentifier="About" id="about" customClass="UIKAboutController" customModule="Shop" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="about-view">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                    </view>
                    <connections>
                        <segue destination="exit-about" kind="unwind" identifier="CloseAbout" unwindAction="unwindToList:" id="seg-close"/>
                    </connections>
                </viewController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-about" sceneMemberID="firstResponder"/>
                <exit id="exit-about" userLabel="Exit" sceneMemberID="exit"/>
            </objects>
        </scene>
        <scene sceneID="scene-settings">
            <objects>
                <viewController storyboardIdentifier="Settings" id="settings" customClass="UIKSettingsController" customModule="Shop" customModuleProvider="target" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="settings-view">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="852"/>
                    </view>
                </viewController>
                <placeholder placeholderIdentifier="IBFirstResponder" id="fr-settings" sceneMemberID="firstResponder"/>
            </objects>
        </scene>
        """),
      to: "Shop.storyboard", in: folder)
  }

  /// The list controller, as the shop storyboard's initial controller holds it: inside the
  /// navigation controller of the first tab. The caller keeps the tab bar controller (a window's
  /// root would), since parents are weak.
  fileprivate static func listController(in storyboard: Storyboard) throws -> (tabs: TabBarController, list: UIKListController) {
    let tabs = try #require(try storyboard.instantiateInitialViewController() as? TabBarController)
    let navigation = try #require(tabs.viewControllers.first as? NavigationController)
    return (tabs, try #require(navigation.topViewController as? UIKListController))
  }
}
