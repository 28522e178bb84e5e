public import FoundationEssentials
import PropertyLists

/// `Locale` is archived as `NSLocale`: `{NS.identifier: UID → string}`.
///
/// Locales other than the root need FoundationInternationalization loaded (any program that
/// imports Foundation) to keep their identifier; FoundationEssentials alone knows only `en_001`.
extension Locale: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSLocale", ["NSLocale", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: identifier)), forKey: "NS.identifier")
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    guard let identifier = try coder.decode(String.self, forKey: "NS.identifier") else {
      throw coder.corrupt("NSLocale", "has no NS.identifier string")
    }
    self.init(identifier: identifier)
  }
}

/// `TimeZone` is archived as `NSTimeZone`: `{NS.name: UID → string, NS.data: UID → NSData or
/// $null}`.
///
/// Apple writes the zone's compiled TZif rules under `NS.data` for named zones and `$null` for
/// fixed offsets (`GMT+0100`); readers since macOS 10.6 ignore the data and look the zone up by
/// name (swift-corelibs-foundation does the same). This archiver writes `$null`: FoundationEssentials
/// does not expose the rules. Decoding looks the name up, with `GMT±hhmm` names understood
/// directly; named zones need FoundationInternationalization loaded (any program that imports
/// Foundation).
extension TimeZone: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSTimeZone", ["NSTimeZone", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    coder.encodeRaw(.uid(try coder.reference(to: identifier)), forKey: "NS.name")
    coder.encodeRaw(.uid(0), forKey: "NS.data")
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSTimeZone"
    guard let name = try coder.decode(String.self, forKey: "NS.name") else {
      throw coder.corrupt(className, "has no NS.name string")
    }
    // The rules are checked for type only; the zone comes from its name, as on Apple platforms.
    _ = try coder.storedBytes("NS.data", of: className)
    if let zone = TimeZone(identifier: name) {
      self = zone
    } else if let seconds = Self.secondsFromGMT(name), let zone = TimeZone(secondsFromGMT: seconds) {
      self = zone
    } else {
      throw coder.corrupt(className, "names a time zone that is not known here: \(name.debugDescription)")
    }
  }

  /// The offset of a `GMT+hhmm` / `GMT-hhmm` / `GMT+hh` name (`+[NSTimeZone timeZoneForSecondsFromGMT:]`).
  static func secondsFromGMT(_ name: String) -> Int? {
    let bytes = Array(name.utf8)
    guard bytes.count == 6 || bytes.count == 8, bytes.starts(with: Array("GMT".utf8)),
      bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-")
    else { return nil }
    var digits: [Int] = []
    for byte in bytes[4...] {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      digits.append(Int(byte - UInt8(ascii: "0")))
    }
    let hours = digits[0] * 10 + digits[1]
    let minutes = digits.count == 4 ? digits[2] * 10 + digits[3] : 0
    guard hours <= 18, minutes < 60 else { return nil }
    let seconds = hours * 3600 + minutes * 60
    return bytes[3] == UInt8(ascii: "-") ? -seconds : seconds
  }
}
