import BenchSupport
import Foundation
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

/// Peak memory while loading and decoding one document, measured in a fresh child process per
/// system (`plist-bench --memory-child SYSTEM PATH ITEMS`), so that one system's heap does not
/// colour another's.
struct MemoryResult {
  var system: SystemID
  /// Resident set before the document was read from disk, in bytes.
  var residentBefore: Int
  /// Resident set once the document's bytes were in memory.
  var residentLoaded: Int
  /// Peak resident set (VmHWM) after loading and decoding, with the result still alive.
  var peak: Int
  /// Whether the peak could be reset before loading (`/proc/self/clear_refs` ← 5).
  var peakWasReset: Bool

  /// Peak memory above the starting point: the document's bytes plus everything the decoder used.
  var peakExtra: Int { peak - residentBefore }
  /// Peak memory above the loaded document: what decoding alone added.
  var decodeExtra: Int { peak - residentLoaded }
}

/// The child side: warm up, then load, decode, report. Prints one line of `key=value` pairs.
///
/// The warm-up reads and decodes `warmUpPath` (a small document) with the same system first, so
/// that the code pages and one-time tables of the system and of file reading are resident before
/// the baseline is taken and do not count as the large document's cost.
func runMemoryChild(system: SystemID, path: String, expectedItems: Int, warmUpPath: String) throws -> Never {
  let format: DocumentFormat = path.hasSuffix(".xml") ? .xml : .binary
  if !warmUpPath.isEmpty {
    _ = try decodeForMemory(system, try Data(contentsOf: URL(fileURLWithPath: warmUpPath)), format)
  }
  let wasReset = resetPeakResident()
  let before = procStatus("VmRSS") ?? 0
  let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
  let loaded = procStatus("VmRSS") ?? 0
  let (count, keepAlive) = try decodeForMemory(system, bytes, format)
  let peak = procStatus("VmHWM") ?? 0
  guard count == expectedItems else {
    throw CheckFailure("\(system.title) decoded \(count) items, expected \(expectedItems)")
  }
  print("before=\(before) loaded=\(loaded) peak=\(peak) reset=\(wasReset ? 1 : 0)")
  withExtendedLifetime(keepAlive) {}
  withExtendedLifetime(bytes) {}
  exit(0)
}

/// Decodes with `system`; returns the item count and the result, to be kept alive.
func decodeForMemory(_ system: SystemID, _ bytes: Data, _ format: DocumentFormat) throws -> (Int, Any) {
  let count: Int
  let keepAlive: Any
  switch system {
  case .stasis:
    let value = try stasisDecode(bytes, format)
    count = value["items"]?.arrayValue?.count ?? -1
    keepAlive = value
  case .stasisCodable:
    let store = try stasisCodableDecode(bytes)
    count = store.items.count
    keepAlive = store
  case .foundationPLS:
    let object = try foundationDecode(bytes)
    count = foundationItemCount(object)
    keepAlive = object
  case .foundationCodable:
    let store = try Foundation.PropertyListDecoder().decode(ItemStore.self, from: bytes)
    count = store.items.count
    keepAlive = store
  case .libplist:
    let tree = try LibplistTree(bytes, format)
    count = tree.itemCount
    keepAlive = tree
  case .rustPlist, .rustSerde:
    throw Unavailable("\(system.title) is measured by the Rust peer's own memory child")
  }
  return (count, keepAlive)
}

/// The parent side: runs the child for `system` and parses its line.
/// The Rust peer's systems run the peer's own memory child (the same arguments and report).
func measureMemory(system: SystemID, document: Document, warmUpPath: String, rustPeer: URL?) throws -> MemoryResult {
  var executable: URL? = nil
  if system.isExternal {
    guard let rustPeer else { throw Unavailable("Rust peer not built (Benchmarks/run.sh builds it)") }
    executable = rustPeer
  }
  let outcome = try spawnMemoryChild(
    executable: executable,
    arguments: ["--memory-child", system.rawValue, document.path, String(document.expectedItems), warmUpPath])
  let fields: [String: Int]
  switch outcome {
  case .failed(let status, let message):
    if message.contains("not built yet") { throw Unavailable(message) }
    throw CheckFailure("memory child for \(system.title) failed (\(status)): \(message)")
  case .report(let report):
    fields = report
  }
  guard let before = fields["before"], let loaded = fields["loaded"], let peak = fields["peak"] else {
    throw CheckFailure("memory child for \(system.title) printed \(fields)")
  }
  return MemoryResult(
    system: system, residentBefore: before, residentLoaded: loaded, peak: peak, peakWasReset: fields["reset"] == 1)
}
