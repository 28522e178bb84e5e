import PropertyLists

/// Reading inputs the way plutil does.
extension PlistTool {
  /// The bytes of `path`, or of standard input for `-`.
  func readInput(_ path: String) throws(PlistToolError) -> [UInt8] {
    if path == "-" { return try environment.readStandardInput(byteLimit: readingOptions.maximumByteCount) }
    guard !path.isEmpty else { throw PlistToolError(.fileSystem, "Empty path specified") }
    return try environment.readFile(atPath: path, byteLimit: readingOptions.maximumByteCount)
  }

  /// Reads a property list in binary, XML or OpenStep form (what `-lint` accepts, and what
  /// CoreFoundation's reader detects): JSON is not tried (``PropertyListReadingPolicy/plutilLint``).
  func parsePropertyList(_ bytes: [UInt8]) throws(PropertyListError) -> (PropertyListValue, PropertyListFormat) {
    try PropertyListValue.read(bytes, policy: policy(.plutilLint))
  }

  /// Reads a property list, or failing that JSON, as every command but `-lint` does
  /// (``PropertyListReadingPolicy/plutil``).
  ///
  /// - Throws: `PlistToolError.Code.unreadable` with both readers' reasons:
  ///   `Property List error: … / JSON error: …`.
  func parseDocument(_ bytes: [UInt8]) throws(PlistToolError) -> (PropertyListValue, PropertyListFormat) {
    do {
      return try PropertyListValue.read(bytes, policy: policy(.plutil))
    } catch {
      throw PlistToolError(.unreadable, error.detail)
    }
  }

  /// `policy` with the tool's limits.
  private func policy(_ policy: PropertyListReadingPolicy) -> PropertyListReadingPolicy {
    var policy = policy
    policy.limits = readingOptions
    return policy
  }

  /// Reads the file at `path` as a property list or JSON.
  func loadDocument(_ path: String) throws(PlistToolError) -> (PropertyListValue, PropertyListFormat) {
    try parseDocument(try readInput(path))
  }
}
