import Foundation
import Interface
import InterfaceObjects
import ObjectModel
import Testing
import TestSupport

/// Apple's compiled nibs — what Apple's ibtool made of the xibs beside them in the corpus — decoded
/// by the headless classes alone, without the nib loader: every object made, view trees whole,
/// frames as archived, every object of its registered class, and nothing left alive
/// once the cycles are broken and the objects let go.
@MainActor
@Suite(.enabled(if: Corpus.isAvailable, Corpus.missingReason))
struct CorpusDecodingTests {
  /// The flat nibs (NIBArchive) Apple's ibtool compiled from the xibs of
  /// `xib/ibtool_pairs/correct` (compiled storyboards, folders of several nibs, are left to the
  /// loader's tests).
  nonisolated static let nibs: [CorpusFile] = Corpus.files(in: "nib/ibtool_pairs/correct").filter {
    $0.pathExtension == "nib" && !$0.name.contains(".out/")
  }

  /// Every object of `file`'s graph made and decoded, lenient (a class the headless model lacks
  /// is a `GenericObject`), in graph order.
  static func decodeEveryObject(of file: CorpusFile) throws -> (unarchiver: NibUnarchiver, objects: [AnyObject]) {
    let graph = NibGraph(try NIBArchive(bytes: file.bytes()))
    let unarchiver = NibUnarchiver(graph: graph, classes: .interfaceObjects)
    for index in graph.objects.indices { _ = try unarchiver.value(ofObjectAt: index) }
    try unarchiver.finishDecoding()
    var objects: [AnyObject] = []
    for index in unarchiver.madeIndices { if let object = try unarchiver.instance(at: index) { objects.append(object) } }
    return (unarchiver, objects)
  }

  @Test func theCorpusHasTheNibs() {
    // A renamed or emptied folder must not pass with no cases.
    #expect(Self.nibs.count > 100)
  }

  @Test(arguments: nibs)
  func everyObjectDecodesAndTheViewTreesAreWhole(_ nib: CorpusFile) throws {
    let (unarchiver, objects) = try Self.decodeEveryObject(of: nib)
    #expect(!objects.isEmpty)
    for case let view as View in objects {
      var seen: Set<ObjectIdentifier> = []
      for subview in view.subviews {
        #expect(subview.superview === view, "\(nib.name): a subview of object \(unarchiver.index(of: view) ?? -1) names another superview")
        #expect(seen.insert(ObjectIdentifier(subview)).inserted, "\(nib.name): a subview listed twice")
      }
      if let superview = view.superview {
        #expect(superview.subviews.contains { $0 === view }, "\(nib.name): a view its superview does not list")
      }
    }
  }

