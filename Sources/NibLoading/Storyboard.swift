public import Bundles
internal import Interface
public import InterfaceObjects
internal import InterfaceBuilder
internal import ObjectModel
public import PropertyLists
public import StasisSystem

/// A storyboard (`NSStoryboard` / `UIStoryboard`): scenes made on demand from a compiled
/// `.storyboardc` folder — its `Info.plist` maps identifiers to nibs — or, for tools and tests,
/// from a `.storyboard` compiled on the spot (macOS, and iOS in Apple's UIKit encoding).
///
/// Each scene is a nib whose File's Owner is a stand-in that receives the scene's controller
/// through its `sceneController` outlet; the nib refers to the storyboard as the external object
/// `NSStoryboardPlaceholder`. A view controller's view is a nib of its own (`NSNibName`), loaded
/// on first use with the controller as File's Owner and its `NSExternalObjectsTableForViewLoading`
/// as the external objects.
///
/// ```swift
/// let storyboard = try Storyboard(name: "Main", bundle: bundle, options: options)
/// let windowController = try storyboard.instantiateInitialController() as? WindowController
/// ```
@MainActor public final class Storyboard: ViewControllerSource {
  /// The storyboard's name or path.
  public let name: String
  /// ``name``, for state restoration (`ViewControllerSource`).
  public var storyboardName: String { name }
  /// The bundle its nibs' images and strings come from.
  public let bundle: Bundles.Bundle?
  /// The classes, application and strictness every scene is loaded with.
  public var options: Nib.Options
  /// The compiled storyboard's `Info.plist`.
  public let info: PropertyListValue
  private let nibs: [String: NibGraph]
  /// What lenient compiling did instead of refusing, by nib name (a `.storyboard` compiled on
  /// the spot in lenient mode).
  private let nibWarnings: [String: [CompilerWarning]]
  private var relationshipDepth = 0

  /// The stand-in for a scene nib's File's Owner: the scene's controller arrives through its
  /// `sceneController` outlet.
  final class SceneOwner: NibObject {
    var sceneController: AnyObject?
    static let sceneKeys = KeyTable(for: SceneOwner.self) {
      $0.key("sceneController", \.sceneController)
      $0.key("sceneViewController", \.sceneController)
    }
    override class var keyTable: KeyTable { sceneKeys }
    required init() { super.init() }
  }

