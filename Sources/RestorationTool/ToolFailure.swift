import Restoration
import StasisSystem

/// A failure that ends a command: the message for standard error (after `restoration: `), and
/// whether it is a usage error (the help text follows the message).
struct ToolFailure: Error {
  var message: String
  var isUsage = false

  init(_ message: String) { self.message = message }

  /// A snapshot or folder that cannot be read: the error's description names the file.
  init(_ error: RestorationError) { self.init(error.description) }

  /// A command line the tool does not understand.
  static func usage(_ message: String) -> ToolFailure {
    var failure = ToolFailure(message)
    failure.isUsage = true
    return failure
  }
}
