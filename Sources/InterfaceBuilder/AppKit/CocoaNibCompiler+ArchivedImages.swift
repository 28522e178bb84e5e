import FoundationEssentials
import Interface
import PropertyLists

extension CocoaNibCompiler {
  // MARK: Images saved in the document

  /// The `<image name="…">` resource's `<mutableData key="keyedArchiveRepresentation">`: an
  /// image Interface Builder saved into the document as an `NSKeyedArchiver` archive of its
  /// `NSImage` (a pasted or embedded image, named `<class>:<cell id>:image`); `nil` when the
  /// resource has none.
  func archivedImageData(_ resource: InterfaceDocument.Element) -> InterfaceDocument.Element? {
    resource.children.first { $0.name == "mutableData" && $0["key"] == "keyedArchiveRepresentation" }
  }

  /// An image saved as a keyed archive in the document (``archivedImageData(_:)``) → the
  /// `NSImage` Apple's ibtool archives again from it: {NSImageFlags, NSSize, NSReps (an
  /// `NSMutableArray` of `NSArray` [NSNumber, `NSBitmapImageRep` {NSTIFFRepresentation →
  /// NSData, NSInternalLayoutDirection}]), NSColor, NSResizingMode, NSTintColor nil}.
  ///
  /// The archive's own keys come in another order and may lack NSTintColor; the color gains
  /// NSLinearExposure "1" when it has a custom color space, which is the nib's shared ICC
  /// color space (test16_buttons: five 1×1 images with three TIFF reps and Generic Gray;
  /// transmission_MainMenu: a 62×62 image, one rep, a plain calibrated white).
  mutating func archivedImage(_ data: InterfaceDocument.Element, name: String) throws(InterfaceBuilderError) -> Int {
    // The base64 text without its line breaks and indentation, byte by byte over the string's
    // UTF-8 in place (a filter over Characters took 10 ms of a 119 KB document's compile,
    // test16_buttons; a lazy filter over the UTF-8 view 1.3 ms of transmission_MainMenu's); text
    // with other than ASCII in it keeps the Character filter (Unicode white space).
    var source = data.text
    var text = source.withUTF8 { utf8 in
      var kept = [UInt8]()
      kept.reserveCapacity(utf8.count)
      for byte in utf8 where !((byte >= 0x09 && byte <= 0x0D) || byte == 0x20) { kept.append(byte) }
      return kept
    }
    if text.contains(where: { $0 >= 0x80 }) { text = Array(data.text.filter { !$0.isWhitespace }.utf8) }
    while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
    guard let bytes = Data(base64Encoded: Data(text)) else { throw invalid(data, "the keyedArchiveRepresentation of image \"\(name)\" is not base64") }
    let archive: PropertyListValue
    do { archive = try PropertyListValue(decoding: bytes) } catch { throw invalid(data, "the keyedArchiveRepresentation of image \"\(name)\" is not a property list: \(error)") }
    guard let objects = archive["$objects"]?.arrayValue, case .uid(let rootIndex)? = archive["$top"]?["root"] else {
      throw invalid(data, "the keyedArchiveRepresentation of image \"\(name)\" is not a keyed archive")
    }
    let reader = ArchivedObjects(objects: objects)
    guard let image = reader.object(.uid(rootIndex)), reader.className(image) == "NSImage" else {
      throw unsupported(data, "a keyedArchiveRepresentation whose root is not an NSImage is not compiled yet")
    }
    let unknownKeys = Set(image.dictionaryValue?.keys ?? []).subtracting(["$class", "NSImageFlags", "NSSize", "NSReps", "NSColor", "NSResizingMode", "NSTintColor"])
    guard unknownKeys.isEmpty, reader.object(image["NSTintColor"] ?? .uid(0)) == nil else {
      throw unsupported(data, "an archived NSImage with \(unknownKeys.sorted().joined(separator: ", ")) or a tint color is not compiled yet")
    }
    guard let flags = image["NSImageFlags"]?.intValue, let size = reader.object(image["NSSize"] ?? .uid(0))?.stringValue,
      let repsObject = reader.object(image["NSReps"] ?? .uid(0)), let reps = reader.arrayElements(repsObject)
    else { throw unsupported(data, "an archived NSImage without NSImageFlags, NSSize and NSReps is not compiled yet") }

    let result = graph.add("NSImage")
    var entries: [NibGraph.Entry] = [.init("NSImageFlags", NibGraph.integer(flags)), .init("NSSize", string(size))]
    var repPairs: [Int] = []
    for pair in reps {
      guard let pairObject = reader.object(pair), let elements = reader.arrayElements(pairObject), elements.count == 2,
        let kind = reader.object(elements[0])?.intValue, let rep = reader.object(elements[1]), reader.className(rep) == "NSBitmapImageRep",
        let tiff = reader.object(rep["NSTIFFRepresentation"] ?? .uid(0))?.dataValue,
        Set(rep.dictionaryValue?.keys ?? []).isSubset(of: ["$class", "NSTIFFRepresentation", "NSInternalLayoutDirection"])
      else { throw unsupported(data, "an archived NSImage whose representations are not [number, NSBitmapImageRep with TIFF] pairs is not compiled yet") }
      let kindNumber = number(kind)
      let repObject = graph.add("NSBitmapImageRep")
      var repEntries: [NibGraph.Entry] = [.init("NSTIFFRepresentation", .object(graph.data(Array(tiff))))]
      if let direction = rep["NSInternalLayoutDirection"]?.intValue { repEntries.append(.init("NSInternalLayoutDirection", NibGraph.integer(direction))) }
      graph[repObject].entries = repEntries
      repPairs.append(graph.collection("NSArray", [kindNumber, repObject]))
    }
    entries.append(.init("NSReps", .object(graph.collection(reader.className(repsObject) ?? "NSMutableArray", repPairs))))
    if let colorReference = image["NSColor"] {
      guard let color = reader.object(colorReference) else { throw invalid(data, "the archived NSImage's NSColor is not an object") }
      entries.append(.init("NSColor", .object(try archivedColor(color, reader: reader, element: data))))
    }
    entries.append(.init("NSResizingMode", NibGraph.integer(image["NSResizingMode"]?.intValue ?? 0)))
    entries.append(.init("NSTintColor", .null))
    graph[result].entries = entries
    return result
  }

