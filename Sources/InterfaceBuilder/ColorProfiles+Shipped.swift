import AtomicFiles
internal import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension ColorProfiles {
  /// The folder of the profiles inside the target's resources (`resources: [.copy("ColorProfiles")]`).
  static let folderName = "ColorProfiles"
  /// SwiftPM's resource bundle of this target, next to the built executable or test runner.
  static let resourceBundleName = "Stasis_InterfaceBuilder.resources"
  static let grayFileName = "GenericGrayGamma2.2.icc"
  static let sRGBFileName = "sRGB.icc"

  /// The two profiles Apple's ibtool writes, shipped with this module (extracted from an
  /// Apple-compiled nib of the test corpus; `ColorProfiles/README.md` says which and why), or
  /// `nil` when neither place holds them: the SwiftPM resource bundle beside the running
  /// executable (a `swift build` product, a test runner), then the module's source folder.
  public static let shipped: ColorProfiles? = {
    for folder in candidateFolders {
      if let profiles = ColorProfiles(folder: folder) { return profiles }
    }
    return nil
  }()

  /// Where the profiles may be, in order.
  static var candidateFolders: [String] {
    var folders: [String] = []
    if let executable = executablePath() {
      var directory = executable
      // The executable's folder and, for a test bundle on Darwin, a few folders up.
      for _ in 0..<4 {
        guard let slash = directory.lastIndex(of: "/") else { break }
        directory = String(directory[..<slash])
        folders.append(directory + "/" + resourceBundleName + "/" + folderName)
        folders.append(directory + "/" + resourceBundleName + "/Contents/Resources/" + folderName)
      }
    }
    // The module's own sources (a checkout).
    let source = #filePath
    if let slash = source.lastIndex(of: "/") { folders.append(String(source[..<slash]) + "/" + folderName) }
    return folders
  }

  /// The profiles in `folder`, when both files are there and look like ICC profiles (`acsp` at
  /// byte 36, the declared size the file's).
  init?(folder: String) {
    func profile(_ name: String) -> [UInt8]? {
      guard let data = try? AtomicFile.read(contentsOfFile: folder + "/" + name, limit: 1 << 20) else { return nil }
      let bytes = [UInt8](data)
      guard bytes.count >= 128, bytes[36..<40].elementsEqual("acsp".utf8) else { return nil }
      let declared = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
      return declared == bytes.count ? bytes : nil
    }
    guard let gray = profile(Self.grayFileName), let rgb = profile(Self.sRGBFileName) else { return nil }
    self.init(genericGray: gray, sRGB: rgb)
  }

  /// The running executable's path (`/proc/self/exe` on Linux), or `nil`.
  static func executablePath() -> String? {
    #if os(Linux)
      var buffer = [CChar](repeating: 0, count: 4096)
      let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    #else
      return CommandLine.arguments.first
    #endif
  }
}
