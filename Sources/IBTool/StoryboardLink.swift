import StasisSystem
import FoundationEssentials
import Interface

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ibtool --link DIR A.storyboardc…`, the storyboard link step of Xcode's build
/// (swift-build's and xcbuild's `IBStoryboardLinker`: `--link $(UnlocalizedProductResourcesDir)`
/// followed by the compiled storyboards): each compiled storyboard is copied into the product
/// folder `DIR`, inside the same `.lproj` folder it was compiled into (`Base.lproj/Main.storyboardc`
/// → `DIR/Base.lproj/Main.storyboardc`), or straight into `DIR` when it was not in one. Each is
/// read first (its Info.plist and every nib it names), so a folder that is not a compiled storyboard
/// is an error and nothing of it is copied; each copy replaces an old one in a single step
/// (`FileSystem/replaceFolder(_:fill:)`).
enum StoryboardLink {
  /// The largest file copied (a compiled nib is far smaller).
  static let maximumFileSize = 256 << 20

  /// Links `inputs` into `directory`.
  static func link(_ inputs: [String], into directory: String, environment: HostEnvironment) throws(IBToolError) {
    guard !inputs.isEmpty else { throw IBToolError(path: nil, detail: "--link \(directory): no compiled storyboard (.storyboardc) to link") }
    guard environment.fileSystem.isFolder(directory) else {
      throw IBToolError(path: directory, detail: "--link: the product folder does not exist")
    }
    for input in inputs {
      let source = input.hasSuffix("/") ? String(input.dropLast()) : input
      guard source.hasSuffix(".storyboardc") else {
        throw IBToolError(path: input, detail: "--link takes compiled storyboards (.storyboardc folders)")
      }
      do {
        _ = try CompiledStoryboard(contentsOf: source, environment: environment)
      } catch {
        throw IBToolError(path: input, detail: "not a compiled storyboard: \(error)")
      }
      try copyFolder(source, to: destination(of: source, in: directory), fileSystem: environment.fileSystem)
    }
  }

  /// Where `source` goes in `directory`: under its `.lproj` folder, if it is in one.
  static func destination(of source: String, in directory: String) -> String {
    let parts = source.split(separator: "/")
    let name = String(parts.last ?? Substring(source))
    let folder = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    if parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") {
      return folder + "/" + parts[parts.count - 2] + "/" + name
    }
    return folder + "/" + name
  }

  /// Copies the folder `source` (files and folders of files) to `destination`: built beside it
  /// under a temporary name, then swapped with the old folder in one step.
  static func copyFolder(_ source: String, to destination: String, fileSystem: any FileSystem) throws(IBToolError) {
    let parent = SystemCalls.split(destination).folder
    do {
      try fileSystem.makeFolder(parent, permissions: 0o755)
    } catch where error.code == .alreadyExists {
    } catch {
      throw IBToolError(path: parent, detail: "cannot create the folder: \(reason(error))")
    }
    do {
      try fileSystem.replaceFolder(destination) { temporary in try copyContents(of: source, into: temporary, fileSystem: fileSystem) }
    } catch let error as IBToolError {
      throw error
    } catch let error as AtomicFileError {
      throw IBToolError(path: destination, detail: "cannot move the linked storyboard into place: \(reason(error))")
    } catch {
      throw IBToolError(path: destination, detail: "cannot move the linked storyboard into place: \(error)")
    }
  }

  /// Copies the entries of the folder `source` into the existing folder `destination`.
  static func copyContents(of source: String, into destination: String, fileSystem: any FileSystem) throws(IBToolError) {
    let entries: [FolderEntry]
    do {
      entries = try fileSystem.entries(inFolder: source)
    } catch {
      throw IBToolError(path: source, detail: "cannot list the folder")
    }
    for entry in entries.sorted(by: { $0.name < $1.name }) {
      let from = source + "/" + entry.name, to = destination + "/" + entry.name
      let kind: FileKind
      do {
        kind = try fileSystem.status(of: from, followingLinks: false).kind
      } catch {
        throw IBToolError(path: from, detail: reason(error))
      }
      switch kind {
      case .folder:
        do {
          try fileSystem.makeFolder(to, permissions: 0o755)
        } catch {
          throw IBToolError(path: to, detail: "cannot create the folder: \(reason(error))")
        }
        try copyContents(of: from, into: to, fileSystem: fileSystem)
      case .file:
        do {
          try fileSystem.writeUnflushed(try fileSystem.read(contentsOfFile: from, limit: maximumFileSize), toFile: to, permissions: nil)
        } catch {
          throw IBToolError(path: from, detail: "cannot copy: \(error)")
        }
      default: throw IBToolError(path: from, detail: "neither a file nor a folder")
      }
    }
  }

  /// The system's words for a failed call (`strerror`), else the step that failed.
  static func reason(_ error: AtomicFileError) -> String {
    error.systemError.map { String(cString: strerror($0)) } ?? error.detail
  }
}