  /// An archived image's `NSColor` → a new `NSColor` {NSColorSpace, NSWhite or NSRGB (the
  /// archive's bytes), and with a custom color space the nib's shared `NSColorSpace` (Generic
  /// Gray NSID 9 or sRGB NSID 7), NSComponents and NSLinearExposure "1"}.
  mutating func archivedColor(_ color: PropertyListValue, reader: ArchivedObjects, element: InterfaceDocument.Element) throws(InterfaceBuilderError) -> Int {
    guard reader.className(color) == "NSColor", let space = color["NSColorSpace"]?.intValue, space == 1 || space == 2 || space == 3,
      let components = color[space == 3 ? "NSWhite" : "NSRGB"]?.dataValue,
      Set(color.dictionaryValue?.keys ?? []).isSubset(of: ["$class", "NSColorSpace", "NSWhite", "NSRGB", "NSCustomColorSpace", "NSComponents"])
    else { throw unsupported(element, "an archived image's color other than a calibrated or device white or RGB is not compiled yet") }
    var entries: [NibGraph.Entry] = [.init("NSColorSpace", NibGraph.integer(space)), .init(space == 3 ? "NSWhite" : "NSRGB", .data(Array(components)))]
    if let customReference = color["NSCustomColorSpace"] {
      guard let custom = reader.object(customReference), let id = custom["NSID"]?.intValue, id == 9 || id == 7,
        let icc = reader.object(custom["NSICC"] ?? .uid(0))?.dataValue, let values = color["NSComponents"]?.dataValue
      else { throw unsupported(element, "an archived image's color space other than Generic Gray or sRGB with its profile is not compiled yet") }
      let gray = id == 9
      if let profiles = options.colorProfiles, Array(icc) != (gray ? profiles.genericGray : profiles.sRGB) {
        throw unsupported(element, "an archived image's color space whose ICC profile is not AppKit's is not compiled yet")
      }
      entries.append(.init("NSCustomColorSpace", .object(try colorSpace(gray: gray, element: element))))
      entries.append(.init("NSComponents", .data(Array(values))))
      entries.append(.init("NSLinearExposure", .data(Array("1".utf8))))
    }
    return graph.add("NSColor", entries)
  }
}

/// The `$objects` of a keyed archive, read by reference.
struct ArchivedObjects {
  let objects: [PropertyListValue]

  /// The object a `CF$UID` refers to; `nil` for `$null`, a reference out of range, or a value
  /// that is not a reference.
  func object(_ reference: PropertyListValue) -> PropertyListValue? {
    guard case .uid(let index) = reference, index > 0, index < UInt64(objects.count) else { return nil }
    return objects[Int(index)]
  }

  /// The `$classname` of an object's `$class`.
  func className(_ object: PropertyListValue) -> String? {
    object["$class"].flatMap { self.object($0) }?["$classname"]?.stringValue
  }

  /// An `NSArray`'s or `NSMutableArray`'s `NS.objects` references.
  func arrayElements(_ object: PropertyListValue) -> [PropertyListValue]? {
    guard let name = className(object), name == "NSArray" || name == "NSMutableArray" else { return nil }
    return object["NS.objects"]?.arrayValue
  }
}
