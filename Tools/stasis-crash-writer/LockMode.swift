import StasisSystem
import FoundationEssentials
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--mode lock --lock PATH --counter PATH [--count N] [--check-shared]`: N times, takes the
/// exclusive `FileLock` on PATH, reads the decimal counter file, pauses briefly (so that an
/// unexcluded writer would lose updates), and writes the counter plus one. With
/// `--check-shared`, also takes the shared lock between updates and checks the counter does not
/// change while it is held.
///
/// The test runs two of these at once and expects the counter to end at exactly 2 × N.
enum LockMode: CrashWriterMode {
  static let name = "lock"

  static func run(_ arguments: WriterArguments) throws {
    let lock = try FileLock(path: try arguments.required("--lock"))
    let counter = try arguments.required("--counter")
    let count = try arguments.integer("--count", default: 100)
    let checkShared = arguments["--check-shared"] != nil
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<count {
      try lock.withExclusiveLock {
        let value = try readCounter(counter)
        usleep(UInt32.random(in: 0...300, using: &generator))
        try AtomicFile.write(Data("\(value + 1)\n".utf8), toFile: counter)
      }
      if checkShared {
        try lock.withSharedLock {
          let before = try readCounter(counter)
          usleep(UInt32.random(in: 0...300, using: &generator))
          guard try readCounter(counter) == before else { throw WriterFailure("the counter changed under a shared lock") }
        }
      }
    }
  }

  static func readCounter(_ path: String) throws -> Int {
    let data: Data
    do {
      data = try AtomicFile.read(contentsOfFile: path, limit: 64)
    } catch let error where error.code == .notFound {
      return 0
    }
    guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first, let value = Int(line) else {
      throw WriterFailure("the counter file holds no number")
    }
    return value
  }
}
