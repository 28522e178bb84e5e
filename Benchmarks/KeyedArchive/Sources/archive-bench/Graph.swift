import Foundation

/// The numbers of the item-store graph of GRAPH.md, computed from its formulas (not from any
/// system's output), and what every decoded graph is checked against.
struct GraphExpectation {
  let itemCount: Int
  let valueSum: Int
  /// Items with `children` (cycle parents).
  let parentCount: Int

  init(itemCount: Int) {
    self.itemCount = itemCount
    var sum: Int64 = 0
    for i in 0..<itemCount { sum += Int64(graphHash(i) % 100_000) - 5000 }
    valueSum = Int(sum)
    parentCount = stride(from: 0, to: itemCount, by: 1000).filter { $0 + 2 < itemCount }.count
  }
}

/// `h = (i * 2654435761) mod 2^32`, unsigned 64-bit arithmetic.
@inline(__always)
func graphHash(_ i: Int) -> UInt64 { UInt64(i) &* 2_654_435_761 % (1 << 32) }

/// The fields of item `i`, shared by both systems' builders.
struct ItemFields {
  let name: String
  let serialNumber: String
  let valueInDollars: Int64
  let dateCreated: Date
  let categoryIndex: Int

  init(_ i: Int) {
    let h = graphHash(i)
    name = i % 10 == 7 ? "商品 \(i) 🎁" : "Item \(i)"
    let hex = String(h, radix: 16, uppercase: true)
    serialNumber = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
    valueInDollars = Int64(h % 100_000) - 5000
    dateCreated = Date(timeIntervalSinceReferenceDate: Double(700_000_000 + 37 * i))
    categoryIndex = Int(h % 50)
  }
}

func categoryName(_ c: Int) -> String { c < 10 ? "Category-0\(c)" : "Category-\(c)" }

/// Indices of cycle parents: `i % 1000 == 0 && i + 2 < N`.
func cycleParents(_ count: Int) -> [Int] { stride(from: 0, to: count, by: 1000).filter { $0 + 2 < count } }

struct CheckFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Checks a decoded graph, given in a system-neutral shape: a fast wrong answer fails.
func verifyGraph(
  _ expected: GraphExpectation, storeName: String, categories: [AnyObject], itemCount: Int, valueSum: Int,
  itemCategories: [AnyObject?], parentLinks: [(parent: AnyObject, childrensParents: [AnyObject?])], system: String
) throws {
  func require(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure("\(system): \(what())") }
  }
  try require(storeName == "Store", "store name \(storeName.debugDescription)")
  try require(itemCount == expected.itemCount, "\(itemCount) items, expected \(expected.itemCount)")
  try require(categories.count == 50, "\(categories.count) categories, expected 50")
  try require(valueSum == expected.valueSum, "sum(valueInDollars) \(valueSum), expected \(expected.valueSum)")
  let known = Set(categories.map(ObjectIdentifier.init))
  var distinct = Set<ObjectIdentifier>()
  for category in itemCategories {
    guard let category else { throw CheckFailure("\(system): an item without a category") }
    distinct.insert(ObjectIdentifier(category))
  }
  try require(distinct.count == 50, "\(distinct.count) distinct Category objects, expected 50")
  try require(distinct == known, "items' categories are not the store's Category objects")
  try require(parentLinks.count == expected.parentCount, "\(parentLinks.count) cycle parents, expected \(expected.parentCount)")
  for link in parentLinks {
    try require(link.childrensParents.count == 2, "a cycle parent with \(link.childrensParents.count) children")
    for childsParent in link.childrensParents {
      try require(childsParent === link.parent, "a child's parent is not (===) the parent that lists it")
    }
  }
}
