import Foundation

// The Rust peer (Benchmarks/RustPeer, Docs/plist-rust-peer.md: the `plist` crate from Debian's librust-plist-dev, through
// its `Value` tree and through serde): a program of its own that speaks the worker protocol of
// Workers.swift, so the parent interleaves its cells with every other system's. It times the codec
// alone, in its own process, on the same clock; process start-up and reading the documents fall
// outside the timed iterations, as they do for this executable's workers. Its decoders are checked
// there against the reference fingerprint the parent hands over; its encoders' output is written
// to a folder and read back here through Foundation, as every other encoder's is.

/// Where run.sh builds the peer, relative to the benchmark package (the current directory when
/// run.sh runs) or to the repository root.
func defaultRustPeer() -> URL? {
  for path in ["RustPeer/target/release/plist-rust-peer", "Benchmarks/RustPeer/target/release/plist-rust-peer"]
  where FileManager.default.isExecutableFile(atPath: path) {
    return URL(fileURLWithPath: path)
  }
  return nil
}

/// The peer's executable and a fresh folder for its encoders' output.
func prepareRustPeer(_ options: Options) throws -> (executable: URL, outputs: URL) {
  guard let executable = options.rustPeer, FileManager.default.isExecutableFile(atPath: executable.path) else {
    throw Unavailable("Rust peer not built (Benchmarks/run.sh builds Benchmarks/RustPeer with cargo)")
  }
  let outputs = FileManager.default.temporaryDirectory.appendingPathComponent(
    "plist-rust-peer-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
  try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
  return (executable, outputs)
}

/// Reads back (through Foundation) what the peer's encode cell `cell` wrote.
func verifyPeerOutput(_ outputs: URL, cell: Int, key: CellKey, label: String, options: Options) throws {
  guard let reference = options.references[key.dataset] else { throw CheckFailure("no reference fingerprint for \(key.dataset)") }
  let path = outputs.appendingPathComponent("cell-\(cell).out").path
  guard let output = FileManager.default.contents(atPath: path) else {
    throw CheckFailure("the Rust peer left no output for \(label) at \(path)")
  }
  let document = Document(
    dataset: key.dataset, format: key.benchmark.format, path: path, bytes: Data(), expectedItems: reference.items,
    expectedCategories: reference.categories)
  try verifyEncoded(output, reference, key.system, document)
}

/// The `plist` crate's version, from the peer's Cargo.lock (next to its target folder).
func rustPlistVersion(_ peer: URL?) -> String {
  guard let peer else { return "not built" }
  let lock = peer.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Cargo.lock")
  guard let text = try? String(contentsOf: lock, encoding: .utf8) else { return "version unknown" }
  let lines = text.split(separator: "\n")
  for (index, line) in lines.enumerated() where line == "name = \"plist\"" && index + 1 < lines.count {
    return lines[index + 1].replacingOccurrences(of: "version = ", with: "").replacingOccurrences(of: "\"", with: "")
  }
  return "version unknown"
}
