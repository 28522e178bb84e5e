public import Testing

/// An error that carries a code a test can compare: every module's error type conforms (see
/// `CodedError+Conformances.swift`), whatever its code is (a struct of static codes or an enum).
public protocol CodedError: Error {
  associatedtype Code: Equatable
  var code: Code { get }
}

/// Expects `body` to throw an `errorType` error whose code is `code`, and returns the error for
/// further checks.
///
/// Records an issue at `sourceLocation` when `body` returns, when it throws another type of
/// error (the result is then `nil`), or when the code differs (the error is still returned, so
/// that the caller's checks on it can say more).
///
/// ```swift
/// let error = expectError(PropertyListError.self, .truncated, "cut to \(length) bytes") {
///   try PropertyListValue(decoding: bytes.prefix(length))
/// }
/// #expect(error?.position == .offset(8))
/// ```
@discardableResult
public func expectError<E: CodedError, R>(
  _ errorType: E.Type, _ code: E.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> R
) -> E? {
  let note = comment.map { " \($0.rawValue)" } ?? ""
  do {
    let result = try body()
    Issue.record("expected \(E.self) \(code), but nothing was thrown (the result was \(result)).\(note)", sourceLocation: sourceLocation)
    return nil
  } catch let error as E {
    if error.code != code {
      Issue.record("expected \(E.self) \(code), got \(error.code): \(error).\(note)", sourceLocation: sourceLocation)
    }
    return error
  } catch {
    Issue.record("expected \(E.self) \(code), got \(type(of: error)): \(error).\(note)", sourceLocation: sourceLocation)
    return nil
  }
}
