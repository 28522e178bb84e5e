/// The on-disk forms of a property list.
///
/// These correspond to `PropertyListSerialization.PropertyListFormat` (`binary`, `xml`,
/// `openStep`) plus the JSON form that `plutil -convert json` writes and the `.strings` flavour of
/// OpenStep.
public enum PropertyListFormat: String, Sendable, CaseIterable, CustomStringConvertible {
  /// `bplist00`, Apple's binary format (`kCFPropertyListBinaryFormat_v1_0`, plutil `binary1`).
  case binary
  /// The XML format with Apple's DTD (`kCFPropertyListXMLFormat_v1_0`, plutil `xml1`).
  case xml
  /// The "old-style" ASCII format (`kCFPropertyListOpenStepFormat`, plutil `openstep`).
  case openStep
  /// A `.strings` file: an OpenStep dictionary without its outer braces.
  case strings
  /// JSON, under plutil's rules (no dates, data or UIDs).
  case json

  public var description: String {
    switch self {
    case .binary: "binary property list"
    case .xml: "XML property list"
    case .openStep: "OpenStep property list"
    case .strings: "strings file"
    case .json: "JSON"
    }
  }
}
