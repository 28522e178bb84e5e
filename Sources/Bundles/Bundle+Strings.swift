public import StasisSystem
extension Bundle {
  /// The table named `tableName` (default `Localizable`) for the bundle's localization, or for
  /// `localization` if given: the `.strings` and `.stringsdict` found by resource lookup,
  /// merged. Tables are cached per bundle and localization until ``invalidateResourceCache()``;
  /// tables whose name ends in `.nocache` are read each time, as in CF.
  ///
  /// - Throws: `BundleError.Code.invalidTable` when a file exists but cannot be read. The
  ///   lookup methods treat such a table as empty, as CF does.
  public func stringTable(named tableName: String? = nil, localization: String? = nil) throws(BundleError) -> StringTable {
    let name = (tableName?.isEmpty ?? true) ? "Localizable" : tableName!
    let cacheable = tableName == nil || !name.hasSuffix(".nocache")
    // One cache entry per table and localization ("Localizable" for the preferred one).
    let cacheKey = localization.map { name + "\u{0}" + $0 } ?? name
    if cacheable, let cached = withLocalizedState({ $0.tables[cacheKey] }) { return cached }
    let stringsPath = path(forResource: name, ofType: "strings", forLocalization: localization)
    let stringsdictPath = path(forResource: name, ofType: "stringsdict", forLocalization: localization)
    let stringsLanguage = stringsPath.flatMap(StringTable.localizationName(of:))
    let stringsdictLanguage = stringsdictPath.flatMap(StringTable.localizationName(of:))
    let language = localization ?? stringsdictLanguage ?? localizationSearchList.first ?? developmentLocalization ?? "en"
    // CF prefers .stringsdict content unless the .strings file comes from a more preferred
    // localization (`_CFBundleGetStringsSources`).
    var stringsWin = false
    if let stringsLanguage, let stringsdictLanguage, stringsLanguage != stringsdictLanguage {
      let list = localizationSearchList
      let stringsRank = list.firstIndex(of: stringsLanguage) ?? Int.max
      let stringsdictRank = list.firstIndex(of: stringsdictLanguage) ?? Int.max
      stringsWin = stringsRank < stringsdictRank
    }
    let table: StringTable
    do {
      table = try StringTable.load(
        stringsPath: stringsPath, stringsdictPath: stringsdictPath, language: language, device: deviceName,
        stringsWin: stringsWin, environment: environment)
    } catch {
      if cacheable {
        withLocalizedState {
          $0.tables[cacheKey] = StringTable()
          if tableName == nil && localization == nil { $0.defaultTable = StringTable() }
        }
      }
      throw error
    }
    if cacheable {
      withLocalizedState {
        $0.tables[cacheKey] = table
        if tableName == nil && localization == nil { $0.defaultTable = table }
      }
    }
    return table
  }

  /// The device name `NSStringDeviceSpecificRuleType` variants are chosen by.
  var deviceName: String {
    environment.device.lookupProduct ?? (environment.device.platform == "macos" ? "mac" : environment.device.platform)
  }

  func entry(forKey key: String, table tableName: String?, localization: String?) -> StringTable.Entry? {
    let table = (try? stringTable(named: tableName, localization: localization)) ?? StringTable()
    return table[key]
  }

  /// The localized string for `key` (`NSBundle.localizedString(forKey:value:table:)`,
  /// `CFBundleCopyLocalizedString`). A missing key gives `value` when it is non-nil and non-empty,
  /// else `key`. A `.stringsdict` entry gives its `NSStringLocalizedFormatKey`; use
  /// ``localizedFormat(forKey:value:table:localization:)`` to format it.
  ///
  /// - Complexity: O(1) after the table is loaded (one lock, two hash lookups).
  public func localizedString(forKey key: String, value: String?, table tableName: String?, localization: String? = nil)
    -> String
  {
    if tableName == nil && localization == nil {
      // The common case, answered under one lock without copying the table.
      let cached: (loaded: Bool, text: String?) = withLocalizedState { state in
        guard let table = state.defaultTable else { return (false, nil) }
        return (true, table.entries[key]?.text)
      }
      if cached.loaded {
        if let text = cached.text { return text }
        if let value, !value.isEmpty { return value }
        return key
      }
    }
    if let entry = entry(forKey: key, table: tableName, localization: localization) { return entry.text }
    if let value, !value.isEmpty { return value }
    return key
  }

