import PropertyLists
public import StasisSystem

/// One string table: a `.strings` file and/or a `.stringsdict` file of the same name, merged
/// with the `.stringsdict` entries winning (CF's `_copyStringTable`).
public struct StringTable: Sendable {
  /// A table entry.
  public enum Entry: Sendable, Hashable {
    /// A plain translation from a `.strings` file.
    case string(String)
    /// A `.stringsdict` entry with rules.
    case format(LocalizedFormat)

    /// The entry as text: the string, or the rule entry's `NSStringLocalizedFormatKey`.
    public var text: String {
      switch self {
      case .string(let text): text
      case .format(let format): format.format
      }
    }
  }

  /// Key → entry.
  public private(set) var entries: [String: Entry]
  /// The `.strings` file read, if any.
  public let stringsPath: String?
  /// The `.stringsdict` file read, if any.
  public let stringsdictPath: String?

  public init(entries: [String: Entry] = [:], stringsPath: String? = nil, stringsdictPath: String? = nil) {
    self.entries = entries
    self.stringsPath = stringsPath
    self.stringsdictPath = stringsdictPath
  }

  public subscript(key: String) -> Entry? { entries[key] }

  /// Reads and merges the two files; either may be `nil`.
  ///
  /// - Parameters:
  ///   - stringsPath: the `.strings` file (OpenStep strings syntax, or a binary or XML plist), or
  ///     `nil` when there is none.
  ///   - stringsdictPath: the `.stringsdict` file, or `nil` when there is none.
  ///   - language: whose plural rules `.stringsdict` variables use; by default the `.lproj`
  ///     folder the file is in.
  ///   - device: the device name for `NSStringDeviceSpecificRuleType`.
  ///   - stringsWin: let `.strings` entries win over `.stringsdict` ones (CF does so when the
  ///     `.strings` file comes from a more preferred localization than the `.stringsdict`).
  ///   - environment: whose file system the tables are read from.
  /// - Throws: `BundleError.Code.invalidTable` naming the file, with the property-list error.
  public static func load(
    stringsPath: String?, stringsdictPath: String?, language: String? = nil, device: String = "linux",
    stringsWin: Bool = false, environment: HostEnvironment = .current
  ) throws(BundleError) -> StringTable {
    var entries: [String: Entry] = [:]
    if let stringsPath {
      for (key, value) in try readStrings(atPath: stringsPath, environment: environment) { entries[key] = .string(value) }
    }
    if let stringsdictPath {
      let tableLanguage = language ?? localizationName(of: stringsdictPath) ?? "en"
      for (key, value) in try readStringsdict(atPath: stringsdictPath, language: tableLanguage, device: device, environment: environment) {
        if stringsWin && entries[key] != nil { continue }
        entries[key] = value
      }
    }
    return StringTable(entries: entries, stringsPath: stringsPath, stringsdictPath: stringsdictPath)
  }

  /// The `.lproj` folder name a file sits in (`…/fr.lproj/Localizable.strings` → `fr`).
  static func localizationName(of path: String) -> String? {
    let parts = path.split(separator: "/")
    guard parts.count >= 2 else { return nil }
    let folder = parts[parts.count - 2]
    guard folder.hasSuffix(".lproj") else { return nil }
    return String(folder.dropLast(6))
  }

  /// Reads a `.strings` file: OpenStep strings-file syntax in UTF-8 or UTF-16/32 with a byte-order
  /// mark (BOM-less UTF-16 when a NUL byte comes first or second), or a binary or XML property
  /// list whose root is a dictionary. Non-string values are skipped.
  ///
  /// - Throws: `BundleError.Code.invalidTable`; one missing semicolon rejects the whole file,
  ///   as in CF.
  public static func readStrings(atPath path: String, environment: HostEnvironment = .current) throws(BundleError) -> [String: String] {
    let dictionary = try readDictionary(atPath: path, stringsFile: true, fileSystem: environment.fileSystem)
    var result: [String: String] = [:]
    result.reserveCapacity(dictionary.count)
    for (key, value) in dictionary {
      if let text = value.stringValue { result[key] = text }
    }
    return result
  }

  /// Reads a `.stringsdict` file into its entries: rule dictionaries become ``Entry/format(_:)``;
  /// device-specific entries (`NSStringDeviceSpecificRuleType`) and plain strings become
  /// ``Entry/string(_:)``.
  public static func readStringsdict(
    atPath path: String, language: String, device: String = "linux", environment: HostEnvironment = .current
  ) throws(BundleError) -> [String: Entry] {
    let dictionary = try readDictionary(atPath: path, stringsFile: false, fileSystem: environment.fileSystem)
    var result: [String: Entry] = [:]
    for (key, value) in dictionary {
      switch value {
      case .string(let text): result[key] = .string(text)
      case .dictionary(let entry):
        if let rule = entry["NSStringDeviceSpecificRuleType"]?.dictionaryValue {
          if let text = rule[device]?.stringValue ?? rule["other"]?.stringValue { result[key] = .string(text) }
        } else if let format = LocalizedFormat.parse(entry, language: language, device: device) {
          result[key] = .format(format)
        } else {
          throw BundleError(
            .invalidTable, detail: "entry has no NSStringLocalizedFormatKey", path: path)
        }
      default: continue
      }
    }
    return result
  }

  static func readDictionary(atPath path: String, stringsFile: Bool, fileSystem: any FileSystem) throws(BundleError) -> PropertyListDictionary {
    // A binary or XML table is read in that format only; text is a strings file, or for a
    // `.stringsdict` OpenStep and then JSON (see the two policies).
    var policy: PropertyListReadingPolicy = stringsFile ? .stringsFile : .stringsdictFile
    policy.limits.maximumByteCount = 256 << 20
    let bytes = try fileSystem.bundleFileContents(of: path, maximumByteCount: policy.limits.maximumByteCount)
    let value: PropertyListValue
    do {
      value = try PropertyListValue(decoding: bytes, policy: policy)
    } catch {
      throw BundleError(.invalidTable, detail: "not a readable string table", path: path, underlying: error)
    }
    guard let dictionary = value.dictionaryValue else {
      throw BundleError(.invalidTable, detail: "root is \(value.typeName), expected a dictionary", path: path)
    }
    return dictionary
  }
}
