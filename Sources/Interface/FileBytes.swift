import StasisSystem

/// The bytes of the file at `path`, at most `limit` of them, read through `fileSystem`, for the
/// readers of this module; `what` names the contents in the error ("the nib", "the typedstream").
///
/// - Throws: ``InterfaceError`` `.limitExceeded` for a larger file, `.fileSystem` when it cannot
///   be read, naming the file.
func fileBytes(at path: String, limit: Int, what: String, fileSystem: any FileSystem) throws(InterfaceError) -> [UInt8] {
  do {
    return [UInt8](try fileSystem.read(contentsOfFile: path, limit: limit))
  } catch {
    throw InterfaceError(
      error.code == .tooLarge ? .limitExceeded : .fileSystem, path: path, detail: "cannot read \(what): \(error.detail)", underlying: error)
  }
}
