// FuzzBinaryPlist: Reads each input as a binary property list (`bplist00`).
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzBinaryPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: .binary, target: "FuzzBinaryPlist")
}

runLibFuzzer(fuzzBinaryPlist)
