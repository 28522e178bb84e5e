import Foundation
import Testing
import TestSupport

import PropertyLists

/// Agreement with an independent implementation, python3's plistlib, over thousands of seeded
/// values, both ways: plistlib reads what Stasis writes and writes it back out, and Stasis reads
/// plistlib's output and must get the original value.
@Suite("Agreement with python3 plistlib")
struct PlistlibAgreementTests {
  static let python: String? = {
    for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
      .split(separator: ":").map({ "\($0)/python3" })
    where FileManager.default.isExecutableFile(atPath: candidate) {
      return candidate
    }
    return nil
  }()

  /// Reads every `*.in` file in the folder with plistlib and writes it back in the same format
  /// as `*.out` (binary stays binary, XML stays XML), sorted keys as plistlib does by default.
  static let script = """
    import plistlib, sys, os
    folder = sys.argv[1]
    failures = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith('.in'):
            continue
        path = os.path.join(folder, name)
        with open(path, 'rb') as f:
            data = f.read()
        fmt = plistlib.FMT_BINARY if data.startswith(b'bplist') else plistlib.FMT_XML
        try:
            value = plistlib.loads(data)
            out = plistlib.dumps(value, fmt=fmt)
        except Exception as error:
            print(f'{name}: {type(error).__name__}: {error}')
            failures += 1
            continue
        with open(path[:-3] + '.out', 'wb') as f:
            f.write(out)
    sys.exit(1 if failures else 0)
    """

  /// Values plistlib can hold exactly: whole-second dates (it keeps microseconds at most), no
  /// UIDs in XML, no control characters in XML strings (its XML writer refuses them).
  static func value(seed: UInt64, format: PropertyListFormat) -> PropertyListValue {
    var kinds: RandomPropertyList.Kinds = [.integers, .reals, .bools, .dates, .data, .bigUnsigned, .specialReals, .singleReals, .unicode]
    if format == .binary { kinds.insert(.uids) }
    var generator = RandomPropertyList(seed: seed, kinds: kinds)
    let value = generator.document()
    return format == .xml ? withoutControlCharacters(value) : value
  }

  static func withoutControlCharacters(_ value: PropertyListValue) -> PropertyListValue {
    func clean(_ string: String) -> String {
      String(string.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F || $0 == "\n" || $0 == "\t" || $0 == "\r" }.map(Character.init))
    }
    switch value {
    case .string(let string): return .string(clean(string))
    case .array(let array): return .array(array.map(withoutControlCharacters))
    case .dictionary(let dictionary):
      return .dictionary(PropertyListDictionary(dictionary.map { (clean($0.key), withoutControlCharacters($0.value)) }))
    default: return value
    }
  }

  @Test(
    .enabled(if: python != nil, "python3 not found: plistlib agreement cannot be checked"),
    arguments: [PropertyListFormat.binary, .xml])
  func plistlibReadsAndWritesTheSameValues(format: PropertyListFormat) throws {
    let scratch = try ScratchFolder("plistlib")
    defer { scratch.remove() }
    let folder = scratch.url
    let seeds: Range<UInt64> = 0..<2000
    var values: [UInt64: PropertyListValue] = [:]
    for seed in seeds {
      let value = Self.value(seed: seed, format: format)
      values[seed] = value
      try value.encoded(as: format).write(to: folder.appendingPathComponent("\(seed).in"))
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python!)
    process.arguments = ["-c", Self.script, folder.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let report = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "plistlib could not read some of Stasis's \(format) output:\n\(report.prefix(2000))")
    var mismatches = 0
    for seed in seeds {
      let url = folder.appendingPathComponent("\(seed).out")
      guard let bytes = try? Data(contentsOf: url) else { continue }
      let decoded = try PropertyListValue(decoding: bytes)
      if decoded != values[seed] {
        mismatches += 1
        if mismatches <= 5 { Issue.record("seed \(seed), \(format): plistlib's output reads back differently") }
      }
    }
    print("plistlib agreement (\(format)): \(seeds.count) values, \(mismatches) mismatches")
    #expect(mismatches == 0)
  }
}
