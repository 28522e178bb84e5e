import PropertyLists
import Testing

/// Expects `body` to throw a ``PropertyListError`` with the given code.
public func expectError<R>(
  _ code: PropertyListError.Code, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> R
) {
  do {
    _ = try body()
    Issue.record("expected a \(code) error, but nothing was thrown. \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
  } catch let error as PropertyListError {
    if error.code != code {
      Issue.record("expected a \(code) error, got \(error.code): \(error). \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
    }
  } catch {
    Issue.record("expected a PropertyListError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
  }
}
