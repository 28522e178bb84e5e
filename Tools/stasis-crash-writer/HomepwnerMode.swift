import FoundationEssentials
import HomepwnerKit
import StasisSystem

/// `--mode homepwner --documents DIR --what items|images --count N --seed S`: Homepwner's stores
/// as the app uses them, for the fault harness to interrupt.
///
/// - `items`: launches the item store on `DIR/items.archive` (a failed load is a failure), makes
///   its list exactly `item-0` … `item-<N-1>` — each existing item's fields set, the others
///   removed, the missing ones added — with names, serial numbers, values and dates drawn from
///   `S`, and saves. Prints `ITEMS <N>`.
/// - `images`: stores the photos of `item-0` … `item-<N-1>` (bytes drawn from `S` and the key,
///   1 to 16 KB), then deletes those of `item-<N>` … `item-<N+3>`. Prints `IMAGES <N>`.
///
/// Both give the same files whether they start from the old ones or from their own result, so a
/// rerun after an interrupted run writes exactly what a clean run does.
enum HomepwnerMode: CrashWriterMode {
  static let name = "homepwner"

  static func run(_ arguments: WriterArguments) throws {
    let documents = try arguments.required("--documents")
    let count = try arguments.integer("--count", default: 8)
    let seed = try arguments.integer("--seed", default: 1)
    switch try arguments.required("--what") {
    case "items": try saveItems(archive: documents + "/items.archive", count: count, seed: seed)
    case "images": try saveImages(folder: documents, count: count, seed: seed)
    case let other: throw WriterFailure("--what wants items or images, not \(other)")
    }
  }

  static func saveItems(archive: String, count: Int, seed: Int) throws {
    let store = ItemStore(archivePath: archive)
    if let problem = store.loadProblem { throw problem }
    let keys = (0..<count).map { "item-\($0)" }
    for item in store.allItems where !keys.contains(item.itemKey) { store.remove(item) }
    for (index, key) in keys.enumerated() {
      // The item's fields drawn from the seed and its index (bytes of a crash record's payload).
      let drawn = [UInt8](CrashRecord.payload(version: seed * 1000 + index, count: 12))
      func number(_ at: Int, below bound: Int) -> Int { (Int(drawn[at]) << 8 | Int(drawn[at + 1])) % bound }
      let name = ["Fluffy", "Rusty", "Shiny"][number(0, below: 3)] + " " + ["Bear", "Spork", "Mac"][number(2, below: 3)]
      let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
      let serial = String(drawn[4..<9].map { alphabet[Int($0) % alphabet.count] })
      let date = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(number(9, below: 10_000) * 1000))
      let item: Item
      if let existing = store.item(withKey: key) {
        item = existing
      } else {
        item = store.createItem(Item(itemName: "", serialNumber: "", valueInDollars: 0, dateCreated: date, itemKey: key))
      }
      item.itemName = name
      item.serialNumber = serial
      item.valueInDollars = number(10, below: 1000)
      item.dateCreated = date
    }
    try store.save()
    print("ITEMS \(store.allItems.count)")
  }

  static func saveImages(folder: String, count: Int, seed: Int) throws {
    let images = ImageStore(folder: folder)
    for index in 0..<count {
      let version = seed * 1000 + index
      let size = 1024 + (version * 7919) % (15 * 1024)
      try images.setImage([UInt8](CrashRecord.payload(version: version, count: size)), forKey: "item-\(index)")
    }
    for index in count..<(count + 4) { try images.deleteImage(forKey: "item-\(index)") }
    print("IMAGES \(count)")
  }
}
