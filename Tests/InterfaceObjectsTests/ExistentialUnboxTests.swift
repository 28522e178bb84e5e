import InterfaceObjects
import Testing

/// `RestorableStateDecoder.decode(_:forKey:)` once compared `type(of: value)` (the
/// dynamic type, looked up through any existential the `Any` holds) and then unboxed with
/// `unboxExactly`, which opens the `Any` at the type it *holds*. For an `Any` made in generic code
/// from an existential (`T == any Sendable`), the two differ: `type(of:)` says `Int`, the `Any`
/// holds an `any Sendable` (32 bytes), and `unsafeBitCast` of that to an 8-byte `Int` traps. A
/// decoder handing out such a value (an app's own coder, a migrated node's values) must give the
/// `Int`, not stop the process.
@Suite("Typed getters on a value held as an existential inside Any")
struct ExistentialUnboxTests {
  /// A decoder whose only value is `value`.
  @MainActor final class OneValueDecoder: RestorableStateDecoder {
    let value: Any
    init(_ value: Any) { self.value = value }
    var stateVersion: Int { 0 }
    func containsValue(forKey key: String) -> Bool { key == "value" }
    func decodeObject(forKey key: String) -> Any? { key == "value" ? value : nil }
    func decodeRestorableObject(forKey key: String) -> AnyObject? { nil }
    func decodeRestorableObjects(forKey key: String) -> [AnyObject] { [] }
  }

  /// `value` as an `Any` made in generic code.
  static func erased<T>(_ value: T) -> Any { value }

  @Test("decode(Int.self) of an Int inside `any Sendable` inside Any gives the Int (in a child process: it once trapped)")
  func decodeThroughAnExistential() async {
    await #expect(processExitsWith: .success) {
      let answer = await MainActor.run {
        OneValueDecoder(ExistentialUnboxTests.erased(5 as any Sendable)).decode(Int.self, forKey: "value")
      }
      guard answer == 5 else { fatalError("decoded \(String(describing: answer))") }
    }
  }

  @Test("the integer, real and Boolean getters look through the existential (they fall back to a cast)")
  @MainActor func scalarGettersThroughAnExistential() {
    #expect(OneValueDecoder(Self.erased(5 as any Sendable)).decodeInteger(forKey: "value") == 5)
    #expect(OneValueDecoder(Self.erased(2.5 as any Sendable)).decodeDouble(forKey: "value") == 2.5)
    #expect(OneValueDecoder(Self.erased(true as any Sendable)).decodeBool(forKey: "value") == true)
  }
}
