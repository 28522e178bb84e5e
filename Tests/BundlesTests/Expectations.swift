import Bundles
import Testing

/// Expects `body` to throw a ``BundleError`` with `code`; returns the error for further checks.
@discardableResult
func expectBundleError<R>(
  _ code: BundleError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> BundleError? {
  do {
    _ = try body()
    Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
    return nil
  } catch let error as BundleError {
    #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    return error
  } catch {
    Issue.record("expected BundleError \(code), got \(error)", sourceLocation: sourceLocation)
    return nil
  }
}
