import PropertyLists

/// A format plutil can write: the `fmt` of `-convert`, `-extract` and `-create`.
enum OutputFormat: Hashable, Sendable {
  /// `xml1`
  case xml
  /// `binary1`
  case binary
  /// `json` (`-r` for the indented, key-sorted form)
  case json
  /// `openstep` (also spelled `openStep`): the old ASCII format, which Apple's plutil reads but
  /// does not write.
  case openStep
  /// `swift`: a Swift literal declaring the value.
  case swift
  /// `objc`: an Objective-C literal declaring the value (`-header` also writes a `.h`).
  case objc
  /// `raw`: the bare value (`-extract` only).
  case raw
  /// The type name, as `-type` prints it.
  case type

  init(argument: String) throws(PlistToolError) {
    switch argument {
    case "xml1": self = .xml
    case "binary1": self = .binary
    case "json": self = .json
    case "openstep", "openStep": self = .openStep
    case "swift": self = .swift
    case "objc": self = .objc
    case "raw": self = .raw
    default: throw .usage("Unknown format specifier: \(argument)")
    }
  }

  /// Whether, without `-o`, the result goes to standard output rather than back to a file.
  var printsByDefault: Bool { self == .raw || self == .type }
}

/// A type name accepted by `-expect` and printed by `-type`.
enum ValueType: String, Hashable, Sendable {
  case bool, integer, float, string, date, data, dictionary, array
  /// Not in Apple's list (its plutil cannot name a keyed-archiver UID); Stasis prints and
  /// accepts `uid`.
  case uid

  /// The type's name in plutil's messages ("Value at [k] expected to be boolean but is
  /// string"): `-type` prints `bool` and `-expect` takes `bool`, but the messages say `boolean`
  /// (the toolchain's plutil, checked for every pair of types).
  var messageName: String { self == .bool ? "boolean" : rawValue }

  init(of value: PropertyListValue) {
    switch value {
    case .bool: self = .bool
    case .integer: self = .integer
    case .real: self = .float
    case .string: self = .string
    case .date: self = .date
    case .data: self = .data
    case .dictionary: self = .dictionary
    case .array: self = .array
    case .uid: self = .uid
    }
  }

  /// `-expect`'s argument: Apple's names (`bool integer float string date data dictionary
  /// array`; `boolean` is refused, as the toolchain's plutil refuses it).
  init(argument: String) throws(PlistToolError) {
    guard let type = ValueType(rawValue: argument) else {
      throw .usage("-expect type [\(argument)] not valid.")
    }
    self = type
  }
}

