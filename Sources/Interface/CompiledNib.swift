public import StasisSystem
import FoundationEssentials
public import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A compiled nib as found on disk: a flat `Name.nib` file or a `Name.nib/` folder, holding
/// a NIBArchive (iOS 6+, macOS 10.13+), a keyed archive whose root is the nib's
/// `NSIBObjectData` (`keyedobjects.nib`, older macOS nibs), or a NeXT typedstream whose root is
/// one (`objects.nib`, NeXTSTEP and OPENSTEP nibs, written by `NSArchiver`). The content is
/// sniffed, not guessed from the name (<doc:KeyedArchiveNibs>).
public enum CompiledNib: Sendable {
  case nibArchive(NIBArchive)
  /// A keyed-archive nib, as its property list (`$archiver`, `$objects`, `$top` → `IB.objectdata`).
  case keyedArchive(PropertyListValue)
  /// A NeXT/OPENSTEP typedstream nib (`NSArchiver`), as its stream; ``NibGraph/init(typedStream:path:)``
  /// gives its graph.
  case typedStream(TypedStream)

  /// The files a nib folder may hold its objects in, in the order they are tried: macOS's
  /// `keyedobjects.nib`, then UIKit's `objects-8.0+.nib`, `objects.nib`, `runtime.nib`.
  public static let folderCandidates = ["keyedobjects.nib", "objects-8.0+.nib", "objects.nib", "runtime.nib"]

  /// Opens the nib at `path` (a file or a `.nib` folder).
  ///
  /// - Throws: ``InterfaceError``: `.notANib` when no candidate file exists or the bytes are
  ///   neither a NIBArchive, a typedstream nor a keyed archive, or the reader's error (with the
  ///   byte offset) for a damaged file.
  public init(
    contentsOf path: String, limits: NIBArchive.Limits = .default, environment: HostEnvironment = .current
  ) throws(InterfaceError) {
    let (file, bytes) = try Self.read(path, limits: limits, fileSystem: environment.fileSystem)
    if TypedStream.isTypedStream(bytes) {
      self = .typedStream(try TypedStream(bytes: bytes, path: file, limits: Self.typedStreamLimits(limits)))
      return
    }
    if NIBArchive.isNIBArchive(bytes) {
      do {
        self = .nibArchive(try NIBArchive(bytes: bytes, limits: limits))
      } catch {
        throw InterfaceError(error.code, path: file, offset: error.offset, detail: error.detail)
      }
      return
    }
    self = .keyedArchive(try Self.keyedArchive(bytes, file: file))
  }

  /// What a nib file holds, as the nib loader wants it: a NIBArchive's graph (read straight
  /// from the bytes by ``NibGraph/init(nibArchiveBytes:limits:)``, without the tables), or a
  /// keyed archive's property list. The same file, checks and errors as
  /// ``init(contentsOf:limits:)``.
  package enum Contents {
    case graph(NibGraph)
    case keyedArchive(PropertyListValue)
  }

  /// The nib at `path` (a file or a `.nib` folder), as ``Contents``.
  ///
  /// - Throws: ``InterfaceError``, as ``init(contentsOf:limits:)``.
  package static func contents(
    of path: String, limits: NIBArchive.Limits = .default, environment: HostEnvironment = .current
  ) throws(InterfaceError) -> Contents {
    let (file, bytes) = try read(path, limits: limits, fileSystem: environment.fileSystem)
    return try contents(ofBytes: bytes, file: file, limits: limits)
  }

  /// A nib's `bytes` as ``Contents`` (`file` names them in errors): the format told by its first
  /// bytes, as for a file.
  package static func contents(ofBytes bytes: [UInt8], file: String, limits: NIBArchive.Limits = .default) throws(InterfaceError) -> Contents {
    if TypedStream.isTypedStream(bytes) {
      return .graph(try NibGraph(typedStream: TypedStream(bytes: bytes, path: file, limits: typedStreamLimits(limits)), path: file))
    }
    if NIBArchive.isNIBArchive(bytes) {
      do {
        return .graph(try NibGraph(nibArchiveBytes: bytes, limits: limits))
      } catch {
        throw InterfaceError(error.code, path: file, offset: error.offset, detail: error.detail)
      }
    }
    return .keyedArchive(try keyedArchive(bytes, file: file))
  }

