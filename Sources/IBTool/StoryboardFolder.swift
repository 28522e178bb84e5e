import StasisSystem
import Interface
import InterfaceBuilder
import PropertyLists
import FoundationEssentials

/// Writes a compiled storyboard as a `.storyboardc` folder — `Info.plist` (binary) and one nib
/// per entry — all at once through the environment's `FileSystem/replaceFolder(_:fill:)`
/// (`AtomicFolder` on the real disk): the folder is built beside the destination
/// under a temporary name, its files written plainly and flushed once as a whole, and swapped with the old one in a single step (`renameat2` with
/// `RENAME_EXCHANGE`), so a reader never sees half of it and the destination never goes missing;
/// a dead run's temporary folder is swept by the next.
enum StoryboardFolder {
  static func write(_ storyboard: CompiledStoryboardOutput, to path: String, environment: HostEnvironment) throws(IBToolError) {
    var files: [String: NibGraph] = [:]
    for (name, graph) in storyboard.nibs { files[name + ".nib"] = graph }
    try write(files, info: storyboard.info, to: path, environment: environment)
  }

  /// Writes a folder of nibs (by file name) and, for a storyboard, its `Info.plist`, the same way:
  /// a UIKit nib folder (`runtime.nib`, `objects-11.0+.nib`) too.
  static func write(
    _ nibs: [String: NibGraph], info: PropertyListValue?, to path: String, environment: HostEnvironment
  ) throws(IBToolError) {
    let folder = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    do {
      try environment.fileSystem.replaceFolder(folder) { temporary in
        // Written plainly: the folder is flushed as a whole before it takes its place.
        let fileSystem = environment.fileSystem
        do {
          if let info { try fileSystem.writeUnflushed(try info.encoded(as: .binary), toFile: temporary + "/Info.plist", permissions: nil) }
          for (name, graph) in nibs.sorted(by: { $0.key < $1.key }) {
            let bytes = Data(NIBArchive(graph, keepingUnreachable: false).encoded())
            try fileSystem.writeUnflushed(bytes, toFile: temporary + "/" + name, permissions: nil)
          }
        } catch {
          // The file inside the private temporary folder, named as it will be in the destination.
          throw IBToolError(path: nil, detail: fileSystemMessage(error).replacing(temporary, with: folder))
        }
      }
    } catch let error as IBToolError {
      throw error
    } catch {
      throw IBToolError(path: nil, detail: fileSystemMessage(error))
    }
  }

  /// The message of a failed write: the file-system error at the root of `error` when there is
  /// one (it names the file, the step and the system's reason, once each), else `error`'s own.
  static func fileSystemMessage(_ error: any Error) -> String {
    if let stasis = error as? any StasisError, let disk = stasis.cause(AtomicFileError.self) { return disk.description }
    return "\(error)"
  }
}
