/// A NeXT/Apple `typedstream`: what `NSArchiver` (and NeXTSTEP's `NXTypedStream`) wrote before
/// keyed archives, and what OPENSTEP-era nibs (`objects.nib`) hold. Read by
/// ``init(bytes:path:limits:)``.
///
/// The stream is a sequence of *typed value groups*: a type-encoding string (`"@"`, `"ii"`,
/// `"@@@@ffffffff"`, `"[20c]"`) followed by one value of each type in it. An object is written
/// in place the first time it is met — its class chain (name and version of the class and of each
/// superclass, up to one already written or the root), then the groups each class's
/// `initWithCoder:` wrote, superclass first, then an end marker — and as a back reference after
/// that. This model keeps exactly that: classes with their versions and superclasses, objects as
/// a class and the ordered groups, references resolved to indices (cycles allowed).
///
/// ```text
/// 04 0b "streamtyped" 81 e8 03     streamer version 4, little-endian signature, system version 1000
/// 84 01 "@"                        a new shared string: the group's encoding "@"
/// 84                               a new object …
///    84 84 0e "NSIBObjectData" 18  … of a new class named (new string) NSIBObjectData, version 24,
///    84 84 08 "NSObject" 00 85     … whose superclass is NSObject, version 0, a root class (nil)
///    92 …                          … its first group: shared string #0 ("@") and its value
///    86                            … end of the object
/// ```
///
/// Tags (as signed bytes −128…−111; a head byte outside them is a small integer or, where a
/// reference may stand, the reference number `head + 110`): `0x81` a 2-byte integer follows,
/// `0x82` a 4-byte integer, `0x83` a 4- or 8-byte IEEE float (`f`, `d`; integral floats are written
/// as integers instead), `0x84` something new follows, `0x85` nil, `0x86` end of an object.
/// Shared strings (encodings, class names, selectors) have one table; objects, classes and
/// C strings (`*`) share another. Both are numbered from 0 in the order their `0x84` is met
/// (an object before its class chain).
public struct TypedStream: Hashable, Sendable {
  /// The byte order of multi-byte integers and floats, told by the signature.
  public enum ByteOrder: Hashable, Sendable {
    /// Signature `typedstream` (NeXT on 68k, SPARC, HP-PA).
    case bigEndian
    /// Signature `streamtyped` (Intel; what Mac OS X writes).
    case littleEndian
  }

  /// One class of the stream: its name, the version its `+version` answered when archived, and
  /// its superclass (an index into ``TypedStream/classes``; `nil` for a root class).
  public struct Class: Hashable, Sendable {
    public var name: String
    public var version: Int
    public var superclass: Int?

    public init(name: String, version: Int, superclass: Int? = nil) {
      self.name = name
      self.version = version
      self.superclass = superclass
    }
  }

  /// One object: its class (an index into ``TypedStream/classes``) and the value groups its
  /// classes' `initWithCoder:` read, in order (superclasses first).
  public struct Object: Hashable, Sendable {
    public var classIndex: Int
    public var groups: [Group]

    public init(classIndex: Int, groups: [Group] = []) {
      self.classIndex = classIndex
      self.groups = groups
    }
  }

  /// One group of values written together (`encodeValuesOfObjCTypes:` or one
  /// `encodeValueOfObjCType:at:`): its type-encoding string and one value per type in it.
  public struct Group: Hashable, Sendable {
    public var encoding: String
    public var values: [Value]

    public init(encoding: String, values: [Value]) {
      self.encoding = encoding
      self.values = values
    }
  }

  /// One typed value. The type byte of integers and byte arrays is the encoding's character
  /// (`c s i l q`, `C S I L Q`).
  public indirect enum Value: Hashable, Sendable {
    /// `c` (one raw byte), `s`, `i`, `l`, `q` (tagged integers).
    case signed(Int64, type: UInt8)
    /// `C` (one raw byte), `S`, `I`, `L`, `Q`.
    case unsigned(UInt64, type: UInt8)
    /// `B`: one raw byte, 0 or 1.
    case bool(Bool)
    /// `f`.
    case float(Float)
    /// `d`.
    case double(Double)
    /// `+`: a counted string, not shared (what `NSString` writes its characters as); `nil` for nil.
    case string([UInt8]?)
    /// `*`: a C string, kept once in the object table and referred to after that.
    case cString([UInt8]?)
    /// `%`: a NeXTSTEP atom (a shared string).
    case atom([UInt8]?)
    /// `:`: a selector's name (a shared string).
    case selector(String?)
    /// `#`: a class, an index into ``TypedStream/classes``.
    case `class`(Int?)
    /// `@`: an object, an index into ``TypedStream/objects``.
    case object(Int?)
    /// `[nc]` or `[nC]`: the array's bytes, raw.
    case bytes([UInt8], type: UInt8)
    /// `[n type]` of any other element type.
    case array([Value])
    /// `{name=types}`.
    case structure(name: String?, fields: [Value])
    /// `!`: an ignored field; nothing is stored.
    case ignored
  }

