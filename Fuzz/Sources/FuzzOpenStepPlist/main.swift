// FuzzOpenStepPlist: Reads each input as an OpenStep (old-style ASCII) property list.
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzOpenStepPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: .openStep, target: "FuzzOpenStepPlist")
}

runLibFuzzer(fuzzOpenStepPlist)
