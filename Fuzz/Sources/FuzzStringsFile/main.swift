// FuzzStringsFile: Reads each input as a `.strings` file (an OpenStep dictionary without its braces).
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzStringsFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: .strings, target: "FuzzStringsFile")
}

runLibFuzzer(fuzzStringsFile)
