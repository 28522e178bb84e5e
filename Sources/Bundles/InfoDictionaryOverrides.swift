import PropertyLists

/// Apple's Info.plist key overrides (CF's `_CFBundleInfoPlistProcessInfoDictionary`), also
/// applied to `InfoPlist.strings`.
enum InfoDictionaryOverrides {
  /// Keys CF never lets a suffixed key replace.
  static let protectedKeys: Set<String> = ["CFBundleExecutable", "CFBundleIdentifier"]

  /// For each base key, the best-ranked suffixed key for this device (platform + product, then
  /// product, then platform) replaces it; every suffixed key recognised as a device suffix is
  /// removed. Key order is kept (the base key keeps its place, or takes the override's).
  static func apply(to dictionary: PropertyListDictionary, modifiers: DeviceModifiers) -> PropertyListDictionary {
    var best: [String: (rank: UInt8, value: PropertyListValue)] = [:]
    var suffixed: Set<String> = []
    for (key, value) in dictionary {
      switch modifiers.match(key[...]) {
      case .plain: continue
      case .otherDevice: suffixed.insert(key)
      case .variant(let base, let rank):
        suffixed.insert(key)
        let baseKey = String(base)
        if protectedKeys.contains(baseKey) { continue }
        if let current = best[baseKey], current.rank <= rank { continue }
        best[baseKey] = (rank, value)
      }
    }
    if suffixed.isEmpty { return dictionary }
    var keys: [String] = []
    var values: [PropertyListValue] = []
    var placed: Set<String> = []
    for (key, value) in dictionary {
      if suffixed.contains(key) {
        // An override whose base key is absent takes the place of its first suffixed key.
        if case .variant(let base, _) = modifiers.match(key[...]), dictionary[String(base)] == nil,
          let chosen = best[String(base)], !placed.contains(String(base))
        {
          keys.append(String(base))
          values.append(chosen.value)
          placed.insert(String(base))
        }
        continue
      }
      if placed.contains(key) { continue }
      keys.append(key)
      values.append(best[key]?.value ?? value)
      placed.insert(key)
    }
    return PropertyListDictionary(keys: keys, values: values)
  }

  /// The same for a flat string table.
  static func apply(to table: [String: String], modifiers: DeviceModifiers) -> [String: String] {
    var result = table
    var best: [String: UInt8] = [:]
    for (key, value) in table {
      switch modifiers.match(key[...]) {
      case .plain: continue
      case .otherDevice: result[key] = nil
      case .variant(let base, let rank):
        result[key] = nil
        let baseKey = String(base)
        if protectedKeys.contains(baseKey) { continue }
        if let current = best[baseKey], current <= rank { continue }
        best[baseKey] = rank
        result[baseKey] = value
      }
    }
    return result
  }
}