  /// A view's frame is what Apple archived for it: `NSFrame` (`{{x, y}, {w, h}}`), or
  /// `NSFrameSize` at the origin, or no frame at all. (The xib's `<rect key="frame">` is not the
  /// reference: ibtool lays table and text views out again, and adds views the xib does not list.)
  @Test(arguments: nibs)
  func framesAreTheArchivedOnes(_ nib: CorpusFile) throws {
    let (unarchiver, objects) = try Self.decodeEveryObject(of: nib)
    for case let view as View in objects {
      guard let index = unarchiver.index(of: view) else { continue }
      let object = unarchiver.graph.objects[index]
      let archived: Frame
      if let text = unarchiver.graph.text(of: object, forKey: "NSFrame") {
        let numbers = Frame.numbers(in: text)
        try #require(numbers.count == 4, "\(nib.name): NSFrame \(text)")
        archived = Frame(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
      } else if let text = unarchiver.graph.text(of: object, forKey: "NSFrameSize") {
        let numbers = Frame.numbers(in: text)
        try #require(numbers.count == 2, "\(nib.name): NSFrameSize \(text)")
        archived = Frame(x: 0, y: 0, width: numbers[0], height: numbers[1])
      } else {
        archived = Frame(x: 0, y: 0, width: 0, height: 0)
      }
      #expect(Frame(view.frame) == archived, "\(nib.name): \(object.className) at \(index)")
    }
  }

  /// Apple's UIKit nibs of the iOS pairs (flat NIBArchive files; folder nibs are the loader's).
  nonisolated static let uiKitNibs: [CorpusFile] = Corpus.files(in: "ios_pairs").filter { file in
    guard file.pathExtension == "nib", let bytes = try? file.bytes() else { return false }
    return NIBArchive.isNIBArchive(bytes)
  }

  /// A UIKit view's frame is made from what Apple archived: `UIBounds` gives its size, `UICenter`
  /// its centre (in the superview's coordinates, y down).
  @Test(.enabled(if: !uiKitNibs.isEmpty, "no UIKit nibs in ios_pairs"))
  func uiKitFramesAreTheArchivedBoundsAndCentre() throws {
    #expect(Self.uiKitNibs.count > 100)
    for nib in Self.uiKitNibs {
      let (unarchiver, objects) = try Self.decodeEveryObject(of: nib)
      for case let view as View in objects {
        guard let index = unarchiver.index(of: view) else { continue }
        let object = unarchiver.graph.objects[index]
        guard let bounds = try Self.geometry(object, "UIBounds", in: unarchiver.graph), bounds.count == 4 else { continue }
        #expect(view.frame.width == bounds[2] && view.frame.height == bounds[3], "\(nib.name): \(object.className) at \(index)")
        if let center = try Self.geometry(object, "UICenter", in: unarchiver.graph), center.count == 2 {
          // The frame's origin is centre − half the size; its middle is the centre again, to
          // rounding (thirds of a point are common in @3x layouts).
          #expect(abs(view.frame.midX - center[0]) < 1e-9 && abs(view.frame.midY - center[1]) < 1e-9, "\(nib.name): \(object.className) at \(index)")
        }
      }
    }
  }

  /// The numbers of a geometry value as a UIKit nib archives it: data of one type byte (6:
  /// 32-bit floats, 7: 64-bit) and the little-endian numbers, or a string (`{{0, 0}, {320, 44}}`).
  static func geometry(_ object: NibGraph.Object, _ key: String, in graph: NibGraph) throws -> [Double]? {
    if let text = graph.text(of: object, forKey: key) { return Frame.numbers(in: text) }
    guard case .data(let bytes)? = object[key], let type = bytes.first else { return nil }
    let width = type == 6 ? 4 : 8
    try #require(type == 6 || type == 7, "\(key): geometry type \(type)")
    return stride(from: 1, to: bytes.count - width + 1, by: width).map { offset in
      let bits = bytes[offset..<offset + width].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return width == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
    }
  }

  /// Each made object whose archived class the registry knows (no custom class) is exactly the
  /// registered Swift class, and is "kind of" its archived class.
  @Test(arguments: nibs)
  func madeObjectsAreOfTheirRegisteredClass(_ nib: CorpusFile) throws {
    let (unarchiver, _) = try Self.decodeEveryObject(of: nib)
    let registry = ClassRegistry.interfaceObjects
    var checked = 0
    for index in unarchiver.madeIndices {
      let archived = unarchiver.graph.objects[index].className
      guard unarchiver.classNames(forObjectAt: index).first == archived, let entry = registry.entry(named: archived),
        let object = try unarchiver.instance(at: index)
      else { continue }
      checked += 1
      #expect(ObjectIdentifier(type(of: object)) == ObjectIdentifier(entry.swiftType), "\(nib.name): \(archived) at \(index)")
      #expect(registry.isKind(object, of: archived))
    }
    #expect(checked > 0)
  }

  /// Each class declares the objects it holds strongly (`collectStrongReferences(into:)`); with
  /// the cycles those close broken, letting go of the unarchiver and the objects frees them all.
  @Test(arguments: nibs)
  func nothingOutlivesTheObjectsOnceTheCyclesAreBroken(_ nib: CorpusFile) throws {
    var watched: [WeakBox] = []
    do {
      let (unarchiver, objects) = try Self.decodeEveryObject(of: nib)
      watched = objects.map(WeakBox.init)
      unarchiver.breakReferenceCycles()
    }
    let alive = watched.filter { $0.object != nil }.map { String(describing: type(of: $0.object!)) }
    #expect(alive.isEmpty, "\(nib.name): still alive: \(alive.prefix(8))")
  }
}

/// An object watched without keeping it alive.
final class WeakBox {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// A frame as four numbers.
struct Frame: Equatable, CustomStringConvertible {
  let x, y, width, height: Double

  init(_ rect: CGRect) {
    (x, y, width, height) = (Double(rect.origin.x), Double(rect.origin.y), Double(rect.width), Double(rect.height))
  }

  init(x: Double, y: Double, width: Double, height: Double) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }

  var description: String { "{{\(x), \(y)}, {\(width), \(height)}}" }

  /// The numbers of a geometry string as Foundation writes it (`{{20, 20}, {360, 260}}`).
  static func numbers(in text: String) -> [Double] {
    text.split { !"0123456789.-+e".contains($0) }.compactMap { Double($0) }
  }
}
