import FoundationEssentials
import PropertyLists
import TestSupport

/// A realistic iOS-style (flat) app bundle written by the tests into a temporary folder: an Info.plist
/// (binary) with device overrides, localizations en, en-GB, fr, de, zh-Hans, zh-Hant and Base, string
/// tables in UTF-16LE/BE with BOM, UTF-8 with and without BOM and binary plist form, a
/// `.stringsdict`, `InfoPlist.strings`, device (`~ipad`, `~iphone`, `-linux`) and scale
/// (`@2x`, `@3x`) variants.
enum DemoBundle {
  /// The scratch folder that holds the bundle; kept for the whole test process.
  static let scratch = try! ScratchFolder("bundles")

  /// The bundle folder, built once per test process.
  static let path: String = {
    let bundle = scratch.path + "/Demo.app"
    build(at: bundle)
    return bundle
  }()

  static func write(_ bytes: [UInt8], to path: String) {
    let folder = String(path[..<path.lastIndex(of: "/")!])
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  }

  static func write(_ text: String, to path: String) { write(Array(text.utf8), to: path) }

  static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in text.utf16 {
      if bigEndian { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] } else { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    }
    return bytes
  }

  static func plist(_ value: PropertyListValue, _ format: PropertyListFormat) -> [UInt8] {
    try! value.encodedBytes(as: format)
  }

  static func build(at bundle: String) {
    let info: PropertyListValue = [
      "CFBundleIdentifier": "com.example.demo",
      "CFBundleIdentifier-linux": "com.example.not-allowed",
      "CFBundleExecutable": "Demo",
      "CFBundleName": "Demo",
      "CFBundleDisplayName": "Demo",
      "CFBundleDevelopmentRegion": "en",
      "CFBundleLocalizations": ["en", "en-GB", "fr", "de", "zh-Hans", "zh-Hant"],
      "CFBundlePackageType": "APPL",
      "CFBundleShortVersionString": "1.2",
      "UISupportedInterfaceOrientations": ["UIInterfaceOrientationPortrait"],
      "UISupportedInterfaceOrientations~ipad": ["UIInterfaceOrientationPortrait", "UIInterfaceOrientationLandscapeLeft"],
      "DemoTheme": "light",
      "DemoTheme-linux": "dark",
      "DemoTheme-iphoneos~ipad": "tablet",
    ]
    write(plist(info, .binary), to: bundle + "/Info.plist")
    write("#!/bin/sh\n", to: bundle + "/Demo")
    for name in ["Logo.png", "Logo~ipad.png", "Logo~iphone.png", "Config.plist", "Config-linux.plist",
                 "button.png", "button@2x.png", "button@3x.png", "button@2x~ipad.png", "star@2x.png", "badge.png",
                 "sounds/click.wav", "sounds/beep.wav", "Data/levels/1.json", "Data/levels/2.json"] {
      write(name, to: bundle + "/" + name)
    }
    // en: UTF-16LE with BOM, comments, a key-only entry, an unquoted key.
    write(utf16("""
      /* Colours */
      "color" = "Color";
      "greeting" = "Hello";   // said on launch
      "farewell" = "Goodbye";
      "only.en" = "English only";
      "files.count" = "%d files";
      "welcome.user" = "Welcome, %@!";
      "sent" = "%2$@ sent %1$d messages";
      "key.only";
      plain_key = "Unquoted key";
      "escapes" = "Tab\\there \\"quoted\\" \\U00e9";

      """, bigEndian: false), to: bundle + "/en.lproj/Localizable.strings")
    write(plist(["CFBundleDisplayName": "Demo App", "NSCameraUsageDescription": "Scan codes"], .strings),
          to: bundle + "/en.lproj/InfoPlist.strings")
    write(plist(["error.generic": "Something went wrong"], .binary), to: bundle + "/en.lproj/Errors.strings")
    write(plist([
      "files.count": [
        "NSStringLocalizedFormatKey": "%#@files@",
        "files": [
          "NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
          "zero": "No files", "one": "%d file", "other": "%d files",
        ],
      ],
      "items.in.folders": [
        "NSStringLocalizedFormatKey": "%#@items@ in %#@folders@",
        "items": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                  "one": "one item", "other": "%d items"],
        "folders": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                    "one": "%d folder", "other": "%d folders"],
      ],
    ], .xml), to: bundle + "/en.lproj/Localizable.stringsdict")
    write("en", to: bundle + "/en.lproj/Welcome.html")
    write("en", to: bundle + "/en.lproj/Flag.png")
    // en-GB: UTF-8 without BOM, only some keys.
    write("\"color\" = \"Colour\";\n\"greeting\" = \"Hello\";\n", to: bundle + "/en-GB.lproj/Localizable.strings")
    write("en-GB", to: bundle + "/en-GB.lproj/Flag.png")
    // fr: UTF-8 with BOM.
    write([0xEF, 0xBB, 0xBF] + Array("""
      "color" = "Couleur";
      "greeting" = "Bonjour";
      "farewell" = "Au revoir";
      "welcome.user" = "Bienvenue, %@ !";
      "sent" = "%2$@ a envoyé %1$d messages";

      """.utf8), to: bundle + "/fr.lproj/Localizable.strings")
    write(plist([
      "files.count": [
        "NSStringLocalizedFormatKey": "%#@files@",
        "files": ["NSStringFormatSpecTypeKey": "NSStringPluralRuleType", "NSStringFormatValueTypeKey": "d",
                  "one": "%d fichier", "other": "%d fichiers"],
      ]
    ], .xml), to: bundle + "/fr.lproj/Localizable.stringsdict")
    write(plist(["CFBundleDisplayName": "Démo"], .strings), to: bundle + "/fr.lproj/InfoPlist.strings")
    write("fr", to: bundle + "/fr.lproj/Welcome.html")
    write("fr", to: bundle + "/fr.lproj/sounds/click.wav")
    write("fr", to: bundle + "/fr.lproj/sounds/voice.wav")
    // de: UTF-16BE with BOM.
    write(utf16("\"color\" = \"Farbe\";\n\"greeting\" = \"Hallo\";\n\"farewell\" = \"Tschüss\";\n", bigEndian: true),
          to: bundle + "/de.lproj/Localizable.strings")
    write("de", to: bundle + "/de.lproj/Welcome.html")
    write("\"color\" = \"颜色\";\n\"greeting\" = \"你好\";\n", to: bundle + "/zh-Hans.lproj/Localizable.strings")
    write("zh-Hans", to: bundle + "/zh-Hans.lproj/Flag.png")
    write("\"color\" = \"顏色\";\n\"greeting\" = \"您好\";\n", to: bundle + "/zh-Hant.lproj/Localizable.strings")
    write(plist(["CFBundleDisplayName": "示範"], .strings), to: bundle + "/zh-Hant.lproj/InfoPlist.strings")
    write("Base", to: bundle + "/Base.lproj/Flag.png")
    write("Base", to: bundle + "/Base.lproj/Onboarding.html")
    write(plist(["UIStoryboardDesignatedEntryPointIdentifier": "start"], .binary),
          to: bundle + "/Base.lproj/Main.storyboardc/Info.plist")
  }
}
