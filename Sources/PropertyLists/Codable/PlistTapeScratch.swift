import FoundationEssentials

/// What a `PropertyListEncoder` keeps from one document to the next for the tape encoder: the
/// sizes of the last document (capacity hints) and the working arrays — the tape's entries and
/// the binary flattener's arrays and uniquing tables — emptied, with their memory kept.
///
/// A document of 14 MB writes about 25 MB of these arrays. Fresh from `malloc`, that memory is
/// fresh pages from the kernel every time (glibc hands large blocks back as they are freed): a
/// page fault and a zeroed page per 4 KB, about a fifth of the time of a binary encode. An
/// encoder used again on documents of the same shape (the usual case: a store saved again and
/// again) writes them into memory it already has. The cost is that memory, held by the encoder
/// between documents, up to ``keptLimit`` (larger arrays are freed as before); an encoder used
/// from several threads at once lends it to one of them, the others allocate their own.
struct PlistTapeScratch {
  /// The last document's tape entries and output bytes.
  var tapeCount = 0
  var outputCount = 0
  var entries: [CodableTapeEntry] = []
  var flattener = BinaryPlistWriter.FlattenerScratch()
  /// The key shapes the tape encoder has learned and the XML writer's key orders for them
  /// (`nil`: none yet), kept so that each document does not learn them again.
  var keyShapes: PlistTapeKeyShapes?

  /// The most memory kept between documents, in bytes.
  static var keptLimit: Int { 64 << 20 }

  /// The bytes the arrays hold.
  var keptBytes: Int {
    entries.capacity * MemoryLayout<CodableTapeEntry>.stride + flattener.keptBytes
  }

  /// This scratch, lent to one encoding; the encoder keeps the hints and no arrays until it is
  /// given back (``giveBack(_:)``).
  mutating func lend() -> PlistTapeScratch {
    let lent = self
    self = PlistTapeScratch(tapeCount: tapeCount, outputCount: outputCount)
    return lent
  }

  /// Empties the arrays, keeping their memory (they must not be shared: an array emptied while
  /// shared would be copied into new memory), or frees them when they are over the limit.
  mutating func empty() {
    guard keptBytes <= Self.keptLimit else {
      self = PlistTapeScratch(
        tapeCount: tapeCount, outputCount: outputCount, keyShapes: keyShapes)
      return
    }
    // (The flattener's memory is emptied as the flattener gives it back.)
    entries.removeAll(keepingCapacity: true)
  }

  /// Takes back a lent scratch, emptied: its hints, and its arrays and key shapes unless another
  /// encoding gave its own back first.
  mutating func giveBack(_ lent: PlistTapeScratch) {
    tapeCount = lent.tapeCount
    outputCount = lent.outputCount
    if keyShapes == nil { keyShapes = lent.keyShapes }
    guard entries.capacity == 0, !flattener.holdsMemory else { return }
    entries = lent.entries
    flattener = lent.flattener
  }
}

/// The key shapes the tape encoder learned (`KeyTemplates`) and the XML writer's key orders for
/// their keys arrays, kept from one document to the next by a `PropertyListEncoder`.
///
/// Learned anew for every document, they were a fixed cost a small document felt most: the first
/// dictionary of each shape had its keys read back from the tape and checked for repeats, and
/// (XML) every shape's keys were sorted again, about 3 % of a binary encode of the benchmark's
/// small document and 5 % of an XML one. Kept, a document's dictionaries share the keys arrays of
/// the last one's, which the key-order cache recognizes. Both only ever guess: a template is
/// compared key by key before it is used, and an order belongs to one keys array's storage.
///
/// Unchecked: the scratch that holds it is lent to one encoding at a time, under the encoder's
/// lock, and an encoding uses it on one thread.
final class PlistTapeKeyShapes: @unchecked Sendable {
  let templates = KeyTemplates()
  var orders: XMLPlistWriter.KeyOrderCache?
}
