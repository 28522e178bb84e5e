// FuzzSnapshot: reads each input as a restoration snapshot (formats 1, 2 and 3), plainly and in
// secure mode. An input that throws RestorationError is fine; one that reads must archive again
// (as the current format, 3) and read back to the same nodes — paths, kinds, classes, versions,
// sizes and states — and the same metadata. Build and run: Fuzz/README.md.
import Foundation
import FuzzSupport
import Restoration

@c(LLVMFuzzerTestOneInput)
public func fuzzSnapshot(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Data(UnsafeBufferPointer(start: data, count: size))
  _ = try? Snapshot(data: bytes, secure: true)
  guard let snapshot = try? Snapshot(data: bytes) else { return 0 }
  let again: Snapshot
  do {
    again = try Snapshot(data: try snapshot.archivedData())
  } catch {
    fatalError("[FuzzSnapshot] round-trip failure: the snapshot read does not archive and read back: \(error)")
  }
  guard again.nodes.count == snapshot.nodes.count else { fatalError("[FuzzSnapshot] round-trip failure: node count") }
  for (theirs, ours) in zip(again.nodes, snapshot.nodes) {
    guard theirs.path == ours.path, theirs.kind == ours.kind, theirs.className == ours.className,
      theirs.restorationClassName == ours.restorationClassName, theirs.storyboardName == ours.storyboardName,
      theirs.storyboardIdentifier == ours.storyboardIdentifier, theirs.stateVersion == ours.stateVersion,
      theirs.stateBytes == ours.stateBytes, theirs.state.keys.sorted() == ours.state.keys.sorted()
    else {
      fatalError(
        "[FuzzSnapshot] round-trip failure: node \(ours.path) reads back as \(theirs.path) \(theirs.kind) \(theirs.className) "
          + "\(theirs.restorationClassName ?? "-") \(theirs.storyboardName ?? "-")/\(theirs.storyboardIdentifier ?? "-") v\(theirs.stateVersion) "
          + "\(theirs.stateBytes) bytes \(theirs.state.keys.sorted()), was \(ours.kind) \(ours.className) \(ours.restorationClassName ?? "-") "
          + "\(ours.storyboardName ?? "-")/\(ours.storyboardIdentifier ?? "-") v\(ours.stateVersion) \(ours.stateBytes) bytes \(ours.state.keys.sorted())")
    }
    for (key, value) in ours.state where canonical(theirs.state[key] ?? "(missing)") != canonical(value) {
      fatalError("[FuzzSnapshot] round-trip failure: \(ours.path) \(key) reads back differently")
    }
  }
  guard again.metadata.sequence == snapshot.metadata.sequence, again.metadata.bundleVersion == snapshot.metadata.bundleVersion else {
    fatalError("[FuzzSnapshot] round-trip failure: metadata")
  }
  return 0
}

/// A value's description with dictionaries and sets in a fixed order (two equal dictionaries
/// built apart can list their entries in different orders).
func canonical(_ value: Any) -> String {
  switch value {
  case let list as [Any]: return "[" + list.map(canonical).joined(separator: ", ") + "]"
  case let dictionary as [AnyHashable: Any]:
    return "{" + dictionary.map { canonical($0.key.base) + ": " + canonical($0.value) }.sorted().joined(separator: ", ") + "}"
  case let set as Set<AnyHashable>: return "set(" + set.map { canonical($0.base) }.sorted().joined(separator: ", ") + ")"
  default: return String(describing: value)
  }
}

runLibFuzzer(fuzzSnapshot)
