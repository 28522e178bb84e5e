import Foundation

// Codable structs for the item-store documents that Tests/Fixtures/bench/gen_data.py writes.
// The same field names as Tests/TestSupport/ItemStore.swift (the benchmark cannot depend on a test
// target, so the shape is written out again here). Optional fields are the ones the generator
// leaves out for some items (`notes`, `parentID`).

/// The root dictionary of a `plist-{small,medium,large}` document.
struct ItemStore: Codable, Sendable {
  var version: Int
  var generatedAt: Date
  var config: Config
  var categories: [Category]
  var items: [Item]
}

struct Config: Codable, Sendable {
  var appName: String
  var build: String
  var debug: Bool
  var features: [String: Bool]
  var limits: [String: Int]
  var servers: [Server]
  var localized: [String: String]
  var ratios: [Double]
  var blob: Data
  var updatedAt: Date
}

struct Server: Codable, Sendable {
  var host: String
  var port: Int
  var weights: [Double]
  var enabled: Bool
}

struct Category: Codable, Sendable {
  var name: String
  var code: Int
}

struct Item: Codable, Sendable {
  var id: Int
  var name: String
  var serialNumber: String
  var valueInDollars: Int
  var price: Double
  var inStock: Bool
  var dateCreated: Date
  var tags: [String]
  var notes: String?
  var thumbnail: Data
  var dimensions: Dimensions
  var ratings: [Int]
  var attributes: [String: String]
  var parentID: Int?
}

struct Dimensions: Codable, Sendable {
  var width: Double
  var height: Double
  var depth: Double
}
