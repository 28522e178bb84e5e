// stasis-crash-writer: a process for the crash-safety and locking tests to start and kill.
//
//   stasis-crash-writer --mode <mode> [--folder DIR] [--lock PATH] [--count N] ...
//
// Each mode is one type conforming to `CrashWriterMode` in its own file, listed in `modes`
// below; to add one (say, writing through `Defaults`), add a file with the type, one line here,
// and the module it needs to this target's dependencies in Package.swift.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let modes: [String: any CrashWriterMode.Type] = [
  FilesMode.name: FilesMode.self,
  LockMode.name: LockMode.self,
  HomepwnerMode.name: HomepwnerMode.self,
]

let arguments = WriterArguments(CommandLine.arguments.dropFirst())
guard let modeName = arguments["--mode"], let mode = modes[modeName] else {
  let known = modes.keys.sorted().joined(separator: ", ")
  printError("usage: stasis-crash-writer --mode <\(known)> [options]")
  exit(64)
}
do {
  try mode.run(arguments)
  exit(0)
} catch {
  printError("stasis-crash-writer: \(error)")
  exit(1)
}

func printError(_ message: String) {
  var line = message + "\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
