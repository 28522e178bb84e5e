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
  /// CoreFoundation's reader detects): JSON is not tried.
  func parsePropertyList(_ bytes: [UInt8]) throws(PropertyListError) -> (PropertyListValue, PropertyListFormat) {
    guard !bytes.isEmpty else {
      throw PropertyListError(.truncated, format: nil, detail: "the input is empty (zero bytes)")
    }
    let detected = bytes.withUnsafeBytes { PropertyListFormat.detect($0) }
    return (try PropertyListValue(decoding: bytes, format: detected, options: readingOptions), detected)
  }

  /// Reads a property list, or failing that JSON, as every command but `-lint` does.
  ///
  /// - Throws: ``PlistToolError/Code/unreadable`` with both readers' reasons:
  ///   `Property List error: … / JSON error: …`.
  func parseDocument(_ bytes: [UInt8]) throws(PlistToolError) -> (PropertyListValue, PropertyListFormat) {
    do {
      return try parsePropertyList(bytes)
    } catch let propertyListError {
      do {
        return (try PropertyListValue(decoding: bytes, format: .json, options: readingOptions), .json)
      } catch let jsonError {
        throw PlistToolError(
          .unreadable,
          "Property List error: \(propertyListError.description) / JSON error: \(jsonError.description)")
      }
    }
  }

  /// Reads the file at `path` as a property list or JSON.
  func loadDocument(_ path: String) throws(PlistToolError) -> (PropertyListValue, PropertyListFormat) {
    try parseDocument(try readInput(path))
  }
}
