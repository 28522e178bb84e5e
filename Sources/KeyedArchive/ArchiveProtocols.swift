/// A class whose instances can be written to a keyed archive: the encoding half of `NSCoding`
/// (`encodeWithCoder:`).
public protocol ArchiveEncodable: AnyObject {
  /// Encodes the object's state under string keys (`-encodeWithCoder:`).
  func encode(with coder: ArchiveEncoder) throws
}

/// A class decoded in one step by its initializer (`-initWithCoder:`).
///
/// Such an object does not exist until its initializer returns, so a reference cycle that leads
/// back to it while it is being decoded cannot be served: the unarchiver throws
/// `KeyedArchiveError.Code.cycle` naming the path. Classes that take part in cycles adopt
/// ``ArchiveDecodableInPlace`` instead.
public protocol ArchiveDecodable: AnyObject {
  init(coder: ArchiveDecoder) throws
}

/// A class decoded in two steps, like Apple's `alloc` followed by `initWithCoder:`: the
/// unarchiver creates it with `init()`, records it for its archive reference, and then calls
/// ``decode(from:)``. References that lead back to it while it is being decoded (parent ↔ child,
/// self-references, cycles through arrays and dictionaries) receive this same instance, so cyclic
/// graphs come back with their identities intact.
///
/// While ``decode(from:)`` runs, objects it receives through a cycle may themselves not be fully
/// decoded yet; read their state afterwards (``ArchiveDecodingCompletion/archiveDidFinishDecoding()``
/// runs once the whole archive has been decoded).
public protocol ArchiveDecodableInPlace: AnyObject {
  init()
  func decode(from coder: ArchiveDecoder) throws
}

/// A struct or enum archived as an object of its own (a dictionary with `$class`). Values have no
/// identity: each occurrence is archived separately and decoded as a copy.
public protocol ArchiveValueCodable {
  init(coder: ArchiveDecoder) throws
  func encode(with coder: ArchiveEncoder) throws
}

/// Called on every decoded object that adopts it, after the whole archive has been decoded
/// (Apple's `awakeAfterUsingCoder:` moment): the place to check invariants across the graph.
public protocol ArchiveDecodingCompletion: AnyObject {
  func archiveDidFinishDecoding() throws
}

/// The value `NSNull` decodes to (`+[NSNull null]`), and encodes from.
public struct ArchiveNull: Hashable, Sendable {
  public init() {}
}

/// A class's own archive version, written under the object's `$classversion` key when it is
/// not 0, so that `init(coder:)` can read archives its older self wrote
/// (``ArchiveDecoder/archivedClassVersion``). Apple's keyed archives carry no class versions;
/// archives of classes at version 0 are exactly Apple's layout.
public protocol ArchiveVersioned {
  static var archiveVersion: Int { get }
}
