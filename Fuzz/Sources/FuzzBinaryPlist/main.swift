// FuzzBinaryPlist: Reads each input as a binary property list (`bplist00`).
// Every input that reads must survive writing back in its own format and in binary; see
// FuzzHarness. The Codable decoder, which reads binary documents in place, must agree with
// decoding the value tree (CodableAgreement). Build and run: Fuzz/README.md.
import FoundationEssentials
import FuzzSupport
import PropertyLists

@c(LLVMFuzzerTestOneInput)
public func fuzzBinaryPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let result = FuzzHarness.testOneInput(data, size, format: .binary, target: "FuzzBinaryPlist")
  if let data, size > 0 { CodableAgreement.check(Data(bytes: data, count: size), format: .binary, target: "FuzzBinaryPlist") }
  return result
}

runLibFuzzer(fuzzBinaryPlist)