  /// The typedstream limits that go with a nib reader's: its byte count, and its entry count for
  /// objects and values.
  static func typedStreamLimits(_ limits: NIBArchive.Limits) -> TypedStream.Limits {
    TypedStream.Limits(
      maximumByteCount: limits.maximumByteCount, maximumObjectCount: min(limits.maximumEntryCount, TypedStream.Limits.default.maximumObjectCount),
      maximumValueCount: min(limits.maximumEntryCount, TypedStream.Limits.default.maximumValueCount))
  }

  /// The file a nib path names (the path, or the first candidate in a `.nib` folder) and its bytes.
  private static func read(
    _ path: String, limits: NIBArchive.Limits, fileSystem: any FileSystem
  ) throws(InterfaceError) -> (file: String, bytes: [UInt8]) {
    var file = path
    if fileSystem.isFolder(path) {
      guard let found = folderCandidates.map({ path + "/" + $0 }).first(where: fileSystem.exists) else {
        throw InterfaceError(
          .notANib, path: path, detail: "the nib folder holds none of \(folderCandidates.joined(separator: ", "))")
      }
      file = found
    }
    return (file, try fileBytes(at: file, limit: limits.maximumByteCount, what: "the nib", fileSystem: fileSystem))
  }

  /// A nib file's bytes that are not a NIBArchive, as a keyed archive's property list.
  private static func keyedArchive(_ bytes: [UInt8], file: String) throws(InterfaceError) -> PropertyListValue {
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes)
    } catch {
      throw InterfaceError(.notANib, path: file, detail: "neither a NIBArchive nor a keyed archive: \(error.description)", underlying: error)
    }
    guard value["$archiver"] != nil, value["$objects"]?.arrayValue != nil else {
      throw InterfaceError(.notANib, path: file, detail: "a property list, but not a keyed archive (no $archiver and $objects)")
    }
    return value
  }
}

/// A compiled storyboard: a `Name.storyboardc/` folder with an `Info.plist` (the initial
/// controller, identifier → nib name) and one nib per scene or view controller.
public struct CompiledStoryboard: Sendable {
  /// The folder's Info.plist (`NSStoryboardDesignatedEntryPointIdentifier`,
  /// `NSViewControllerIdentifiersToNibNames`, or the `UIStoryboard…` keys on iOS).
  public var info: PropertyListValue
  /// Every nib in the folder, by file name without `.nib`.
  public var nibs: [String: CompiledNib]

  /// Opens the compiled storyboard folder at `path`, through `environment`'s file system.
  ///
  /// - Throws: ``InterfaceError`` naming the Info.plist or the nib that could not be read.
  public init(
    contentsOf path: String, limits: NIBArchive.Limits = .default, environment: HostEnvironment = .current
  ) throws(InterfaceError) {
    do {
      info = try PropertyListValue(contentsOfFile: path + "/Info.plist", environment: environment)
    } catch {
      throw InterfaceError(.notANib, path: path + "/Info.plist", detail: "a compiled storyboard needs a readable Info.plist", underlying: error)
    }
    guard case .dictionary = info else {
      throw InterfaceError(.notANib, path: path + "/Info.plist", detail: "the Info.plist's root is not a dictionary")
    }
    nibs = [:]
    let names: [String]
    do {
      names = try environment.fileSystem.entryNames(inFolder: path)
    } catch {
      let reason = error.systemError.map { String(cString: strerror($0)) } ?? error.detail
      throw InterfaceError(.fileSystem, path: path, detail: "cannot list the folder: \(reason)")
    }
    for name in names.filter({ $0.hasSuffix(".nib") }).sorted() {
      nibs[String(name.dropLast(4))] = try CompiledNib(contentsOf: path + "/" + name, limits: limits, environment: environment)
    }
  }
}