  /// The storyboard at `path`: a compiled `.storyboardc` folder, or a `.storyboard` document
  /// compiled on the spot: an iOS one into Apple's UIKit encoding (`UIKitStoryboardCompiler`, as
  /// a plain `ibtool --compile` writes it), a macOS one into AppKit's.
  ///
  /// A macOS document compiles as `options` ask: strictly (``Nib/Options/isStrict``), refusing an
  /// element whose Apple compilation is not known with its line, as `ibtool --compile` does; else
  /// leniently, the element left out or made best-effort — a controller the compiler does not
  /// know made a view controller of its class — each a warning in ``compileWarnings`` and in the
  /// loaded warnings of its scene's nib. An iOS document compiles every element as far as its
  /// class goes (only a malformed one is refused). Both leave out a connection across scenes,
  /// which UIKit cannot make (`ibtool --compile` warns of it).
  ///
  /// The document or folder is read through `environment`'s file system.
  ///
  /// - Throws: `NibLoadingError.Code.unreadable` with the reader's or compiler's error.
  public init(
    contentsOf path: String, bundle: Bundles.Bundle? = nil, options: Nib.Options = Nib.Options(),
    environment: HostEnvironment = .current
  ) throws(NibLoadingError) {
    self.name = path
    self.bundle = bundle
    self.options = options
    if self.options.localize == nil, let bundle {
      let file = path.split(separator: "/").last.map(String.init) ?? path
      let table = file.split(separator: ".").first.map(String.init) ?? file
      self.options.localize = Nib.localizer(bundle: bundle, table: table)
    }
    do {
      if path.hasSuffix(".storyboard") {
        var document = try InterfaceDocument(contentsOfFile: path, environment: environment)
        // Apple's encoding holds the strings of one language: as Xcode compiles a localization,
        // the document's strings are translated first (the loader's table), then compiled.
        if document.platform == .iOS, let localize = self.options.localize {
          document = try StringsImport.localizedDocument(contentsOfFile: path, lookUp: localize, environment: environment)
        }
        let compilerOptions = CocoaNibCompiler.Options(omitsColorProfiles: true)
        let compiled =
          switch (document.platform, options.isStrict) {
          // Apple's encoding, as a plain `ibtool --compile` writes it (the Xcode and deployment
          // target the document implies); it refuses only a malformed document, so strict and
          // lenient differ in the warnings kept.
          case (.iOS, _): try UIKitStoryboardCompiler.compile(document, options: Self.uikitOptions(for: document))
          case (_, true): try CocoaStoryboardCompiler.compile(document, options: compilerOptions)
          case (_, false): try CocoaStoryboardCompiler.compileLeniently(document, options: compilerOptions)
          }
        info = compiled.info
        // Each nib as the bytes `ibtool --compile` writes would read back.
        let graphs = compiled.nibs.map { nib in
          (nib.name, document.platform == .iOS ? NibGraph(NIBArchive(nib.graph, keepingUnreachable: false)) : nib.graph)
        }
        nibs = Dictionary(graphs, uniquingKeysWith: { first, _ in first })
        // A strict compile's warnings are `ibtool --compile`'s notes (what no Apple sample checks),
        // not something left out: the nibs load strictly, as a strict xib's does.
        // An iOS compile's only warnings are connections across scenes, which `ibtool --compile`
        // reports; loading leaves them out as UIKit would, in either mode.
        nibWarnings = options.isStrict || document.platform == .iOS ? [:] : compiled.warnings
      } else {
        let compiled = try CompiledStoryboard(contentsOf: path, environment: environment)
        info = compiled.info
        var graphs: [String: NibGraph] = [:]
        for (name, nib) in compiled.nibs {
          switch nib {
          case .nibArchive(let archive): graphs[name] = NibGraph(archive)
          case .keyedArchive(let value): graphs[name] = try NibGraph(keyedArchive: value, path: path + "/" + name + ".nib")
          case .typedStream(let stream): graphs[name] = try NibGraph(typedStream: stream, path: path + "/" + name + ".nib")
          }
        }
        nibs = graphs
        nibWarnings = [:]
      }
    } catch {
      throw NibLoadingError(.unreadable, nib: path, detail: "cannot be read or compiled", underlying: error)
    }
  }

  /// How an iOS storyboard is compiled on the spot: as `ibtool --compile` without options does,
  /// in the encoding of the Xcode that saved it, for the deployment target it implies.
  private static func uikitOptions(for document: InterfaceDocument) -> UIKitNibCompiler.Options {
    let xcode = UIKitNibCompiler.defaultXcode(for: document)
    return UIKitNibCompiler.Options(xcode: xcode, deploymentTarget: UIKitNibCompiler.defaultDeploymentTarget(for: document, xcode: xcode))
  }

  /// The storyboard `name` in `bundle` (`storyboardWithName:bundle:`): `name.storyboardc`
  /// through the bundle's localized lookup.
  ///
  /// - Throws: `NibLoadingError.Code.notFound` when the bundle has none.
  public convenience init(name: String, bundle: Bundles.Bundle, options: Nib.Options = Nib.Options()) throws(NibLoadingError) {
    guard let path = bundle.path(forResource: name, ofType: "storyboardc") else {
      throw NibLoadingError(.notFound, nib: name, detail: "the bundle at \(bundle.bundlePath) has no storyboard named \(name)")
    }
    try self.init(contentsOf: path, bundle: bundle, options: options)
  }

  /// What lenient compiling did instead of refusing, each naming the document, line and element
  /// (empty for a compiled `.storyboardc` and for a strict compile).
  public var compileWarnings: [String] {
    Set(nibWarnings.values.flatMap { $0 }.map(\.description)).sorted()
  }

  private func string(_ key: String) -> String? {
    if case .string(let text)? = info[key] { return text }
    return nil
  }

