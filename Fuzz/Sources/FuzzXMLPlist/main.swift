// FuzzXMLPlist: Reads each input as an XML property list.
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. Build and run: Fuzz/README.md.
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzXMLPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.testOneInput(data, size, format: .xml, target: "FuzzXMLPlist")
}

runLibFuzzer(fuzzXMLPlist)
