public import FoundationEssentials
public import StasisSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension InMemoryFileSystem {
  /// The plain write of `AtomicFile.writeUnflushed`: open (create or truncate), then write, each
  /// one call; nothing is flushed, so a power cut takes the file back to its last flush.
  public func writeUnflushed(_ data: Data, toFile path: String, permissions: UInt32?) throws(AtomicFileError) {
    let file = try call("cannot create the file", path, changesDisk: true) { (tree) throws(AtomicFileError) -> Int in
      let place = try tree.locate(path, followingLast: true)
      guard place.name != "." else { throw AtomicFileError(.notAFile, path: path, detail: "the path names a folder, not a file") }
      if let node = place.node {
        guard case .file(let data, let flushed, _, let modified) = tree.nodes[node] else {
          throw .system(EISDIR, "cannot create the file", path: path)
        }
        if let permissions { tree.nodes[node] = .file(data: data, flushed: flushed, permissions: permissions, modified: modified) }
        tree.setData(Data(), of: node)
        return node
      }
      let node = tree.add(.file(data: Data(), flushed: nil, permissions: permissions ?? 0o644, modified: tree.tick))
      tree.setEntry(place.name, in: place.folder, to: node)
      return node
    }
    try call("cannot write the file", path, changesDisk: true) { $0.setData(data, of: file) }
  }

  /// The flush of a new folder's tree before it takes its place (`AtomicFolder.flushTree`): one
  /// call per file and folder, each folder after its entries, a failure naming `reported`.
  func flushTree(_ root: String, reportedAs reported: String) throws(AtomicFileError) {
    let entries = try call("cannot open the new folder to flush it to disk", reported, changesDisk: false) {
      (tree) throws(AtomicFileError) -> [(path: String, node: Int)] in
      guard let node = try tree.locate(root, followingLast: true).node else {
        throw .system(ENOENT, "cannot open the new folder to flush it to disk", path: reported)
      }
      return tree.entriesDepthFirst(from: node)
    }
    for (relative, node) in entries {
      try call("cannot flush \(relative.isEmpty ? "the new folder" : relative) to disk", reported, changesDisk: true) { $0.flush(node) }
    }
  }
}
