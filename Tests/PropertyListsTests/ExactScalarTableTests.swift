import Testing
import TestSupport

@testable import PropertyLists

/// The keyed archiver's table of `$objects` scalars, past the size from which it writes the slots
/// of new entries in runs (a table of 2^18 slots and more): every value met again, whether its
/// entry is written already or still waits, gets its first number, and nothing new is found.
@Suite("Exact scalar table")
struct ExactScalarTableTests {
  /// Seeded runs of 150,000–210,000 scalars: new strings, strings met a few values before (whose
  /// slots may still wait), strings met long before, and numbers (`-0.0` beside `0.0`, a float
  /// beside the same double), checked against a plain dictionary of first numbers.
  @Test(arguments: 0..<3 as Range<UInt64>)
  func valuesMetAgainGetTheirFirstNumber(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var table = ExactScalarTable()
    var stored: [PropertyListValue] = []
    var firstNumbers: [Key: UInt64] = [:]
    let count = 150_000 + Int(seed) * 30_000
    for index in 0..<count {
      let value = Self.value(at: index, stored: stored, rng: &rng)
      let number = table.number(for: value, storedAt: { stored[Int($0)] }) {
        stored.append(value)
        return UInt64(stored.count - 1)
      }
      let key = Key(value)
      if let first = firstNumbers[key] {
        #expect(number == first, "seed \(seed), value \(index) (\(value)) met again")
      } else {
        #expect(number == UInt64(stored.count - 1), "seed \(seed), value \(index) (\(value)) is new")
        firstNumbers[key] = number
      }
    }
    #expect(stored.count == firstNumbers.count)
    for (number, value) in stored.enumerated() where number % 7 == 0 {
      #expect(table.existingNumber(for: value, storedAt: { stored[Int($0)] }) == UInt64(number))
    }
    #expect(table.existingNumber(for: .string("never written"), storedAt: { stored[Int($0)] }) == nil)
  }

  /// A new string, one of the last few values (a slot that may still wait), an older one, or a
  /// number whose exact form matters.
  static func value(at index: Int, stored: [PropertyListValue], rng: inout SplitMix64) -> PropertyListValue {
    switch rng.next() % 16 {
    case 0 where !stored.isEmpty: return stored[stored.count - 1 - Int(rng.next() % UInt64(Swift.min(stored.count, 20)))]
    case 1 where !stored.isEmpty: return stored[Int(rng.next() % UInt64(stored.count))]
    case 2: return .real(rng.next() % 2 == 0 ? 0.0 : -0.0)
    case 3: return .real(Double(rng.next() % 64) / 4, width: rng.next() % 2 == 0 ? .single : .double)
    case 4: return .integer(PropertyListInteger(Int64(rng.next() % 512) - 256))
    default: return .string("s\(index)-\(rng.next() % 1_000_000)")
    }
  }

  /// A value under the table's exact equality: strings by their UTF-8 bytes (all ASCII here),
  /// reals by bit pattern and width, integers by value.
  struct Key: Hashable {
    let text: String
    init(_ value: PropertyListValue) {
      switch value {
      case .string(let string): text = "s" + string
      case .real(let number, let width): text = "r\(number.bitPattern) \(width == .single)"
      case .integer(let integer): text = "i\(integer.bitPattern) \(integer.isNegative)"
      default: text = "\(value)"
      }
    }
  }
}