  /// Bounds on what the reader accepts: every count in the stream is input, so none may make
  /// the reader allocate, recurse or loop without bound.
  public struct Limits: Hashable, Sendable {
    /// The largest stream read, in bytes. Default 64 MiB.
    public var maximumByteCount: Int
    /// How deep objects, arrays and structures may nest inside one another (and arrays and
    /// structures inside a type encoding). Default 128.
    public var maximumDepth: Int
    /// The most entries of the object table (objects, classes, C strings) and of the shared
    /// string table, each. Default 1,048,576.
    public var maximumObjectCount: Int
    /// The most values read in all (array elements included). Default 1,048,576.
    public var maximumValueCount: Int

    public init(maximumByteCount: Int = 64 << 20, maximumDepth: Int = 128, maximumObjectCount: Int = 1 << 20, maximumValueCount: Int = 1 << 20) {
      self.maximumByteCount = maximumByteCount
      self.maximumDepth = maximumDepth
      self.maximumObjectCount = maximumObjectCount
      self.maximumValueCount = maximumValueCount
    }

    public static let `default` = Limits()
  }

  /// The streamer version of the header: 4 for every stream Mac OS X and NeXTSTEP 3 wrote.
  public var streamerVersion: Int
  /// The system version of the header (1000 on Mac OS X and OPENSTEP).
  public var systemVersion: Int
  public var byteOrder: ByteOrder
  /// Every class, in the order the stream introduces them.
  public var classes: [Class]
  /// Every object, in the order the stream introduces them (an object before the objects its
  /// values introduce).
  public var objects: [Object]
  /// The top-level groups (for an archive, `encodeRootObject:` writes one: `"@"` and the root).
  public var groups: [Group]

  public init(
    streamerVersion: Int = 4, systemVersion: Int = 1000, byteOrder: ByteOrder = .littleEndian, classes: [Class] = [], objects: [Object] = [],
    groups: [Group] = []
  ) {
    self.streamerVersion = streamerVersion
    self.systemVersion = systemVersion
    self.byteOrder = byteOrder
    self.classes = classes
    self.objects = objects
    self.groups = groups
  }

  /// The signature of a little-endian stream, after the version byte and the length byte 11.
  public static let littleEndianSignature: [UInt8] = Array("streamtyped".utf8)
  /// The signature of a big-endian stream.
  public static let bigEndianSignature: [UInt8] = Array("typedstream".utf8)

  /// Whether `bytes` start like a typedstream: a version byte, the length 11 and either signature.
  public static func isTypedStream(_ bytes: some Collection<UInt8>) -> Bool {
    let head = bytes.dropFirst().prefix(12)
    guard head.first == 11 else { return false }
    let signature = head.dropFirst()
    return signature.elementsEqual(littleEndianSignature) || signature.elementsEqual(bigEndianSignature)
  }

  /// The class names of object `index`'s class chain, the object's own class first
  /// (at most as many as there are classes, so a damaged chain cannot loop).
  public func classChain(ofObject index: Int) -> [String] {
    var names: [String] = []
    var next: Int? = objects[index].classIndex
    while let current = next, classes.indices.contains(current), names.count < classes.count {
      names.append(classes[current].name)
      next = classes[current].superclass
    }
    return names
  }

  /// The class name of object `index`.
  public func className(ofObject index: Int) -> String { classes[objects[index].classIndex].name }

  /// The root object: the object of the first top-level group, when it is one.
  public var rootObject: Int? {
    guard case .object(let root?)? = groups.first?.values.first else { return nil }
    return root
  }
}
