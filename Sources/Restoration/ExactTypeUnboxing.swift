/// `value`'s content as a `T`, for a value whose dynamic type the caller has checked to be
/// exactly `T` (`ObjectIdentifier(type(of: value)) == ObjectIdentifier(T.self)`).
///
/// `value as! T` on an `Any` is a call into the runtime's dynamic cast (`swift_dynamicCast`,
/// `tryCast`), which looks through the existential and compares the types again; with the type
/// already known, opening the existential and reinterpreting its content is enough (profiled: the
/// casts of a save's state values were 4 % of the save). The reinterpretation checks that the
/// sizes agree (`unsafeBitCast`), so a wrong caller traps rather than reading past the value.
@inline(__always)
func unboxExactly<T>(_ value: Any, as type: T.Type) -> T {
  func take<Held>(_ held: Held) -> T { unsafeBitCast(held, to: T.self) }
  return _openExistential(value, do: take)
}
