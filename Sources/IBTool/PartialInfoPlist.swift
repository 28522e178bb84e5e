import StasisSystem
import InterfaceBuilder
import PropertyLists

/// What `--output-partial-info-plist` writes: the Info.plist keys a document contributes, which
/// the build system merges into the app's Info.plist (swift-build's `ProcessInfoPlistFile`
/// takes each `*-PartialInfo.plist`/`*-SBPartialInfo.plist` as `-additionalcontentfile`).
///
/// The only key a document itself decides is `UIAppFonts`: with `--auto-activate-custom-fonts`,
/// ibtool adds the custom font files an iOS document uses, so that they are activated at launch
/// (Apple's option is documented as adding custom fonts to the app's Info.plist; one source, the
/// qbs `ib` module's documentation; the file names are the keys of the document's `customFonts`).
/// `UIMainStoryboardFile`, `UILaunchStoryboardName` and `NSMainStoryboardFile` are not the
/// document's to decide: Xcode's app templates set them as build settings
/// (`INFOPLIST_KEY_UIMainStoryboardFile = Main`, `INFOPLIST_KEY_UILaunchStoryboardName =
/// LaunchScreen`) that become Info.plist keys, and the same storyboard compiles the same way
/// whether or not the app names it; so they are not written here, and a document with no custom
/// fonts gives an empty dictionary. Written as an XML property list.
enum PartialInfoPlist {
  /// The keys `document` contributes.
  static func contents(of document: InterfaceDocument, autoActivateCustomFonts: Bool) -> PropertyListValue {
    var keys: [(String, PropertyListValue)] = []
    if autoActivateCustomFonts, document.platform == .iOS {
      let files = document.root.child("customFonts")?.children("array").compactMap { $0["key"] } ?? []
      if !files.isEmpty { keys.append(("UIAppFonts", .array(files.sorted().map { .string($0) }))) }
    }
    return .dictionary(PropertyListDictionary(keys))
  }

  /// Writes the keys of the document at `input` to `path`.
  static func write(
    for input: String, to path: String, autoActivateCustomFonts: Bool, environment: HostEnvironment
  ) throws(IBToolError) {
    do {
      let document = try InterfaceDocument(contentsOfFile: input, environment: environment)
      try contents(of: document, autoActivateCustomFonts: autoActivateCustomFonts)
        .write(toFile: path, format: .xml, environment: environment)
    } catch {
      throw IBToolError(path: path, detail: "cannot write the partial Info.plist: \(error)")
    }
  }
}
