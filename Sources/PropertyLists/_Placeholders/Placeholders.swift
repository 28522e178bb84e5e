// TEMPORARY scaffolding while the codecs are written in parallel; each helper deletes its part.
// XML-PLACEHOLDER-BEGIN
enum XMLPlistReader {
  static func looksLikeXML(_ buffer: UnsafeRawBufferPointer) -> Bool { false }
  static func read(_ buffer: UnsafeRawBufferPointer, options: PropertyListReadingOptions) throws(PropertyListError) -> PropertyListValue { throw PropertyListError(.unknownFormat, format: .xml, detail: "not built yet") }
}
enum XMLPlistWriter {
  static func write(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] { throw PropertyListError(.unrepresentable, format: .xml, detail: "not built yet") }
}
// XML-PLACEHOLDER-END
