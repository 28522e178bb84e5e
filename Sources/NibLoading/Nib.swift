public import Bundles
public import Interface
public import InterfaceObjects
public import ObjectModel
public import StasisSystem
internal import InterfaceBuilder
internal import PropertyLists
internal import FoundationEssentials

/// A nib ready to be instantiated any number of times (`UINib` / `NSNib`): its object graph,
/// read once from a compiled nib (NIBArchive, keyed archive or NeXT typedstream), or — for tools and tests —
/// compiled from a `.xib`.
///
/// ```swift
/// let nib = try Nib(named: "ItemCell", bundle: bundle)
/// let objects = try nib.instantiate(withOwner: controller)
/// ```
public final class Nib: Sendable {
  /// The nib's name or path, as errors give it.
  public let name: String
  /// The bundle images and localized resources come from.
  public let bundle: Bundles.Bundle?
  /// The nib's object graph.
  public let graph: NibGraph
  /// What the graph's root says (placeholders, top-level objects, connections), read once.
  let layout: Result<NibLayout, NibLayout.LayoutProblem>
  /// What lenient compiling left out or compiled best-effort (a document compiled on the spot):
  /// added to every lenient load's warnings; a strict load refuses the nib for the first.
  let compilerWarnings: [CompilerWarning]

  /// What lenient compiling did instead of refusing, each naming the document, line and
  /// element (empty for a compiled nib and for a document compiled strictly).
  public var compileWarnings: [String] { compilerWarnings.map(\.description) }

  /// How a nib is instantiated.
  public struct Options {
    /// The classes the nib's class names resolve to: the headless interface classes plus the
    /// app's own (`ClassRegistry.interfaceObjects`, then `register(…)` the app's classes).
    public var classes: ClassRegistry
    /// Objects that stand in for the nib's external-object placeholders, by identifier
    /// (`UINibExternalObjects`).
    public var externalObjects: [String: AnyObject]
    /// Strict mode: a class the registry lacks, an outlet, key or selector the object lacks is an
    /// error on both platforms. Lenient mode (the default) makes unknown classes generic objects
    /// and, for AppKit nibs, skips outlets and actions that do not exist as AppKit does, listing
    /// them in ``LoadedNib/warnings``; UIKit nibs' missing outlets and keys are errors in both
    /// modes, as UIKit raises.
    public var isStrict: Bool
    /// The application the nib's Application placeholder stands for and its windows belong to;
    /// a new `Application` when `nil`.
    public var application: Application?
    /// What an outlet, runtime attribute or action the object lacks is: by default an error for
    /// UIKit nibs and in strict mode, a warning for AppKit nibs in lenient mode.
    public var missingConnections: MissingConnectionPolicy
    /// Translates the nib's localizable strings by their strings-file key
    /// (`"<objectID>.<property>"`); `nil` keeps the development strings. `Storyboard(name:bundle:)`
    /// and `Nib(named:bundle:)` set it to the bundle's table of the same name in the user's
    /// language.
    public var localize: (@Sendable (String) -> String?)?

    /// What a connection the object lacks (outlet key, attribute key path, action) is.
    public enum MissingConnectionPolicy: Sendable {
      /// An error for UIKit nibs (UIKit raises) and in strict mode; a warning for AppKit nibs in
      /// lenient mode (AppKit skips such connections).
      case platformDefault
      /// Always an error.
      case error
      /// Always a warning in ``LoadedNib/warnings``, the connection skipped.
      case warning
    }

    public init(
      classes: ClassRegistry = .interfaceObjects, externalObjects: [String: AnyObject] = [:], isStrict: Bool = false,
      application: Application? = nil, missingConnections: MissingConnectionPolicy = .platformDefault,
      localize: (@Sendable (String) -> String?)? = nil
    ) {
      self.localize = localize
      self.classes = classes
      self.externalObjects = externalObjects
      self.isStrict = isStrict
      self.application = application
      self.missingConnections = missingConnections
    }
  }

  /// A nib of an already-read graph.
  public convenience init(graph: NibGraph, name: String = "nib", bundle: Bundles.Bundle? = nil) {
    self.init(graph: graph, name: name, bundle: bundle, compilerWarnings: [])
  }

  init(graph: NibGraph, name: String, bundle: Bundles.Bundle?, compilerWarnings: [CompilerWarning]) {
    self.graph = graph
    self.name = name
    self.bundle = bundle
    self.compilerWarnings = compilerWarnings
    do {
      layout = .success(try NibLayout(graph))
    } catch {
      layout = .failure(error)
    }
  }

