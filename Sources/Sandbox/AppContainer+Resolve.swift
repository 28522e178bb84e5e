import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AppContainer {
  /// The absolute path of `relativePath` inside the container, refusing every path that would
  /// lead out of it.
  ///
  /// `relativePath` is taken from the container's home; a leading `~/` means the home too (as
  /// ``searchPaths(for:expandTilde:)`` returns without tilde expansion). Each component that
  /// exists is checked on disk: a symbolic link is followed to its final target, which must be
  /// inside the container; `..` may climb within the container but never above its home.
  /// Components that do not exist yet are taken as written. The result is the physical path,
  /// with the links inside the container resolved. The checks go through the container's
  /// ``fileSystem`` (`lstat` and `realpath(3)` on the real one).
  ///
  /// The check is made when this is called; it cannot stop a process that swaps a folder for a
  /// link afterwards.
  ///
  /// - Throws: ``SandboxError``: `.escapesContainer` for an absolute path, `..` above the home,
  ///   or a link leading out (or to nothing, so it cannot be checked); `.invalidPath` for an empty
  ///   path, a NUL byte, `~user`, or a name or path too long for the file system; `.fileSystem`
  ///   when a component cannot be inspected.
  public func resolve(_ relativePath: String) throws(SandboxError) -> String {
    let shown = relativePath.replacingNUL()
    func refuse(_ code: SandboxError.Code, _ detail: String) -> SandboxError {
      SandboxError(code, path: shown, detail: detail)
    }
    guard !relativePath.isEmpty else { throw refuse(.invalidPath, "the path is empty") }
    guard !relativePath.utf8.contains(0) else { throw refuse(.invalidPath, "the path contains a NUL byte") }
    guard relativePath.utf8.count < Int(PATH_MAX) else { throw refuse(.invalidPath, "the path is longer than \(PATH_MAX) bytes") }
    var rest = Substring(relativePath)
    if rest.hasPrefix("~") {
      guard rest == "~" || rest.hasPrefix("~/") else { throw refuse(.invalidPath, "'~user' paths name another user's home") }
      rest = rest.dropFirst()
    } else if rest.hasPrefix("/") {
      throw refuse(.escapesContainer, "an absolute path is not inside the container")
    }
    let home: String
    do {
      home = try fileSystem.resolvedPath(homePath)
    } catch {
      throw refuse(.fileSystem, "the container's home \(homePath) cannot be resolved: \(error)")
    }

    var current = home  // a physical folder inside the container that exists
    var pending: [Substring] = []  // components after the first one that does not exist
    for component in rest.split(separator: "/") where component != "." {
      guard component.utf8.count <= Int(NAME_MAX) else { throw refuse(.invalidPath, "a name is longer than \(NAME_MAX) bytes") }
      if component == ".." {
        if !pending.isEmpty {
          pending.removeLast()
        } else {
          guard current != home else { throw refuse(.escapesContainer, "'..' leads above the container's home") }
          current = String(current[..<current.utf8.lastIndex(of: UInt8(ascii: "/"))!])
        }
        continue
      }
      if !pending.isEmpty {
        pending.append(component)
        continue
      }
      let candidate = current + "/" + component
      let kind: FileKind
      do {
        kind = try fileSystem.status(of: candidate, followingLinks: false).kind
      } catch where error.code == .notFound {
        // Missing from here on (ENOENT), or a file used as a folder (ENOTDIR): taken as written.
        pending.append(component)
        continue
      } catch {
        throw refuse(.fileSystem, "cannot inspect \(candidate): \(error)")
      }
      guard kind == .symbolicLink else {
        current = candidate
        continue
      }
      let target: String
      do {
        target = try fileSystem.resolvedPath(candidate)
      } catch {
        throw refuse(.escapesContainer, "the symbolic link \(candidate) cannot be followed (\(error)), so where it leads cannot be checked")
      }
      guard Self.isInside(target, home) else {
        throw refuse(.escapesContainer, "the symbolic link \(candidate) leads out of the container, to \(target)")
      }
      current = target
    }
    let resolved = ([current] + pending.map(String.init)).joined(separator: "/")
    guard resolved.utf8.count < Int(PATH_MAX) else { throw refuse(.invalidPath, "the resolved path is longer than \(PATH_MAX) bytes") }
    return resolved
  }

  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "/" || path == folder || path.hasPrefix(folder + "/")
  }
}
