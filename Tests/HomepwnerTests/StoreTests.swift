import Foundation
import HomepwnerKit
import KeyedArchive
import PropertyLists
import StasisSystem
import Lifecycle
import Testing
import TestSupport

@MainActor
@Suite("Homepwner's stores: items archived as BNRItem, photos cached and purged")
struct StoreTests {
  let scratch: ScratchFolder
  init() throws { scratch = try ScratchFolder("homepwner") }

  @Test("Items round-trip through Documents/items.archive, in order, with the book's class name and keys")
  func itemsRoundTrip() throws {
    var random = SplitMix64(seed: 19)
    let store = ItemStore(archivePath: scratch.file("items.archive"))
    for _ in 0..<25 { store.createItem(Item.random(using: &random, date: Date(timeIntervalSinceReferenceDate: 700_000_000))) }
    store.moveItem(from: 3, to: 0)
    store.remove(store.allItems[7])
    try store.save()
    let again = ItemStore(archivePath: scratch.file("items.archive"))
    #expect(again.loadProblem == nil)
    #expect(again.allItems.map(\.itemKey) == store.allItems.map(\.itemKey))
    #expect(again.allItems.map(\.itemName) == store.allItems.map(\.itemName))
    #expect(again.allItems.map(\.valueInDollars) == store.allItems.map(\.valueInDollars))
    #expect(again.allItems.first?.dateCreated == Date(timeIntervalSinceReferenceDate: 700_000_000))
    // What Apple's NSKeyedUnarchiver sees: BNRItem objects with the book's keys.
    let data = try Data(contentsOf: URL(fileURLWithPath: scratch.file("items.archive")))
    let top = try #require(try PropertyListValue(decoding: data).dictionaryValue)
    let objects = try #require(top["$objects"]?.arrayValue)
    let classNames = objects.compactMap { $0.dictionaryValue?["$classname"]?.stringValue }
    #expect(classNames.contains("BNRItem"))
    let firstItem = try #require(objects.compactMap(\.dictionaryValue).first { $0["itemKey"] != nil })
    #expect(Set(firstItem.keys).isSuperset(of: ["itemName", "serialNumber", "valueInDollars", "dateCreated", "itemKey", "$class"]))
  }

  @Test("An unreadable archive is kept aside, never deleted; the store starts empty and says why")
  func unreadableArchive() throws {
    try Data("not an archive".utf8).write(to: URL(fileURLWithPath: scratch.file("items.archive")))
    let store = ItemStore(archivePath: scratch.file("items.archive"))
    #expect(store.allItems.isEmpty)
    #expect(store.loadProblem?.code == .unreadable)
    let kept = try scratch.contents().filter { $0.hasPrefix("items.archive.unreadable-") }
    #expect(kept.count == 1)
    #expect(try scratch.read(kept[0]) == Array("not an archive".utf8))
  }

  @Test("Photos: stored by item key, cached, purged by a memory warning, read again from disk, with type and size from the header")
  func imagesPurgedAndReloaded() throws {
    let images = ImageStore(folder: scratch.path)
    // A PNG header: signature, IHDR of 640 × 480.
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 2, 128, 0, 0, 1, 224, 8, 2, 0, 0, 0]
    try images.setImage(png, forKey: "item-1")
    #expect(images.cachedCount == 1)
    let lifecycle = ApplicationLifecycle(delegate: Quiet(), notificationCenter: NotificationCenter())
    lifecycle.registerPurgeable(images)
    try lifecycle.launch()
    lifecycle.simulateMemoryWarning()
    #expect(images.cachedCount == 0)
    let reloaded = try #require(images.image(forKey: "item-1"))
    #expect(images.diskReads == 1)
    #expect(reloaded.kind == .png)
    #expect(reloaded.pixelSize?.width == 640 && reloaded.pixelSize?.height == 480)
    #expect(reloaded.summary == "PNG, 640 × 480, 1 KB")
    _ = images.image(forKey: "item-1")
    #expect(images.diskReads == 1)
    try images.deleteImage(forKey: "item-1")
    #expect(images.image(forKey: "item-1") == nil)
  }

  @Test("JPEG and GIF sizes come from their headers; random bytes are an unknown image")
  func imageHeaders() {
    let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 0, 0, 0xFF, 0xC0, 0, 17, 8, 0, 120, 0, 160, 3]
    #expect(StoredImage(bytes: jpeg).kind == .jpeg)
    #expect(StoredImage(bytes: jpeg).pixelSize?.width == 160 && StoredImage(bytes: jpeg).pixelSize?.height == 120)
    let gif: [UInt8] = Array("GIF89a".utf8) + [0x20, 0x01, 0x10, 0x00]
    #expect(StoredImage(bytes: gif).pixelSize?.width == 288 && StoredImage(bytes: gif).pixelSize?.height == 16)
    #expect(StoredImage(bytes: [1, 2, 3]).kind == .unknown)
    #expect(StoredImage(bytes: [0xFF, 0xD8, 0xFF]).pixelSize == nil)
  }
}

final class Quiet: ApplicationDelegate {}
