// FuzzXMLPlist: Reads each input as an XML property list.
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. The Codable decoder, which reads UTF-8 XML documents from a flat record of their
// elements, must agree with decoding the value tree (CodableAgreement). Build and run:
// Fuzz/README.md.
import FoundationEssentials
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzXMLPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let result = FuzzHarness.testOneInput(data, size, format: .xml, target: "FuzzXMLPlist")
  if let data, size > 0 { CodableAgreement.check(Data(bytes: data, count: size), format: .xml, target: "FuzzXMLPlist") }
  return result
}

runLibFuzzer(fuzzXMLPlist)
