import StasisSystem
import Defaults
import Foundation
import PropertyLists
import Sandbox

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A child process for the Defaults tests (exit-time flush, multi-process merging, torn-file
/// checks and SIGKILL crash safety). Not installed; tests run it from the build folder.
///
///     stasis-defaults-child set-and-exit <root> <bundle id> <count>
///         sets k0…k<count-1> = 0…count-1 without synchronize() and exits (the exit hook saves)
///     stasis-defaults-child writer <root> <bundle id> <writer> <updates>
///         sets w<writer>.k<i> = i for each update, synchronizing after each
///     stasis-defaults-child reader <root> <bundle id> <milliseconds>
///         reads the preferences file raw in a loop; prints `reads=N torn=T`; exits 1 if torn
///     stasis-defaults-child crash-loop <root> <bundle id>
///         forever: counter += 1, payload = 64 strings naming the counter, synchronize()
@main
enum DefaultsChild {
  /// Stasis's `UserDefaults` wherever this type names it (Docs/architecture.md, decision 6): a
  /// scope's alias shadows Foundation's, which this tool also imports.
  typealias UserDefaults = Defaults.UserDefaults

  static func main() {
    let arguments = CommandLine.arguments
    guard arguments.count >= 4 else { fail("usage: stasis-defaults-child <mode> <root> <bundle id> …") }
    let mode = arguments[1]
    let configuration = UserDefaults.Configuration(
      containerRoot: ContainerRoot(path: arguments[2]), arguments: [arguments[0]], languages: [], flushDelay: nil)
    let bundleIdentifier = arguments[3]
    switch mode {
    case "set-and-exit":
      let defaults = open(bundleIdentifier, configuration)
      let count = Int(arguments[4]) ?? 0
      for index in 0..<count { defaults.set(index, forKey: "k\(index)") }
      // No synchronize(): exit(0) runs the exit hook, which must save.
      exit(0)
    case "writer":
      let defaults = open(bundleIdentifier, configuration)
      let writer = arguments[4]
      let updates = Int(arguments[5]) ?? 0
      for index in 0..<updates {
        defaults.set(index, forKey: "w\(writer).k\(index)")
        guard defaults.synchronize() else { fail("synchronize failed at update \(index)") }
      }
      exit(0)
    case "reader":
      let defaults = open(bundleIdentifier, configuration)
      guard let path = defaults.preferencesFilePath else { fail("no preferences file") }
      let deadline = Date().addingTimeInterval(Double(Int(arguments[4]) ?? 100) / 1000)
      var reads = 0
      var torn = 0
      while Date() < deadline {
        guard let data = try? AtomicFile.read(contentsOfFile: path, limit: 1 << 26) else { continue }
        reads += 1
        if case .dictionary? = try? PropertyListValue(decoding: data) { continue }
        torn += 1
      }
      print("reads=\(reads) torn=\(torn)")
      exit(torn == 0 ? 0 : 1)
    case "crash-loop":
      let defaults = open(bundleIdentifier, configuration)
      var counter = defaults.integer(forKey: "counter")
      while true {
        counter += 1
        defaults.set(counter, forKey: "counter")
        defaults.setPropertyList(.array((0..<64).map { .string("value \(counter) #\($0)") }), forKey: "payload")
        _ = defaults.synchronize()
      }
    default:
      fail("unknown mode \(mode)")
    }
  }

  static func open(_ identifier: String, _ configuration: UserDefaults.Configuration) -> UserDefaults {
    do {
      return try UserDefaults(bundleIdentifier: identifier, configuration: configuration)
    } catch {
      fail(error.description)
    }
  }

  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
  }
}