  /// The identifier of the initial controller (`NSStoryboardDesignatedEntryPointIdentifier`,
  /// `UIStoryboardDesignatedEntryPointIdentifier`).
  public var initialControllerIdentifier: String? {
    string("NSStoryboardDesignatedEntryPointIdentifier") ?? string("UIStoryboardDesignatedEntryPointIdentifier")
  }

  /// Every identifier a controller can be made under (`NSViewControllerIdentifiersToNibNames`),
  /// the main menu's left out.
  public var identifiers: [String] {
    guard case .dictionary(let table)? = identifiersToNibNames else { return [] }
    let menu = mainMenuIdentifier
    return table.keys.filter { $0 != menu }.sorted()
  }

  /// The identifier of the main menu's nib (`NSStoryboardMainMenu`), in a macOS app's main
  /// storyboard.
  public var mainMenuIdentifier: String? { string("NSStoryboardMainMenu") }

  /// Loads the storyboard's main menu (`NSStoryboardMainMenu`) with `application` as File's
  /// Owner and makes it the application's `mainMenu`, as AppKit does at launch.
  /// Answers the menu, or `nil` when the storyboard has none.
  @discardableResult
  public func loadMainMenu(into application: Application) throws(NibLoadingError) -> Menu? {
    guard let identifier = mainMenuIdentifier, let nibName = nibName(forIdentifier: identifier), let graph = nibs[nibName] else {
      return nil
    }
    var menuOptions = options
    menuOptions.application = application
    menuOptions.externalObjects["NSStoryboardPlaceholder"] = self
    let loaded = try Nib(graph: graph, name: name + "/" + nibName + ".nib", bundle: bundle, compilerWarnings: nibWarnings[nibName] ?? []).load(owner: application, options: menuOptions)
    let menu = loaded.namedObjects["MainMenu"] as? Menu ?? loaded.topLevelObjects.lazy.compactMap { $0 as? Menu }.first
    if let menu { application.mainMenu = menu }
    return menu
  }

  /// `NSViewControllerIdentifiersToNibNames` (`UIViewControllerIdentifiersToNibNames` on iOS).
  private var identifiersToNibNames: PropertyListValue? {
    info["NSViewControllerIdentifiersToNibNames"] ?? info["UIViewControllerIdentifiersToNibNames"]
  }

  private func nibName(forIdentifier identifier: String) -> String? {
    if case .string(let name)? = identifiersToNibNames?[identifier] { return name }
    return nil
  }

  /// The initial controller (`instantiateInitialController`): a window controller or a view
  /// controller; `nil` when the storyboard names none.
  public func instantiateInitialController() throws(NibLoadingError) -> AnyObject? {
    guard let identifier = initialControllerIdentifier else { return nil }
    return try instantiateController(withIdentifier: identifier)
  }

  /// The initial view controller (`instantiateInitialViewController`): the initial controller,
  /// or a window controller's content view controller.
  public func instantiateInitialViewController() throws(NibLoadingError) -> ViewController? {
    let controller = try instantiateInitialController()
    return controller as? ViewController ?? (controller as? WindowController)?.contentViewController
  }

  /// A new instance of the controller with `identifier` (`instantiateControllerWithIdentifier:`).
  ///
  /// - Throws: `NibLoadingError.Code.unknownIdentifier` when the storyboard has no such
  ///   controller; the loader's errors for its nib.
  public func instantiateController(withIdentifier identifier: String) throws(NibLoadingError) -> AnyObject {
    try instantiateScene(withIdentifier: identifier).controller
  }

