extension ArchiveClassRegistry {
  /// The Foundation encodings beyond the plist-like core (sets, geometry, index sets, attributed
  /// strings, errors, locales, time zones) register here.
  mutating func registerMoreFoundationClasses() {}
}
