// FuzzTypedStream: reads each input as a NeXT typedstream (NSArchiver; OPENSTEP nibs) with small
// limits. An input that throws InterfaceError is fine. One that reads is turned into a nib graph
// (or refused with InterfaceError), listed, written as a NIBArchive that must read back to the
// same tables, and loaded by the nib loader in lenient mode (a NibLoadingError is fine; a crash,
// a hang or a leak is not). Build and run: Fuzz/README.md.
import FuzzSupport
import Interface
import InterfaceObjects
import NibLoading

@c(LLVMFuzzerTestOneInput)
public func fuzzTypedStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let limits = TypedStream.Limits(maximumByteCount: 1 << 20, maximumDepth: 64, maximumObjectCount: 1 << 16, maximumValueCount: 1 << 16)
  guard let stream = try? TypedStream(bytes: bytes, limits: limits) else { return 0 }
  for index in stream.objects.indices { _ = stream.classChain(ofObject: index) }
  guard let graph = try? NibGraph(typedStream: stream) else { return 0 }
  _ = graph.hierarchyListing() + graph.connectionsListing() + graph.classesListing()
  let archive = NIBArchive(graph)
  do {
    let again = try NIBArchive(bytes: archive.encoded())
    guard again.firstDifference(from: archive) == nil else { fatalError("[FuzzTypedStream] round-trip failure: the NIBArchive reads differently") }
  } catch {
    fatalError("[FuzzTypedStream] round-trip failure: the NIBArchive of the graph does not read: \(error)")
  }
  // The loader is the main actor's; libFuzzer calls the target on the main thread.
  MainActor.assumeIsolated {
    let nib = Nib(graph: graph, name: "fuzz.nib")
    _ = try? nib.load(owner: NibObject(), options: Nib.Options(missingConnections: .warning))
  }
  return 0
}

runLibFuzzer(fuzzTypedStream)
