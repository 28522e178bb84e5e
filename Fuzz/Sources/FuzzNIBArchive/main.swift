// FuzzNIBArchive: reads each input as a NIBArchive (compiled nib) with small limits. An input
// that throws InterfaceError is fine; one that reads must encode, and the encoded bytes must read
// back to an equal archive (and encode to the same bytes again). Build and run: Fuzz/README.md.
import FuzzSupport
import Interface

@c(LLVMFuzzerTestOneInput)
public func fuzzNIBArchive(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let limits = NIBArchive.Limits(maximumByteCount: 1 << 20, maximumEntryCount: 1 << 16)
  guard let nib = try? NIBArchive(bytes: bytes, limits: limits) else { return 0 }
  let encoded = nib.encoded()
  let again: NIBArchive
  do {
    again = try NIBArchive(bytes: encoded)
  } catch {
    fatalError("[FuzzNIBArchive] round-trip failure: the encoded archive does not read: \(error)")
  }
  guard again == nib else { fatalError("[FuzzNIBArchive] round-trip failure: the encoded archive reads differently") }
  guard again.encoded() == encoded else { fatalError("[FuzzNIBArchive] round-trip failure: encoding is not stable") }
  return 0
}

runLibFuzzer(fuzzNIBArchive)