  /// The entry for `key` as a format, ready for arguments: a `.stringsdict` entry keeps its
  /// rules; a plain string (or the fallback `value`/`key`) becomes a format without variables.
  public func localizedFormat(forKey key: String, value: String? = nil, table tableName: String? = nil, localization: String? = nil)
    -> LocalizedFormat
  {
    let language = localization ?? localizationSearchList.first ?? developmentLocalization ?? "en"
    switch entry(forKey: key, table: tableName, localization: localization) {
    case .format(let format)?: return format
    case .string(let text)?: return LocalizedFormat(format: text, variables: [:], language: language, device: deviceName)
    case nil:
      let text = (value?.isEmpty ?? true) ? key : value!
      return LocalizedFormat(format: text, variables: [:], language: language, device: deviceName)
    }
  }

  /// Looks up `key` and formats it with `arguments`, choosing `.stringsdict` variants
  /// (`String.localizedStringWithFormat(NSLocalizedString(key, …), arguments…)`).
  ///
  /// - Throws: ``BundleError`` when a specifier or variable does not fit its argument.
  public func localizedString(
    forKey key: String, value: String? = nil, table tableName: String? = nil, arguments: [FormatValue]
  ) throws(BundleError) -> String {
    try localizedFormat(forKey: key, value: value, table: tableName).formatted(arguments)
  }
}

/// `NSLocalizedString(key, tableName:bundle:value:comment:)`: the localized string for `key` in
/// `bundle` (default ``Bundle/main``), table `tableName` (default `Localizable`); a missing key
/// gives `value` when non-empty, else `key`.
public func NSLocalizedString(
  _ key: String, tableName: String? = nil, bundle: Bundle = Bundle.main, value: String = "", comment: String
) -> String {
  bundle.localizedString(forKey: key, value: value, table: tableName)
}

/// `NSLocalizedStringFromTable(key, table, comment)`, from the main bundle.
public func NSLocalizedStringFromTable(_ key: String, _ tableName: String?, _ comment: String) -> String {
  Bundle.main.localizedString(forKey: key, value: nil, table: tableName)
}

/// `NSLocalizedStringFromTableInBundle(key, table, bundle, comment)`.
public func NSLocalizedStringFromTableInBundle(_ key: String, _ tableName: String?, _ bundle: Bundle, _ comment: String) -> String {
  bundle.localizedString(forKey: key, value: nil, table: tableName)
}

/// `NSLocalizedStringWithDefaultValue(key, table, bundle, value, comment)`.
public func NSLocalizedStringWithDefaultValue(
  _ key: String, _ tableName: String?, _ bundle: Bundle, _ value: String, _ comment: String
) -> String {
  bundle.localizedString(forKey: key, value: value, table: tableName)
}

extension Bundle {
  /// `InfoPlist.strings` of the chosen localization with key overrides, cached. A table that
  /// cannot be read counts as empty (CF logs it).
  func localizedInfoStrings() -> [String: String] {
    if let cached = withLocalizedState({ $0.localizedInfo }) { return cached }
    var strings: [String: String] = [:]
    if let path = path(forResource: "InfoPlist", ofType: "strings"),
      let table = try? StringTable.readStrings(atPath: path, environment: environment)
    {
      strings = InfoDictionaryOverrides.apply(to: table, modifiers: modifiers)
    }
    withLocalizedState { $0.localizedInfo = strings }
    return strings
  }
}
