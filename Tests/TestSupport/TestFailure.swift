/// A test's own failure with a message (a precondition of the test that did not hold).
public struct TestFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
