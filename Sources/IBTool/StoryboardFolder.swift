import AtomicFiles
import Interface
import InterfaceBuilder
import PropertyLists

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a compiled storyboard as a `.storyboardc` folder — `Info.plist` (binary) and one nib
/// per entry — all at once: the folder is built beside the destination under a temporary name
/// and renamed into place, so a reader never sees half of it and an old folder is kept whole
/// until the new one is complete.
enum StoryboardFolder {
  static func write(_ storyboard: CompiledStoryboardOutput, to path: String) throws(IBToolError) {
    var files: [String: NibGraph] = [:]
    for (name, graph) in storyboard.nibs { files[name + ".nib"] = graph }
    try write(files, info: storyboard.info, to: path)
  }

  /// Writes a folder of nibs (by file name) and, for a storyboard, its `Info.plist`, the same way:
  /// a UIKit nib folder (`runtime.nib`, `objects-11.0+.nib`) too.
  static func write(_ nibs: [String: NibGraph], info: PropertyListValue?, to path: String) throws(IBToolError) {
    let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
    let temporary = folder + ".tmp-\(getpid())"
    func fail(_ detail: String) -> IBToolError {
      removeTree(temporary)
      return IBToolError(path: folder, detail: detail)
    }
    removeTree(temporary)
    guard mkdir(temporary, 0o755) == 0 else {
      throw IBToolError(path: temporary, detail: "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    do {
      if let info { try info.write(toFile: temporary + "/Info.plist", format: .binary) }
      for (name, graph) in nibs {
        try NIBArchive(graph, keepingUnreachable: false).write(toFile: temporary + "/" + name)
      }
    } catch {
      throw fail("cannot write the compiled \(info == nil ? "nib" : "storyboard"): \(error)")
    }
    let old = folder + ".old-\(getpid())"
    var status = stat()
    let existed = lstat(folder, &status) == 0
    if existed, rename(folder, old) != 0 { throw fail("cannot move the old folder aside: \(String(cString: strerror(errno)))") }
    guard rename(temporary, folder) == 0 else {
      let reason = String(cString: strerror(errno))
      if existed { _ = rename(old, folder) }
      throw fail("cannot move the new folder into place: \(reason)")
    }
    if existed { removeTree(old) }
  }

  /// Removes a folder of plain files (what this tool writes), quietly.
  static func removeTree(_ path: String) {
    guard let names = AtomicFile.entryNames(inFolder: path) else {
      unlink(path)
      return
    }
    for name in names { unlink(path + "/" + name) }
    rmdir(path)
  }
}
