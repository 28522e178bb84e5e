// FuzzKeyedUnarchiver: Opens each input (after a first mode byte) as an NSKeyedArchiver archive,
// binary or XML, and decodes its root with a registry of Foundation plus three small test
// classes, in secure mode or not; a decoded root is archived again and unarchived. See
// KeyedFuzzChecks (Tests/KeyedArchiveFuzzChecks). Build and run: Fuzz/README.md.
import FoundationEssentials
import FuzzSupport
import FuzzKeyedArchiveChecks

@c(LLVMFuzzerTestOneInput)
public func fuzzKeyedUnarchiver(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = size > 0 && data != nil ? Data(bytes: data!, count: size) : Data()
  if let failure = KeyedFuzzChecks.run(input) {
    fatalError("[FuzzKeyedUnarchiver] \(failure)")
  }
  return 0
}

runLibFuzzer(fuzzKeyedUnarchiver)
