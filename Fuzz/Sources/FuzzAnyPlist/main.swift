// FuzzAnyPlist: Detects each input's format (binary, XML, then OpenStep falling back to JSON) and reads it.
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzAnyPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: nil, target: "FuzzAnyPlist")
}

runLibFuzzer(fuzzAnyPlist)