  /// The nib in `bytes`: a NIBArchive, a keyed-archive nib or a NeXT typedstream nib (`UINib nibWithData:bundle:`).
  ///
  /// - Throws: `NibLoadingError.Code.unreadable` naming `name` and the reader's position.
  public convenience init(data bytes: [UInt8], name: String = "nib", bundle: Bundles.Bundle? = nil) throws(NibLoadingError) {
    do {
      // The format told as for a file (`CompiledNib.contents(ofBytes:file:)`); a NIBArchive goes
      // straight from the bytes to the graph, without building and freeing the tables.
      switch try CompiledNib.contents(ofBytes: bytes, file: name) {
      case .graph(let graph): self.init(graph: graph, name: name, bundle: bundle)
      case .keyedArchive(let value): self.init(graph: try NibGraph(keyedArchive: value, path: name), name: name, bundle: bundle)
      }
    } catch {
      throw NibLoadingError(.unreadable, nib: name, detail: "not a nib: \(error)", underlying: error)
    }
  }

  /// The nib at `path`: a flat `.nib`, a `.nib` folder, or a `.xib` compiled on the spot (macOS
  /// documents; tools and tests).
  ///
  /// A `.xib` compiles strictly by default, as `ibtool --compile` does: an element whose Apple
  /// compilation is not known is refused with its line. With `lenient`, it is compiled as AppKit
  /// loads what it half understands — the element left out or made a best-effort object of its
  /// class, with its frame, subviews, connections and attributes — and each such element is a
  /// warning (document, line, element, why) in ``compileWarnings`` and in every lenient load's
  /// ``LoadedNib/warnings``; a strict load (``Options/isStrict``) of such a nib refuses it with
  /// the compiler's error for the first. Malformed and invalid documents are refused either way.
  ///
  /// The file (or folder) is read through `environment`'s file system.
  ///
  /// - Throws: `NibLoadingError.Code.unreadable` with the reader's or compiler's error (file,
  ///   line or byte position).
  public convenience init(
    contentsOf path: String, bundle: Bundles.Bundle? = nil, cache: NibCache? = nil, lenient: Bool = false,
    environment: HostEnvironment = .current
  ) throws(NibLoadingError) {
    if let graph = cache?.graph(forPath: path) {
      self.init(graph: graph, name: path, bundle: bundle)
      return
    }
    let graph: NibGraph
    var warnings: [CompilerWarning] = []
    do {
      if path.hasSuffix(".xib") {
        let document = try InterfaceDocument(contentsOfFile: path, environment: environment)
        if document.platform == .iOS {
          graph = try CocoaTouchCompiler.compile(document)
        } else if lenient {
          let compiled = try CocoaNibCompiler.compileLeniently(document, options: .init(omitsColorProfiles: true))
          graph = compiled.graph
          warnings = compiled.warnings
        } else {
          graph = try CocoaNibCompiler.compile(document, options: .init(omitsColorProfiles: true))
        }
      } else {
        // A NIBArchive is read straight into its graph (as `CompiledNib(contentsOf:)` then
        // `NibGraph(_:)` would give it, with the same errors, without the tables).
        switch try CompiledNib.contents(of: path, environment: environment) {
        case .graph(let nibGraph): graph = nibGraph
        case .keyedArchive(let value): graph = try NibGraph(keyedArchive: value, path: path)
        }
      }
    } catch let error as NibLoadingError {
      throw error
    } catch {
      throw NibLoadingError(.unreadable, nib: path, detail: "cannot be read or compiled", underlying: error)
    }
    // A graph compiled best-effort is not cached: the cache keeps graphs, not their warnings.
    if warnings.isEmpty { cache?.store(graph, forPath: path) }
    self.init(graph: graph, name: path, bundle: bundle, compilerWarnings: warnings)
  }

  /// The nib `name` in `bundle` (`UINib nibWithNibName:bundle:`, `NSNib initWithNibNamed:bundle:`):
  /// `name.nib` found through the bundle's localized lookup (`Base.lproj` and the user's
  /// languages) with its `~iphone`/`~ipad` variant; its bytes are kept in `cache`, which a memory
  /// warning empties.
  ///
  /// - Throws: `NibLoadingError.Code.notFound` when the bundle has no such nib.
  public convenience init(named name: String, bundle: Bundles.Bundle, cache: NibCache? = NibCache.shared) throws(NibLoadingError) {
    guard let path = bundle.path(forResource: name, ofType: "nib") else {
      throw NibLoadingError(.notFound, nib: name, detail: "the bundle at \(bundle.bundlePath) has no nib named \(name)")
    }
    try self.init(contentsOf: path, bundle: bundle, cache: cache)
  }

