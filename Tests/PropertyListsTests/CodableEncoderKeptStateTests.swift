import Foundation
import Synchronization
import Testing
import TestSupport

@testable import PropertyLists

// What the Codable encoder keeps between documents (key shapes, XML key orders, working
// memory) and between structs (keyed containers handed out again): a document that fails half
// way, or one that makes the encoder give up half way, must leave nothing that changes the next
// document's bytes; and one encoder shared by several threads must give each document a fresh
// encoder's bytes (the kept state is lent to one encoding at a time).

/// A record of the item store's shapes that throws from inside a nested struct, after some of its
/// siblings and its own first keys are on the tape.
private struct Failing: Encodable {
  struct Boom: Error {}
  struct Inner: Encodable {
    var fail: Bool
    enum CodingKeys: String, CodingKey { case first, second, third }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .first)
      if fail { throw Boom() }
      try container.encode("two", forKey: .second)
      try container.encode([3.0], forKey: .third)
    }
  }
  var inners: [Inner]
}

/// A struct that asks for a nested keyed container (which the tape encoder gives up on: the tree
/// path writes the document) half way through a list of structs of the same key type.
private struct GivingUp: Encodable {
  struct Inner: Encodable {
    var nest: Bool
    enum CodingKeys: String, CodingKey { case first, second, third }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(1, forKey: .first)
      if nest {
        var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .second)
        try nested.encode(2, forKey: .first)
      } else {
        try container.encode("two", forKey: .second)
      }
      try container.encode([3.0], forKey: .third)
    }
  }
  var inners: [Inner]
}

@Suite("The Codable encoder's kept state after failures and across threads")
struct CodableEncoderKeptStateTests {
  private static let formats: [PropertyLists.PropertyListFormat] = [.binary, .xml]

  private static func fresh(_ format: PropertyLists.PropertyListFormat) -> PropertyLists.PropertyListEncoder {
    let encoder = PropertyLists.PropertyListEncoder()
    encoder.outputFormat = format
    return encoder
  }

  @Test("a document that throws or gives up half way leaves the next documents' bytes alone", arguments: 0..<4 as Range<UInt64>)
  func failureHalfWay(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    for format in Self.formats {
      let reused = Self.fresh(format)
      for round in 0..<12 {
        let count = 1 + Int(random.next() % 40)
        let breakAt = Int(random.next() % UInt64(count))
        switch random.next() % 4 {
        case 0:
          let failing = Failing(inners: (0..<count).map { Failing.Inner(fail: $0 == breakAt) })
          #expect(throws: EncodingError.self) { try reused.encode(failing) }
        case 1:
          let givingUp = GivingUp(inners: (0..<count).map { GivingUp.Inner(nest: $0 == breakAt) })
          #expect(try reused.encode(givingUp) == Self.fresh(format).encode(givingUp), "seed \(seed), round \(round), \(format)")
        case 2:
          let whole = Failing(inners: (0..<count).map { _ in Failing.Inner(fail: false) })
          #expect(try reused.encode(whole) == Self.fresh(format).encode(whole), "seed \(seed), round \(round), \(format)")
        default:
          let store = ItemStore.generate(seed: random.next() % 50, itemCount: 1 + Int(random.next() % 30))
          #expect(try reused.encode(store) == Self.fresh(format).encode(store), "seed \(seed), round \(round), \(format)")
        }
      }
    }
  }

  @Test("one encoder shared by four threads gives every document a fresh encoder's bytes", arguments: [UInt64(11), 12])
  func sharedAcrossThreads(seed: UInt64) throws {
    for format in Self.formats {
      // Documents of several shapes, with the bytes a fresh encoder gives each.
      var random = SplitMix64(seed: seed)
      let stores = (0..<6).map { _ in ItemStore.generate(seed: random.next() % 1000, itemCount: 1 + Int(random.next() % 60)) }
      let expected = try stores.map { try Self.fresh(format).encode($0) }
      let shared = Self.fresh(format)
      let mismatches = Mutex(0)
      DispatchQueue.concurrentPerform(iterations: 4) { thread in
        var order = SplitMix64(seed: seed &* 31 &+ UInt64(thread))
        for _ in 0..<40 {
          let index = Int(order.next() % UInt64(stores.count))
          let bytes = try? shared.encode(stores[index])
          if bytes != expected[index] { mismatches.withLock { $0 += 1 } }
        }
      }
      #expect(mismatches.withLock { $0 } == 0, "seed \(seed), \(format)")
    }
  }
}
