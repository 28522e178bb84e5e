import Foundation
import StasisSystem
import Testing
import TestSupport

@testable import PropertyLists

/// The binary tree writer's kept working memory (`BinaryPlistWriter.MemoryPool`) is freed on
/// request and on a memory warning, and a document written afterwards is unchanged.
@Suite("Releasing the binary writer's working memory")
struct EncodingMemoryReleaseTests {
  /// A pool of its own (the shared one is used by every test running alongside): a large document
  /// leaves megabytes in it; a purge frees them all; the next document gives the same bytes.
  @Test func aPurgeFreesTheMemoryALargeDocumentLeft() throws {
    let pool = BinaryPlistWriter.MemoryPool(limit: 64 << 20)
    let empty = pool.keptBytes
    var rng = SplitMix64(seed: 7)
    let large = WriterWorkingMemoryTests.large(&rng, count: 20_000)
    let output = try BinaryPlistWriter.output(large, pool: pool)
    let first = output.bytes()
    output.release()
    #expect(pool.keptBytes > 1 << 20, "kept \(pool.keptBytes) bytes")
    pool.purge()
    #expect(pool.keptBytes == empty)
    let again = try BinaryPlistWriter.output(large, pool: pool)
    #expect(again.bytes() == first)
    again.release()
  }

  /// Memory lent to a document when the purge comes is not kept when the document is done.
  @Test func memoryLentDuringAPurgeIsNotTakenBack() {
    let pool = BinaryPlistWriter.MemoryPool(limit: 64 << 20)
    let empty = pool.keptBytes
    var (scratch, generation) = pool.borrow()
    scratch.references.reserveCapacity(1 << 18)
    pool.purge()
    pool.giveBack(scratch, generation: generation)
    #expect(pool.keptBytes == empty)
    // Lent and given back with no purge between, it is kept.
    (scratch, generation) = pool.borrow()
    scratch.references.reserveCapacity(1 << 18)
    pool.giveBack(scratch, generation: generation)
    #expect(pool.keptBytes >= (1 << 18) * MemoryLayout<Int>.stride)
  }

  /// More than the pool's limit is freed when its document is done: nothing is kept (the next
  /// document starts from empty memory).
  @Test func memoryOverTheLimitIsNotKept() throws {
    let pool = BinaryPlistWriter.MemoryPool(limit: 1 << 16)
    var rng = SplitMix64(seed: 8)
    try BinaryPlistWriter.output(WriterWorkingMemoryTests.large(&rng, count: 5_000), pool: pool).release()
    #expect(pool.keptBytes == 0)
  }

  /// The shared pool is in the process's purgeable registry (the app's lifecycle purges it on a
  /// memory warning), and both the registry and the public call purge it.
  @Test func theSharedPoolIsPurgedOnAMemoryWarning() throws {
    _ = try PropertyListValue.array([.string("warm")]).encoded(as: .binary)
    let shared = BinaryPlistWriter.MemoryPool.shared
    #expect(PurgeableRegistry.shared.members.contains { $0 === shared })
    // (Other tests may deliver memory warnings meanwhile: the count only ever goes up.)
    let before = shared.purgeCount
    PurgeableRegistry.shared.purgeAll()
    let afterWarning = shared.purgeCount
    #expect(afterWarning > before)
    PropertyListValue.releaseEncodingMemory()
    #expect(shared.purgeCount > afterWarning)
  }
}
