#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One way of writing files for the tests to interrupt.
protocol CrashWriterMode {
  /// The value of `--mode` that selects it.
  static var name: String { get }
  /// Runs the mode; modes that write until they are killed never return.
  static func run(_ arguments: WriterArguments) throws
}

/// `--name value` pairs from the command line.
struct WriterArguments {
  private var values: [String: String] = [:]

  init(_ words: ArraySlice<String>) {
    var words = words[...]
    while let word = words.popFirst() {
      if word.hasPrefix("--"), let value = words.first, !value.hasPrefix("--") {
        values[word] = value
        words.removeFirst()
      } else {
        values[word] = ""
      }
    }
  }

  subscript(_ name: String) -> String? { values[name] }

  func required(_ name: String) throws -> String {
    guard let value = values[name], !value.isEmpty else { throw WriterFailure("missing \(name)") }
    return value
  }

  func integer(_ name: String, default fallback: Int) throws -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text) else { throw WriterFailure("\(name) wants a number, not \(text)") }
    return value
  }
}

struct WriterFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
