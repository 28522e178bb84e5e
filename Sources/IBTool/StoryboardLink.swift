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
/// is an error and nothing of it is copied; each copy replaces an old one in a single rename.
enum StoryboardLink {
  /// The largest file copied (a compiled nib is far smaller).
  static let maximumFileSize = 256 << 20

  /// Links `inputs` into `directory`.
  static func link(_ inputs: [String], into directory: String) throws(IBToolError) {
    guard !inputs.isEmpty else { throw IBToolError(path: nil, detail: "--link \(directory): no compiled storyboard (.storyboardc) to link") }
    var status = stat()
    guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
      throw IBToolError(path: directory, detail: "--link: the product folder does not exist")
    }
    for input in inputs {
      let source = input.hasSuffix("/") ? String(input.dropLast()) : input
      guard source.hasSuffix(".storyboardc") else {
        throw IBToolError(path: input, detail: "--link takes compiled storyboards (.storyboardc folders)")
      }
      do {
        _ = try CompiledStoryboard(contentsOf: source)
      } catch {
        throw IBToolError(path: input, detail: "not a compiled storyboard: \(error)")
      }
      try copyFolder(source, to: destination(of: source, in: directory))
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
  /// under a temporary name, then renamed into place (an old folder is replaced whole).
  static func copyFolder(_ source: String, to destination: String) throws(IBToolError) {
    let parent = destination.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if !parent.isEmpty, mkdir(parent, 0o755) != 0, errno != EEXIST {
      throw IBToolError(path: parent, detail: "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    let temporary = destination + ".tmp-\(getpid())"
    removeTree(temporary)
    do throws(IBToolError) {
      try copyTree(source, to: temporary)
    } catch {
      removeTree(temporary)
      throw error
    }
    let old = destination + ".old-\(getpid())"
    var status = stat()
    let existed = lstat(destination, &status) == 0
    if existed, rename(destination, old) != 0 {
      removeTree(temporary)
      throw IBToolError(path: destination, detail: "cannot move the old folder aside: \(String(cString: strerror(errno)))")
    }
    guard rename(temporary, destination) == 0 else {
      let reason = String(cString: strerror(errno))
      if existed { _ = rename(old, destination) }
      removeTree(temporary)
      throw IBToolError(path: destination, detail: "cannot move the linked storyboard into place: \(reason)")
    }
    if existed { removeTree(old) }
  }

  static func copyTree(_ source: String, to destination: String) throws(IBToolError) {
    guard mkdir(destination, 0o755) == 0 else {
      throw IBToolError(path: destination, detail: "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    guard let names = AtomicFile.entryNames(inFolder: source) else {
      throw IBToolError(path: source, detail: "cannot list the folder")
    }
    for name in names.sorted() {
      let from = source + "/" + name, to = destination + "/" + name
      var status = stat()
      guard lstat(from, &status) == 0 else { throw IBToolError(path: from, detail: String(cString: strerror(errno))) }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: try copyTree(from, to: to)
      case S_IFREG:
        do {
          try AtomicFile.write(try AtomicFile.read(contentsOfFile: from, limit: maximumFileSize), toFile: to)
        } catch {
          throw IBToolError(path: from, detail: "cannot copy: \(error)")
        }
      default: throw IBToolError(path: from, detail: "neither a file nor a folder")
      }
    }
  }

  /// Removes a folder tree this step made, quietly.
  static func removeTree(_ path: String) {
    for name in AtomicFile.entryNames(inFolder: path) ?? [] {
      let child = path + "/" + name
      var status = stat()
      if lstat(child, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { removeTree(child) } else { unlink(child) }
    }
    rmdir(path)
  }
}
