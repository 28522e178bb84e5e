internal import Synchronization
internal import StasisSystem

extension BinaryPlistWriter {
  /// The binary flattener's working memory — its object, reference and pending arrays, its text
  /// store and its uniquing tables — which the flattener holds as ``Flattener/memory`` and which
  /// can be kept, emptied, from one document to the next (the rest of the flattener's state is the
  /// document's own and starts anew).
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
  /// ``MemoryPool/shared``; a `PropertyListEncoder` keeps its own (``PlistTapeScratch``).
  struct FlattenerScratch {
    var objects: [Object] = []
    /// The strings and data among `objects` laid out as bytes; the objects hold their offsets.
    var text = TextStore()
    /// Container references, each container's run contiguous (for dictionaries: keys, then values).
    var references: [Int] = []
    /// Scratch stack where children's numbers gather until their container is complete.
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

    /// Empties everything, keeping the memory (the tables are emptied for a document like the
    /// one just written).
    mutating func empty() {
      objects.removeAll(keepingCapacity: true)
      text.bytes.removeAll()
      references.removeAll(keepingCapacity: true)
      pending.removeAll(keepingCapacity: true)
      uniques.removeAllForNextDocument()
      keyNumbers.removeAll()
    }
  }

  /// Working memory kept between documents for writers that do not keep their own (the tree
  /// writer and the keyed archiver), lent to one document at a time: a document written meanwhile
  /// on another thread starts from empty memory of its own. It holds at most ``limit`` bytes (the
  /// memory of larger documents is freed as before) and frees what it holds on a memory warning
  /// (``purge()``: the pool registers itself in the process's `PurgeableRegistry`, which the app's
  /// lifecycle purges on every warning).
  final class MemoryPool: Purgeable, Sendable {
    private struct State {
      var kept: FlattenerScratch? = FlattenerScratch()
      /// Advanced by every purge, so that memory lent before one is not taken back after it.
      var generation = 0
    }
    private let state = Mutex(State())
    /// The most memory kept between documents, in bytes.
    let limit: Int

    /// The tree writer's pool, up to what a `PropertyListEncoder` keeps
    /// (``PlistTapeScratch/keptLimit``: enough for the 14 MB benchmark document).
    static let shared: MemoryPool = {
      let pool = MemoryPool(limit: PlistTapeScratch.keptLimit)
      PurgeableRegistry.shared.register(pool)
      return pool
    }()

    init(limit: Int) { self.limit = limit }

    /// Lends the kept memory (or an empty scratch when another document has it), with the
    /// generation to give it back under.
    func borrow() -> (scratch: FlattenerScratch, generation: Int) {
      state.withLock { state in
        defer { state.kept = nil }
        return (state.kept ?? FlattenerScratch(), state.generation)
      }
    }

    /// Takes back memory lent under `generation` (emptied by
    /// ``BinaryPlistWriter/Flattener/giveBack(to:)``), unless it is over ``limit``, a purge came
    /// since it was lent, or another document's memory went back first.
    func giveBack(_ scratch: FlattenerScratch, generation: Int) {
      guard scratch.keptBytes <= limit else { return }
      state.withLock { state in
        if state.kept == nil, state.generation == generation { state.kept = scratch }
      }
    }

    /// The bytes kept now (0 while lent).
    var keptBytes: Int { state.withLock { $0.kept?.keptBytes ?? 0 } }

    /// How many times the pool was purged.
    var purgeCount: Int { state.withLock { $0.generation } }

    /// Frees the kept memory; memory lent now is freed when its document is done.
    func purge() {
      // The memory is handed out of the lock and freed there.
      _ = state.withLock { state -> FlattenerScratch? in
        state.generation &+= 1
        defer { state.kept = FlattenerScratch() }
        return state.kept
      }
    }
  }
}

extension BinaryPlistWriter.Flattener {
  /// A flattener working in `scratch`'s memory, which is left empty until ``giveBack(to:)``.
  init(reusing scratch: inout BinaryPlistWriter.FlattenerScratch) {
    self.init()
    swap(&memory, &scratch)
  }

  /// Whether the working memory is new (no document was written in it yet).
  var isFresh: Bool { !memory.holdsMemory }

  /// Sizes `references` for `count` references and `objects` for one more (every object but the
  /// top one is referenced at least once), so that neither is copied into a larger buffer as it
  /// grows (each copy also took fresh pages from the kernel: a keyed archive of 100,000 objects
  /// grew them through some 60 MB it then threw away); only what is used is ever touched.
  mutating func reserve(references count: Int) {
    memory.references.reserveCapacity(count)
    memory.objects.reserveCapacity(count + 1)
  }

  /// Empties the working memory and moves it back into `scratch`.
  mutating func giveBack(to scratch: inout BinaryPlistWriter.FlattenerScratch) {
    memory.empty()
    swap(&memory, &scratch)
  }
}

extension PropertyListValue {
  /// Frees the working memory the binary writer keeps from one document to the next when values
  /// are encoded with `encoded(as: .binary)` or archived with the keyed archiver (up to 64 MB
  /// after a large document: its object and reference arrays, the strings' bytes and the
  /// uniquing tables, kept so that the next document is written into memory already mapped).
  /// The next binary document allocates afresh. A `PropertyListEncoder` keeps its own memory,
  /// freed with the encoder.
  ///
  /// The app's lifecycle calls this on every memory warning (`didReceiveMemoryWarning`, through
  /// the process's `PurgeableRegistry`); an app calls it itself after writing a large document it
  /// will not write again soon.
  public static func releaseEncodingMemory() {
    BinaryPlistWriter.MemoryPool.shared.purge()
  }
}
