// Taking a value out of an `Any` whose dynamic type is known, without the runtime's dynamic
// cast: shared by the restorable-state coders' typed getters (here) and `Restoration`'s
// preservation, which test value types by the thousand.

/// `value`'s content as a `T`, for a value whose dynamic type the caller has checked to be
/// exactly `T` (`ObjectIdentifier(type(of: value)) == ObjectIdentifier(T.self)`).
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

/// `value` as a `T` when its dynamic type is exactly `T`, else `nil` (the caller then tries
/// `as? T`, which also bridges, looks through optionals and accepts subclasses). Where it answers,
/// it answers what `value as? T` would, without the runtime's dynamic cast (profiled: `tryCast`
/// under the typed getters was 2 % of a 10,000-node restore).
@inlinable @inline(__always)
package func exactly<T>(_ value: Any, as type: T.Type) -> T? {
  ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(T.self) ? unboxExactly(value, as: T.self) : nil
}
