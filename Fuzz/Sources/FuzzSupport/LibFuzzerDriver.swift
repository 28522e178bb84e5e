import CLibFuzzer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Hands the process to libFuzzer with `target` as the function under test.
///
/// SwiftPM links an executable target on Linux with `--defsym main=<Target>_main`, so the
/// target's top-level code becomes the program's `main` and libFuzzer's own `main` (which would
/// call `LLVMFuzzerTestOneInput`) is never linked in. Each `main.swift` therefore ends by calling
/// this, which runs libFuzzer's driver on the process's command line, exactly as its `main` would.
public func runLibFuzzer(
  _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  let status = LLVMFuzzerRunDriver(&argc, &argv, target)
  exit(status)
}