  /// The strings table named after the nib (`Name.nib` → `Name`), for ``Options/localize``.
  var tableName: String? {
    let file = name.split(separator: "/").last.map(String.init) ?? name
    guard let dot = file.lastIndex(of: "."), ["nib", "xib", "storyboard", "storyboardc"].contains(String(file[file.index(after: dot)...])) else {
      return nil
    }
    return String(file[..<dot])
  }

  /// Localizes through `bundle`'s strings table `table` in the user's language (a key missing
  /// from the table keeps the development string).
  static func localizer(bundle: Bundles.Bundle, table: String) -> @Sendable (String) -> String? {
    { key in
      let missing = "\u{0}"
      let text = bundle.localizedString(forKey: key, value: missing, table: table)
      return text == missing ? nil : text
    }
  }

  /// Instantiates the nib and answers its top-level objects, placeholders left out
  /// (`instantiateWithOwner:options:`). The caller owns them: nothing else keeps them alive.
  @MainActor public func instantiate(withOwner owner: AnyObject?, options: Options = Options()) throws(NibLoadingError) -> [AnyObject] {
    try load(owner: owner, options: options).topLevelObjects
  }

  /// Instantiates the nib and answers everything the load produced: the top-level objects, the
  /// objects by id, the bindings, what lenient mode skipped.
  ///
  /// A NeXT typedstream nib's objects are all made generic (their values are positional); in
  /// strict mode such a nib throws `unknownClass`.
  @MainActor public func load(owner: AnyObject?, options: Options = Options()) throws(NibLoadingError) -> LoadedNib {
    var options = options
    if options.localize == nil, let bundle, let table = tableName { options.localize = Self.localizer(bundle: bundle, table: table) }
    if options.isStrict, let first = compilerWarnings.first {
      throw NibLoadingError(
        .unreadable, nib: name, detail: "compiled leniently (\(compilerWarnings.count) element(s) best-effort); strict mode refuses it",
        underlying: first.strictError)
    }
    var loader = try NibLoader(nib: self, owner: owner, options: options)
    var loaded: LoadedNib
    do {
      loaded = try loader.run()
    } catch where error.code == .unknownClass && graph.isTypedStreamNib {
      throw NibLoadingError(
        .unknownClass, nib: name, objectID: error.objectID, key: error.key,
        detail: "a NeXT typedstream nib keeps each object's values by position (NeXT's initWithCoder:), which no registered class "
          + "decodes; strict mode refuses it, lenient mode makes every object a generic object with its archived values",
        underlying: error)
    }
    if !compilerWarnings.isEmpty { loaded.warnings = compileWarnings + loaded.warnings }
    return loaded
  }
}

/// What instantiating a nib produced.
public struct LoadedNib {
  /// The top-level objects (placeholders left out), in the nib's order.
  public var topLevelObjects: [AnyObject]
  /// The objects the nib made that have an object id (an AppKit nib's `NSOidsValues`; a UIKit
  /// nib's object number). Holding this keeps them alive.
  public var objectsByID: [Int: AnyObject]
  /// Every object the nib made, in the order it was made (objects without an id included).
  public var objects: [AnyObject]
  /// The application the nib's windows and Application placeholder belong to.
  public var application: Application
  /// AppKit bindings, recorded (`bind:toObject:withKeyPath:options:`).
  public var bindings: [Binding]
  /// What lenient mode let through: unknown classes made generic, custom classes that fell back
  /// to their original class, outlets and actions skipped.
  public var warnings: [String]
  /// The archived class names no registered class answered.
  public var unknownClassNames: Set<String>
  /// The objects named in the nib (`NSNamesKeys`: `MainMenu`).
  public var namedObjects: [String: AnyObject]
  /// The connections applied, by connector class name (`NSNibOutletConnector`,
  /// `NSNibAXAttributeConnector`, `UIRuntimeOutletConnection` …): every connector of the nib's
  /// `NSConnections`, `NSAccessibilityConnectors` or `UINibConnectionsKey` that was not skipped
  /// with a warning.
  public var appliedConnections: [String: Int] = [:]
}

/// An AppKit binding from a nib (`NSNibBindingConnector`): `source.binding` bound to
/// `destination.keyPath`. Recorded, not observed.
public struct Binding {
  /// The bound object, weak.
  public weak var source: AnyObject?
  /// The object bound to, weak.
  public weak var destination: AnyObject?
  /// The binding name (`value`, `enabled`, `contentArray`).
  public var binding: String
  /// The key path on the destination (`selection.name`, `values.showGrid`).
  public var keyPath: String
  /// The binding's options (`NSContinuouslyUpdatesValue` …).
  public var options: [String: Any]
}
