// Taking a value out of an `Any` whose dynamic type is known, without the runtime's dynamic
// cast: shared by the restorable-state coders' typed getters (here) and `Restoration`'s
// preservation, which test value types by the thousand.

/// `value`'s content as a `T`, for a value the caller has checked to hold exactly a `T`
/// (`heldType(of: value) == ObjectIdentifier(T.self)`).
///
/// `value as! T` on an `Any` is a call into the runtime's dynamic cast (`swift_dynamicCast`,
/// `tryCast`), which looks through the existential and compares the types again; with the type
/// already known, opening the existential and reinterpreting its content is enough (profiled: the
/// casts of a save's state values were 4 % of the save). The reinterpretation checks that the
/// sizes agree (`unsafeBitCast`), so a wrong caller traps rather than reading past the value.
@inlinable @inline(__always)
package func unboxExactly<T>(_ value: Any, as type: T.Type) -> T {
  func take<Held>(_ held: Held) -> T { unsafeBitCast(held, to: T.self) }
  return _openExistential(value, do: take)
}

/// The type `value` holds, read from the `Any`'s own type field: for a value of a value type its
/// exact type (what `type(of: value)` answers), for a class instance the class it was stored as
/// (possibly a superclass of its dynamic class). `type(of:)` on an `Any` is a call into the
/// runtime (`swift_getDynamicType`, which looks for a class instance's dynamic class); callers
/// that compare with value types (`Int`, `String`, `[Double]`…) get the same answer without it
/// (callgrind: 4 % of a 10,000-node save, two look-ups per state value).
@inlinable @inline(__always)
package func heldType(of value: Any) -> ObjectIdentifier {
  func identify<Held>(_: Held) -> ObjectIdentifier { ObjectIdentifier(Held.self) }
  return _openExistential(value, do: identify)
}

/// `value` as a `T` when it holds exactly a `T` (`heldType(of:)`), else `nil` (the caller then tries
/// `as? T`, which also bridges, looks through optionals and accepts subclasses). Where it answers,
/// it answers what `value as? T` would, without the runtime's dynamic cast (profiled: `tryCast`
/// under the typed getters was 2 % of a 10,000-node restore).
@inlinable @inline(__always)
package func exactly<T>(_ value: Any, as type: T.Type) -> T? {
  // The held type: for a class instance stored as a superclass, `nil` where `type(of:)` might
  // have matched, and the caller's `as? T` answers instead.
  heldType(of: value) == ObjectIdentifier(T.self) ? unboxExactly(value, as: T.self) : nil
}
