public import ObjectModel

/// Where a view controller's storyboard scenes come from: the storyboard that made it
/// (`UIStoryboard` / `NSStoryboard`). `NibLoading`'s `Storyboard` adopts it.
@MainActor public protocol ViewControllerSource: AnyObject {
  /// A new instance of the scene whose storyboard identifier (or scene id) is `identifier`.
  func instantiateViewController(withIdentifier identifier: String) throws -> ViewController
  /// The storyboard's name (`UIStateRestorationViewControllerStoryboardKey` keeps it), by which
  /// state restoration finds it again.
  var storyboardName: String { get }
}

/// A segue as a storyboard describes it (`UIStoryboardSegueTemplate`): its identifier, kind
/// (`show`, `presentation`, `push`, `modal`, `unwind`, …) and the scene it leads to.
public struct SegueTemplate: Hashable, Sendable {
  /// `identifier`, by which ``ViewController/performSegue(withIdentifier:sender:)`` finds it.
  public var identifier: String
  /// The segue kind as the storyboard writes it.
  public var kind: String
  /// The destination scene's identifier in the storyboard.
  public var destination: String
  /// The unwind action of an unwind segue.
  public var unwindAction: String?

  public init(identifier: String, kind: String, destination: String, unwindAction: String? = nil) {
    self.identifier = identifier
    self.kind = kind
    self.destination = destination
    self.unwindAction = unwindAction
  }
}

/// A segue as a compiled storyboard archives it (`UIStoryboardSegueTemplate`): made by the nib
/// loader and turned into the controller's ``ViewController/segueTemplates``; a control that
/// starts the segue sends it `perform:`.
public final class SegueTemplateObject: NibObject {
  public var template = SegueTemplate(identifier: "", kind: "", destination: "")
  /// The relationship of a relationship segue (`rootViewController`, `viewControllers`).
  public var relationship: String?
  /// The controller whose scene holds the segue, weak.
  public weak var sourceViewController: ViewController?

  public required init() { super.init() }

  public override func decode(from coder: NibCoder) throws(InterfaceObjectsError) {
    try super.decode(from: coder)
    // Stasis's encoding names the kind; Apple's the template's class.
    template.kind = try coder.decodeString(forKey: "UIKind") ?? Self.kinds[coder.archivedClassName] ?? "custom"
    template.identifier = try coder.decodeString(forKey: "UIIdentifier") ?? ""
    template.destination = try coder.decodeString(forKey: "UIDestinationViewControllerIdentifier") ?? ""
    template.unwindAction = try coder.decodeString(forKey: "UIUnwindAction")
    if template.kind == "unwind", template.unwindAction == nil { template.unwindAction = try coder.decodeString(forKey: "UIActionName") }
    relationship = try coder.decodeString(forKey: "UIRelationship")
  }

  /// The segue kind of each of UIKit's template classes (`UIStoryboardShowSegueTemplate` …).
  nonisolated static let kinds = [
    "UIStoryboardShowSegueTemplate": "show", "UIStoryboardPresentationSegueTemplate": "presentation",
    "UIStoryboardModalSegueTemplate": "modal", "UIStoryboardPushSegueTemplate": "push",
    "UIStoryboardPopoverPresentationSegueTemplate": "popoverPresentation", "UIStoryboardPopoverSegueTemplate": "popover",
    "UIStoryboardEmbedSegueTemplate": "embed", "UIStoryboardUnwindSegueTemplate": "unwind", "UIStoryboardReplaceSegueTemplate": "replace",
  ]

  static let segueActions = ActionTable(for: SegueTemplateObject.self) {
    $0.action("perform:") { template, sender in try template.sourceViewController?.performSegue(withIdentifier: template.template.identifier, sender: sender) }
  }
  public override class var actionTable: ActionTable { segueActions }
}

/// A segue being performed (`UIStoryboardSegue`): identifier, source and destination.
@MainActor public final class StoryboardSegue {
  public let identifier: String
  public let kind: String
  public let source: ViewController
  public let destination: ViewController

  public init(identifier: String, kind: String, source: ViewController, destination: ViewController) {
    self.identifier = identifier
    self.kind = kind
    self.source = source
    self.destination = destination
  }
}
