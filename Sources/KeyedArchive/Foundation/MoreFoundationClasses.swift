import FoundationEssentials

extension ArchiveClassRegistry {
  /// The Foundation encodings beyond the plist-like core (sets, geometry, index sets, attributed
  /// strings, errors, locales, time zones) register here.
  mutating func registerMoreFoundationClasses() {
    registerFoundation("NSOrderedSet", classes: ["NSOrderedSet", "NSObject"], type: ArchivedOrderedSet.self) {
      try ArchivedOrderedSet(archivedBy: $0, className: "NSOrderedSet")
    }
    registerFoundation(
      "NSMutableOrderedSet", classes: ["NSMutableOrderedSet", "NSOrderedSet", "NSObject"], type: ArchivedOrderedSet.self
    ) {
      $0.preservingMutability(try ArchivedOrderedSet(archivedBy: $0, className: "NSMutableOrderedSet"))
    }
    registerFoundation(
      "NSCountedSet", classes: ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"], type: ArchivedCountedSet.self
    ) {
      try ArchivedCountedSet(archivedBy: $0)
    }

    // One archived class, several Swift types: each registration adds its type to the table of
    // types; the decoder, shared by all, picks the type from NS.special.
    let valueTypes: [Any.Type] = [
      ArchivedTypedValue.self, ArchivedEdgeInsets.self, ArchivedRange.self, ArchivedSize.self, ArchivedPoint.self,
      ArchivedRect.self,
    ]
    for type in valueTypes {
      registerFoundation("NSValue", classes: ["NSValue", "NSObject"], type: type) { try $0.foundationValue() }
    }
    registerFoundation(
      "_NSKeyedCoderOldStyleArray", classes: ["_NSKeyedCoderOldStyleArray", "NSObject"], type: ArchivedCArray.self
    ) {
      try ArchivedCArray(archivedBy: $0)
    }

    registerFoundation("NSIndexSet", classes: ["NSIndexSet", "NSObject"], type: ArchivedIndexSet.self) {
      try ArchivedIndexSet(archivedBy: $0, className: "NSIndexSet")
    }
    registerFoundation(
      "NSMutableIndexSet", classes: ["NSMutableIndexSet", "NSIndexSet", "NSObject"], type: ArchivedIndexSet.self
    ) {
      $0.preservingMutability(try ArchivedIndexSet(archivedBy: $0, className: "NSMutableIndexSet"))
    }
    registerFoundation("NSIndexPath", classes: ["NSIndexPath", "NSObject"], type: IndexPath.self) {
      try IndexPath(archivedBy: $0)
    }

    registerFoundation("NSAttributedString", classes: ["NSAttributedString", "NSObject"], type: ArchivedAttributedString.self) {
      try ArchivedAttributedString(archivedBy: $0)
    }
    registerFoundation(
      "NSMutableAttributedString", classes: ["NSMutableAttributedString", "NSAttributedString", "NSObject"],
      type: ArchivedAttributedString.self
    ) {
      $0.preservingMutability(try ArchivedAttributedString(archivedBy: $0))
    }

    registerFoundation("NSError", classes: ["NSError", "NSObject"], type: ArchivedError.self) { try ArchivedError(archivedBy: $0) }
    registerFoundation("NSLocale", classes: ["NSLocale", "NSObject"], type: Locale.self) { coder in
      if coder.unarchiver.preservesArchivedForm { try ArchivedLocale(archivedBy: coder) } else { try Locale(archivedBy: coder) }
    }
    registerFoundation("NSTimeZone", classes: ["NSTimeZone", "NSObject"], type: TimeZone.self) { coder in
      if coder.unarchiver.preservesArchivedForm { try ArchivedTimeZone(archivedBy: coder) } else { try TimeZone(archivedBy: coder) }
    }
    registerMeasurementClasses()
  }
}
