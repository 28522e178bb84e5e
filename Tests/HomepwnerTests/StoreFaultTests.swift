import Foundation
import HomepwnerKit
import StasisSystem
import StasisSystemTesting
import Testing
import TestSupport

/// Homepwner's item store and image store on a disk that fails at each call in turn and crashes
/// after each call (see ``FaultSweep``): the archive and the photos are the old ones or the new
/// ones, a failure names the file, and the next launch finds no debris.
@Suite struct StoreFaultTests {
  static let documents = "/containers/com.bignerdranch.Homepwner/Documents"
  static let archive = documents + "/items.archive"

  /// Eight items with fixed keys and dates (a seeded generator for the rest).
  static func items(seed: UInt64) -> [Item] {
    var random = SplitMix64(seed: seed)
    return (0..<8).map { index in
      let drawn = Item.random(using: &random, date: Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 3600))
      return Item(
        itemName: drawn.itemName, serialNumber: drawn.serialNumber, valueInDollars: drawn.valueInDollars, dateCreated: drawn.dateCreated,
        itemKey: "item-\(index)")
    }
  }

  /// A disk holding an archive of ``items(seed:)`` written by the store itself.
  static func seedArchive(_ disk: InMemoryFileSystem) throws {
    disk.seedFolder(documents)
    let store = ItemStore(archivePath: archive, environment: HostEnvironment(fileSystem: disk))
    for item in items(seed: 32) { store.createItem(item) }
    try store.save()
  }

  /// The launch and edit the sweep runs: load, rename one item, remove one, add one, save. It
  /// gives the same list whether it starts from the old archive or from its own result, so a
  /// rerun after a write that had already landed writes the same bytes.
  static func editAndSave(_ environment: HostEnvironment) throws {
    let store = ItemStore(archivePath: archive, environment: environment)
    if let problem = store.loadProblem { throw problem }
    store.item(withKey: "item-2")?.itemName = "Renamed Spork"
    store.item(withKey: "item-2")?.valueInDollars = 77
    if let gone = store.item(withKey: "item-4") { store.remove(gone) }
    if store.item(withKey: "item-new") == nil {
      store.createItem(Item(itemName: "New Bear", serialNumber: "0A1B2", valueInDollars: 5, dateCreated: Date(timeIntervalSinceReferenceDate: 710_000_000), itemKey: "item-new"))
    }
    try store.save()
  }

  @Test("The item store's archive survives every fault and crash while it is loaded and saved")
  func itemStore() throws {
    let sweep = FaultSweep("Homepwner item store", targets: [Self.archive], prepare: Self.seedArchive, write: Self.editAndSave)
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }

  @Test("The image store's photos survive every fault and crash while they are replaced, added and deleted")
  func imageStore() throws {
    var random = SplitMix64(seed: 0x5eed_0032)
    func photo(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
    let old = (photo(3000), photo(500))
    let new = (photo(4000), photo(700))
    let paths = ["item-1", "item-2", "item-3"].map { Self.documents + "/" + $0 + ".image" }
    let sweep = FaultSweep(
      "Homepwner image store", targets: paths,
      prepare: { disk in
        disk.seed(Data(old.0), atFile: paths[0])
        disk.seed(Data(old.1), atFile: paths[2])
      },
      write: { environment in
        let images = ImageStore(folder: Self.documents, environment: environment)
        try images.setImage(new.0, forKey: "item-1")
        try images.setImage(new.1, forKey: "item-2")
        try images.deleteImage(forKey: "item-3")
      })
    let outcome = try sweep.run()
    #expect(outcome.violations.isEmpty, "\(outcome)")
    #expect(outcome.failedWrites > 0, "\(outcome)")
  }

  @Test("A read error at launch is tried again: the intact archive is loaded, never set aside")
  func transientReadErrorIsRetried() throws {
    for kind in [FileFault.Kind.ioError, .permissionDenied] {
      let disk = InMemoryFileSystem()
      try Self.seedArchive(disk)
      let before = disk.file(Self.archive)
      disk.inject(.at(disk.callCount + 1, kind))
      let store = ItemStore(archivePath: Self.archive, environment: HostEnvironment(fileSystem: disk))
      #expect(store.loadProblem == nil, "\(kind)")
      #expect(store.allItems.map(\.itemKey) == (0..<8).map { "item-\($0)" }, "\(kind)")
      #expect(disk.file(Self.archive) == before)
      #expect(!disk.allPaths.contains { $0.contains("unreadable") }, "\(disk.allPaths)")
    }
  }

  @Test("An archive that cannot be read at all stays in place, is reported naming it, and is not saved over")
  func persistentReadErrorKeepsTheArchive() throws {
    let disk = InMemoryFileSystem()
    try Self.seedArchive(disk)
    let before = disk.file(Self.archive)
    disk.inject(.from(disk.callCount + 1, .ioError))
    let store = ItemStore(archivePath: Self.archive, environment: HostEnvironment(fileSystem: disk))
    let problem = try #require(store.loadProblem)
    #expect(problem.code == .unreadable)
    #expect(problem.description.hasPrefix(Self.archive + ": "), "\(problem)")
    #expect(problem.description.contains(String(cString: strerror(EIO))), "\(problem)")
    store.createItem(Item(itemName: "Typed since", serialNumber: "", valueInDollars: 1, itemKey: "item-typed"))
    let error = try #require(throws: HomepwnerError.self) { try store.save() }
    #expect(error.code == .writeFailed && error.description.hasPrefix(Self.archive + ": "), "\(error)")
    let after = disk.restarted(after: .processKill)
    #expect(after.file(Self.archive) == before)
    #expect(after.allPaths.filter { $0.hasPrefix(Self.documents + "/") && !$0.hasSuffix("/") } == [Self.archive], "\(after.allPaths)")
  }
}
