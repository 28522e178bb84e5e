// FuzzXibDocument: reads each input as an Interface Builder document (.xib or .storyboard) with
// InterfaceDocument(bytes:path:limits:) and small limits. The reader must either return a
// document or throw InterfaceBuilderError. A document that reads must have every element on a
// line >= 1, and no more elements (nor deeper nesting) than the limits allow; an error's
// description must be non-empty and start with the path given. Crashes inside libxml2 or the
// reader, hangs (-timeout) and memory growth (-rss_limit_mb) are libFuzzer's to catch.
// A document that reads is then compiled (a macOS xib or storyboard in AppKit's encoding, an iOS
// one in Apple's UIKit encoding) and its strings exported:
// the compiler either throws InterfaceBuilderError naming the path, or its nibs encode and read
// back as the same graph.
// Build and run: Fuzz/README.md.
import FuzzSupport
import Interface
import InterfaceBuilder

/// The path the reader is told; every error's description must start with it.
let fuzzPath = "fuzz.xib"
/// 1 MB, 10,000 elements (reachable within -max_len=65536: `<a/>` is 4 bytes), nesting 128
/// (below libxml2's own 256, so the reader's depth check is reachable too).
let fuzzLimits = InterfaceDocument.Limits(maximumByteCount: 1 << 20, maximumElementCount: 10_000, maximumDepth: 128)

@c(LLVMFuzzerTestOneInput)
public func fuzzXibDocument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  let document: InterfaceDocument
  do {
    document = try InterfaceDocument(bytes: bytes, path: fuzzPath, limits: fuzzLimits)
  } catch {
    // Typed throws: `error` is an InterfaceBuilderError.
    let description = error.description
    guard !description.isEmpty else { fatalError("[FuzzXibDocument] the error's description is empty (code \(error.code))") }
    guard description.hasPrefix(fuzzPath) else {
      fatalError("[FuzzXibDocument] the error's description does not start with the path \(fuzzPath): \(description)")
    }
    return 0
  }
  // Walk the tree without recursion: count the elements, check each line and the depth.
  var count = 0
  var pending: [(element: InterfaceDocument.Element, depth: Int)] = [(document.root, 1)]
  while let (element, depth) = pending.popLast() {
    count += 1
    guard element.line >= 1 else {
      fatalError("[FuzzXibDocument] element <\(element.name)> (element \(count) in walk order) has line \(element.line)")
    }
    guard depth <= fuzzLimits.maximumDepth else {
      fatalError("[FuzzXibDocument] element <\(element.name)> at line \(element.line) nests \(depth) deep, past the limit of \(fuzzLimits.maximumDepth)")
    }
    for child in element.children { pending.append((child, depth + 1)) }
  }
  guard count <= fuzzLimits.maximumElementCount else {
    fatalError("[FuzzXibDocument] the document has \(count) elements, past the limit of \(fuzzLimits.maximumElementCount)")
  }
  compileAndCheck(document)
  _ = StringsExport(document).bytes()
  return 0
}

/// Stand-in ICC profiles, so that catalog colors compile too.
let fuzzProfiles = ColorProfiles(genericGray: [1, 2, 3], sRGB: [4, 5, 6])

func compileAndCheck(_ document: InterfaceDocument) {
  let options = CocoaNibCompiler.Options(colorProfiles: fuzzProfiles)
  let graphs: [NibGraph]
  do {
    switch (document.platform, document.kind) {
    case (.iOS, .storyboard):
      // Apple's UIKit encoding, as Xcode 7 and as the newest Xcode (their rules differ).
      graphs =
        try UIKitStoryboardCompiler.compile(document, options: .init(xcode: 731, deploymentTarget: (8, 0))).nibs.map(\.graph)
        + UIKitStoryboardCompiler.compile(document).nibs.map(\.graph)
    case (.iOS, _):
      // A deployment target before iOS 11 splits a document with safe areas into two nibs.
      graphs = try UIKitNibCompiler.compileVariants(document, options: .init(xcode: 731), deploymentTarget: (8, 0)).map(\.graph)
    case (_, .storyboard):
      graphs = try CocoaStoryboardCompiler.compile(document, options: options).nibs.map(\.graph)
    default:
      graphs = [try CocoaNibCompiler.compile(document, options: options)]
    }
  } catch {
    guard error.description.hasPrefix(fuzzPath) else {
      fatalError("[FuzzXibDocument] a compile error does not name the path \(fuzzPath): \(error.description)")
    }
    return
  }
  for graph in graphs {
    let archive = NIBArchive(graph, keepingUnreachable: false)
    guard let reread = try? NIBArchive(bytes: archive.encoded()) else {
      fatalError("[FuzzXibDocument] a compiled nib does not read back")
    }
    if let difference = reread.firstDifference(from: archive) {
      fatalError("[FuzzXibDocument] a compiled nib reads back different: \(difference)")
    }
  }
}

runLibFuzzer(fuzzXibDocument)
