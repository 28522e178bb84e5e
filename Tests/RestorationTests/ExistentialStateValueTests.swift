import Foundation
import Restoration
import Testing

/// `heldType(of:)` (the `Any`'s own type field instead of `type(of:)`): an `Any` made
/// in generic code from an existential (`T == any Sendable`) holds the existential, not the value
/// inside it, so `heldType` names `any Sendable` where `type(of:)` named `Int`.
///
/// `StateValueColumns.append` once compared `type(of:)` and then unboxed at the held type
/// (`unboxExactly`): such a value stopped the save (`unsafeBitCast` between types of sizes 32 and
/// 8). Then it was saved as a general value, not in the column of the plain value, so the same
/// state made other bytes depending on how its `Any` was made. Both are checked here.
@Suite("State values held in an existential inside Any are saved as the plain values")
struct ExistentialStateValueTests {
  /// `value` as an `Any` made in generic code, as a generic helper of an app makes it.
  static func erased<T>(_ value: T) -> Any { value }

  static func snapshot(state: [String: Any]) -> Snapshot {
    Snapshot(
      metadata: SnapshotMetadata(bundleVersion: "1", idiom: 0, timestamp: Date(timeIntervalSinceReferenceDate: 0), systemVersion: "1", sequence: 1),
      nodes: [SnapshotNode(path: ["root"], kind: .viewController, className: "C", state: state)])
  }

  @Test("An Int, a String and a [Double] inside `any Sendable` inside Any are saved and read back")
  func existentialInsideAnyIsSaved() throws {
    let wrapped: [String: Any] = [
      "count": Self.erased(5 as any Sendable), "name": Self.erased("five" as any Sendable),
      "reals": Self.erased([1.5, 2.5] as any Sendable),
    ]
    let read = try Snapshot(data: try Self.snapshot(state: wrapped).archivedData())
    let state = try #require(read.nodes.first?.state)
    #expect(state["count"] as? Int == 5)
    #expect(state["name"] as? String == "five")
    #expect(state["reals"] as? [Double] == [1.5, 2.5])
  }

  @Test("An Int, a String and a [Double] inside `any Sendable` inside Any: the bytes of the plain values")
  func existentialInsideAny() throws {
    let plain: [String: Any] = ["count": 5, "name": "five", "reals": [1.5, 2.5]]
    let wrapped: [String: Any] = [
      "count": Self.erased(5 as any Sendable), "name": Self.erased("five" as any Sendable),
      "reals": Self.erased([1.5, 2.5] as any Sendable),
    ]
    // The premise: the wrapped values really are existentials inside `Any` whose dynamic type is
    // the plain one.
    #expect(type(of: wrapped["count"]!) == Int.self)
    let plainData = try Self.snapshot(state: plain).archivedData()
    let wrappedData = try Self.snapshot(state: wrapped).archivedData()
    #expect(plainData == wrappedData, "an existential inside Any changes the snapshot's bytes")
    let read = try Snapshot(data: wrappedData)
    #expect(read.nodes.first?.state["count"] as? Int == 5)
  }
}
