// FuzzJSONPlist: Reads each input as JSON under plutil's rules.
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzJSONPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: .json, target: "FuzzJSONPlist")
}

runLibFuzzer(fuzzJSONPlist)