  /// The scene of the controller with `identifier`, made as ``instantiateController(withIdentifier:)``
  /// makes it, with every other view controller its nib holds: the controllers Apple's compiler
  /// puts in their container's nib instead of a nib of their own (a window controller's
  /// `window.shadowedContentViewController`, a tab or split view controller's `tabItems` and
  /// `splitItems` on macOS), each a scene of the document without an identifier. For tools that
  /// show every scene (`ibtool --render`).
  public func instantiateScene(withIdentifier identifier: String) throws(NibLoadingError) -> (controller: AnyObject, embedded: [ViewController]) {
    guard let nibName = nibName(forIdentifier: identifier), let graph = nibs[nibName] else {
      throw NibLoadingError(
        .unknownIdentifier, nib: name, key: identifier,
        detail: "the storyboard has no controller with identifier \(identifier) (it has: \(identifiers.joined(separator: ", ")))")
    }
    let owner = SceneOwner()
    var sceneOptions = options
    sceneOptions.externalObjects["NSStoryboardPlaceholder"] = self
    sceneOptions.externalObjects["UIStoryboardPlaceholder"] = self
    let loaded = try Nib(graph: graph, name: name + "/" + nibName + ".nib", bundle: bundle, compilerWarnings: nibWarnings[nibName] ?? []).load(owner: owner, options: sceneOptions)
    guard let controller = owner.sceneController else {
      throw NibLoadingError(
        .invalidObject, nib: name + "/" + nibName + ".nib", key: identifier,
        detail: "the scene's nib connects no controller to its sceneController outlet")
    }
    var embedded: [ViewController] = []
    for object in loaded.objects {
      guard let viewController = object as? ViewController else { continue }
      prepare(viewController)
      if viewController !== controller { embedded.append(viewController) }
    }
    if let viewController = controller as? ViewController {
      viewController.storyboardIdentifier = identifier
      prepare(viewController)
      try fillRelationships(of: viewController)
    }
    // A window's content view controller has its view loaded with the window, as AppKit does.
    if let content = (controller as? WindowController)?.contentViewController {
      do {
        try content.loadViewIfNeeded()
      } catch {
        throw NibLoadingError(.invalidObject, nib: name, key: identifier, detail: "the content view controller's view cannot be loaded", underlying: error)
      }
    }
    return (controller, embedded)
  }

  /// The view controller with `identifier` (`instantiateViewControllerWithIdentifier:`); a
  /// window controller answers its content view controller.
  public func instantiateViewController(withIdentifier identifier: String) throws -> ViewController {
    let controller = try instantiateController(withIdentifier: identifier)
    if let viewController = controller as? ViewController ?? (controller as? WindowController)?.contentViewController {
      return viewController
    }
    throw NibLoadingError(
      .unknownIdentifier, nib: name, key: identifier, detail: "the controller \(identifier) is a \(type(of: controller)), not a view controller")
  }

  /// A container's relationship segues, made: a navigation controller's root, a tab bar
  /// controller's tabs, other containers' children (nesting is bounded by the storyboard's size).
  private func fillRelationships(of container: ViewController) throws(NibLoadingError) {
    guard relationshipDepth < 64 else {
      throw NibLoadingError(.invalidObject, nib: name, detail: "relationship segues nest more than 64 deep (a cycle)")
    }
    relationshipDepth += 1
    defer { relationshipDepth -= 1 }
    for (relationship, destination) in container.relationshipSegues {
      let child = try instantiateController(withIdentifier: destination)
      guard let childController = child as? ViewController else { continue }
      if relationship == "rootViewController", let navigation = container as? NavigationController {
        navigation.pushViewController(childController)
      } else {
        container.addChild(childController)
      }
    }
  }

  /// Gives a controller its storyboard and the loader of its view's nib.
  private func prepare(_ controller: ViewController) {
    controller.storyboard = self
    guard controller.viewLoader == nil, let viewNib = controller.nibName, let graph = nibs[viewNib] else { return }
    let nibPath = name + "/" + viewNib + ".nib"
    let warnings = nibWarnings[viewNib] ?? []
    let bundle = self.bundle
    let options = self.options
    controller.viewLoader = { controller in
      var viewOptions = options
      for (key, object) in controller.externalObjectsForViewLoading { viewOptions.externalObjects[key] = object }
      viewOptions.externalObjects["NSStoryboardPlaceholder"] = self
      let loaded = try Nib(graph: graph, name: nibPath, bundle: bundle, compilerWarnings: warnings).load(owner: controller, options: viewOptions)
      for object in loaded.objects {
        if let child = object as? ViewController, child !== controller { self.prepare(child) }
      }
      return controller.viewIfLoaded
    }
  }
}
