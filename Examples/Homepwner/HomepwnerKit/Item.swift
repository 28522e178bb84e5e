public import FoundationEssentials
public import KeyedArchive

/// One possession in the inventory (the book's `BNRItem`): a name, a serial number, a value in
/// dollars, the date it was created, and the key of its photo in the ``ImageStore``.
///
/// Archived under the class name `BNRItem` with the book's keys (`itemName`, `serialNumber`,
/// `valueInDollars`, `dateCreated`, `itemKey`), so an archive written by the book's iOS app and
/// one written here read the same (``HomepwnerArchive/registry``).
public final class Item: ArchiveEncodable, ArchiveDecodable {
  public var itemName: String
  public var serialNumber: String
  public var valueInDollars: Int
  /// When the item was created; the date editor (``DateViewController``) changes it.
  public var dateCreated: Date
  /// The item's identity and the key of its photo (`itemKey`, a UUID string).
  public let itemKey: String

  public init(itemName: String, serialNumber: String, valueInDollars: Int, dateCreated: Date = Date(), itemKey: String = UUID().uuidString) {
    self.itemName = itemName
    self.serialNumber = serialNumber
    self.valueInDollars = valueInDollars
    self.dateCreated = dateCreated
    self.itemKey = itemKey
  }

  /// `initWithCoder:`.
  public init(coder: ArchiveDecoder) throws {
    itemName = try coder.decode(String.self, forKey: "itemName") ?? ""
    serialNumber = try coder.decode(String.self, forKey: "serialNumber") ?? ""
    valueInDollars = try coder.decodeInteger(Int.self, forKey: "valueInDollars")
    dateCreated = try coder.decode(Date.self, forKey: "dateCreated") ?? Date(timeIntervalSinceReferenceDate: 0)
    itemKey = try coder.decode(String.self, forKey: "itemKey") ?? UUID().uuidString
  }

  /// `encodeWithCoder:`.
  public func encode(with coder: ArchiveEncoder) throws {
    try coder.encode(itemName, forKey: "itemName")
    try coder.encode(serialNumber, forKey: "serialNumber")
    coder.encode(valueInDollars, forKey: "valueInDollars")
    try coder.encode(dateCreated, forKey: "dateCreated")
    try coder.encode(itemKey, forKey: "itemKey")
  }

  /// A random item as the book's `+randomItem` makes one ("Shiny Bear", a serial like `4F2K5`, $0–99).
  public static func random(using random: inout some RandomNumberGenerator, date: Date = Date()) -> Item {
    let adjectives = ["Fluffy", "Rusty", "Shiny"]
    let nouns = ["Bear", "Spork", "Mac"]
    let name = "\(adjectives.randomElement(using: &random)!) \(nouns.randomElement(using: &random)!)"
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let serial = String((0..<5).map { index in index % 2 == 0 ? Character(String(Int.random(in: 0...9, using: &random))) : alphabet.randomElement(using: &random)! })
    return Item(itemName: name, serialNumber: serial, valueInDollars: Int.random(in: 0..<100, using: &random), dateCreated: date)
  }
}

/// The class names Homepwner's archives use.
public enum HomepwnerArchive {
  /// Foundation's classes and ``Item`` as `BNRItem` (secure decoding allowed).
  public static let registry: ArchiveClassRegistry = {
    var registry = ArchiveClassRegistry.foundation
    registry.register(Item.self, as: "BNRItem", supportsSecureCoding: true)
    return registry
  }()
}
