internal import Synchronization

extension BinaryPlistWriter {
  /// The binary flattener's working memory — its object, reference and pending arrays, its text
  /// store and its uniquing tables — kept, emptied, from one document to the next.
  ///
  /// Fresh from `malloc`, that memory is fresh pages from the kernel for every document (glibc
  /// hands the blocks back as they are freed, and shrinks the heap): `perf` put a quarter of the
  /// time of writing the 1.3 MB benchmark document into page faults and `brk`, and a fifth of the
  /// flattener's own time into growing the number table step by step (each step a new table and
  /// every value hashed again). Kept, the arrays are written into memory already mapped, and the
  /// tables start at the size the last document needed (documents written one after another are
  /// usually alike), capped by what this one can need, so they seldom grow.
  ///
  /// The tree writer (`PropertyListValue.encoded(as: .binary)`, the keyed archiver) keeps one in
  /// ``shared``, up to ``sharedLimit``; a `PropertyListEncoder` keeps its own (``PlistTapeScratch``).
  struct FlattenerScratch {
    var objects: [Object] = []
    var text = TextStore()
    var references: [Int] = []
    var pending: [Int] = []
    var uniques = UniquingTable()
    var keyNumbers = KeyNumbers()

    /// The bytes held.
    var keptBytes: Int {
      objects.capacity * MemoryLayout<Object>.stride + text.bytes.reservedCount
        + (references.capacity + pending.capacity) * MemoryLayout<Int>.stride + uniques.keptBytes + keyNumbers.keptBytes
    }

    /// Whether a document was written in this memory (a new scratch holds only its text store's
    /// first few bytes).
    var holdsMemory: Bool { objects.capacity > 0 }

    /// The scratch of the tree writer, lent to one document at a time; `nil` while lent (a
    /// document written meanwhile on another thread starts from empty memory of its own).
    static let shared = Mutex<FlattenerScratch?>(FlattenerScratch())

    /// The most memory ``shared`` keeps between documents, as much as a `PropertyListEncoder`
    /// keeps (``PlistTapeScratch/keptLimit``): enough for the 14 MB benchmark document. The
    /// memory of larger documents is freed as before.
    static var sharedLimit: Int { PlistTapeScratch.keptLimit }

    /// Takes ``shared`` (or an empty scratch when another document has it).
    static func borrowShared() -> FlattenerScratch {
      shared.withLock { kept in
        defer { kept = nil }
        return kept ?? FlattenerScratch()
      }
    }

    /// Gives a scratch back to ``shared`` (emptied by ``BinaryPlistWriter/Flattener/giveBack(to:)``),
    /// unless it is over ``sharedLimit`` or another one went back first.
    static func returnShared(_ scratch: FlattenerScratch) {
      guard scratch.keptBytes <= sharedLimit else { return }
      shared.withLock { kept in
        if kept == nil { kept = scratch }
      }
    }
  }
}

extension BinaryPlistWriter.Flattener {
  /// A flattener working in `scratch`'s memory, which is left empty until ``giveBack(to:)``.
  init(reusing scratch: inout BinaryPlistWriter.FlattenerScratch) {
    self.init()
    exchangeMemory(with: &scratch)
  }

  /// Swaps the working memory with `scratch`'s.
  private mutating func exchangeMemory(with scratch: inout BinaryPlistWriter.FlattenerScratch) {
    swap(&objects, &scratch.objects)
    swap(&text, &scratch.text)
    swap(&references, &scratch.references)
    swap(&pending, &scratch.pending)
    swap(&uniques, &scratch.uniques)
    swap(&keyNumbers, &scratch.keyNumbers)
  }

  /// Whether the working memory is new (no document was written in it yet).
  var isFresh: Bool { objects.capacity == 0 }

  /// Sizes `references` for `count` references and `objects` for one more (every object but the
  /// top one is referenced at least once), so that neither is copied into a larger buffer as it
  /// grows (each copy also took fresh pages from the kernel: a keyed archive of 100,000 objects
  /// grew them through some 60 MB it then threw away); only what is used is ever touched.
  mutating func reserve(references count: Int) {
    references.reserveCapacity(count)
    objects.reserveCapacity(count + 1)
  }

  /// Empties the working memory (the tables are emptied for a document like this one) and moves
  /// it back into `scratch`.
  mutating func giveBack(to scratch: inout BinaryPlistWriter.FlattenerScratch) {
    objects.removeAll(keepingCapacity: true)
    text.bytes.removeAll()
    references.removeAll(keepingCapacity: true)
    pending.removeAll(keepingCapacity: true)
    uniques.removeAllForNextDocument()
    keyNumbers.removeAll()
    exchangeMemory(with: &scratch)
  }
}
