/// The flags Xcode's build system (swift-build's and xcbuild's `IBCompiler`,
/// `IBStoryboardCompiler` and `IBStoryboardLinker` specs) gives ibtool beyond the ones
/// ``Options`` reads, taken off the command line before it is parsed:
///
/// - `--compilation-directory DIR`: compile into `DIR/NAME.nib` (a xib) or
///   `DIR/NAME.storyboardc` (a storyboard), NAME being the document's name without its extension;
/// - `--output-partial-info-plist PATH`: write the Info.plist keys the document contributes
///   (``PartialInfoPlist``);
/// - `--link DIR IN.storyboardc…`: the storyboard link step (``StoryboardLink``);
/// - `--version`: Apple's `com.apple.ibtool.version` report;
/// - the flags Xcode passes that change nothing Stasis compiles (``acceptedFlags``,
///   ``acceptedOptions``): accepted, and each reported as a notice saying so.
struct XcodeInvocation {
  /// `--compilation-directory`.
  var compilationDirectory: String?
  /// `--output-partial-info-plist`.
  var partialInfoPlist: String?
  /// `--link DIR`: the product folder the compiled storyboards are linked into.
  var linkDirectory: String?
  /// `--version`.
  var version = false
  /// `--auto-activate-custom-fonts`.
  var autoActivateCustomFonts = false
  /// One notice for each accepted flag that changes nothing.
  var notices: [String] = []
  /// The command line left for ``Options``.
  var remaining: [String] = []

  /// Flags without a value that Apple's ibtool accepts and that change nothing Stasis writes,
  /// with why (swift-build's IBCompiler/IBStoryboardCompiler specs pass them).
  static let acceptedFlags: [String: String] = [
    "--use-nibkeyedarchiver-for-macos":
      "macOS nibs are written as NIBArchive files, which AppKit reads on every version Stasis compiles for",
  ]
  /// Options with one value that Apple's ibtool accepts and that change nothing Stasis writes,
  /// with why (swift-build's and xcbuild's ibtool specs pass them).
  static let acceptedOptions: [String: String] = [
    "--platform": "the platform is the document's own (its targetRuntime)",
    "--companion-strings-file":
      "compiling with a region's strings at the same time is not supported; localize with --import-strings-file and --write, then compile",
    "--plugin": "Interface Builder plugins are Mac bundles and are not loaded",
    "--plugin-dir": "Interface Builder plugins are Mac bundles and are not loaded",
    "--compilation-mode-for-ios": "iOS documents compile one way (Stasis's UIKit encoding)",
    "--sdk": "no SDK is read; the document names its own classes",
  ]

  /// Takes Xcode's flags off `arguments`; what is left is in ``remaining``. `--link` takes the
  /// folder after it, and every other argument that is not a flag is a storyboard to link.
  init(_ arguments: [String]) throws(IBToolError) {
    var index = 0
    func value(of flag: String) throws(IBToolError) -> String {
      guard index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" else {
        throw IBToolError(path: nil, detail: "\(flag) needs a value")
      }
      index += 1
      return arguments[index - 1]
    }
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--compilation-directory": compilationDirectory = try value(of: argument)
      case "--output-partial-info-plist": partialInfoPlist = try value(of: argument)
      case "--link": linkDirectory = try value(of: argument)
      case "--version": version = true
      case "--auto-activate-custom-fonts":
        autoActivateCustomFonts = true
        notices.append(
          "--auto-activate-custom-fonts: accepted; the document's custom fonts are listed under UIAppFonts in the partial Info.plist (iOS documents)")
      default:
        if let reason = Self.acceptedFlags[argument] {
          notices.append("\(argument): accepted and ignored: \(reason)")
        } else if let reason = Self.acceptedOptions[argument] {
          let given = try value(of: argument)
          notices.append("\(argument) \(given): accepted and ignored: \(reason)")
        } else {
          remaining.append(argument)
        }
      }
    }
  }

  /// Whether the command line used any of Xcode's flags (otherwise ibtool runs as before).
  var isUsed: Bool {
    compilationDirectory != nil || partialInfoPlist != nil || linkDirectory != nil || version || !notices.isEmpty
  }

  /// Where `--compilation-directory` puts the compiled `input`: Apple's names, `NAME.nib` for
  /// a xib and `NAME.storyboardc` for a storyboard, in the folder given.
  static func compiledPath(of input: String, in directory: String) throws(IBToolError) -> String {
    let name = input.split(separator: "/").last.map(String.init) ?? input
    let folder = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
    for (source, compiled) in [(".xib", ".nib"), (".storyboard", ".storyboardc")] where name.hasSuffix(source) {
      return folder + "/" + name.dropLast(source.count) + compiled
    }
    throw IBToolError(path: input, detail: "--compilation-directory compiles a .xib or a .storyboard")
  }
}

/// Apple's `ibtool --version`: `com.apple.ibtool.version` with `bundle-version` and
/// `short-bundle-version` (the version of Stasis's ibtool, not of an Xcode).
enum IBToolVersion {
  static let bundleVersion = "1"
  static let shortBundleVersion = "1.0"
}
