// bundle-bench: Stasis's Bundles beside Foundation's Bundle (swift-corelibs-foundation) on generated
// bundles, in one run: localized-string lookups, resource lookups, and the first lookup in a
// bundle of 5,000 resources. Markdown on stdout, progress on stderr.
//
//   bundle-bench [--lookups 1000000] [--resource-lookups 100000] [--resources 5000] [--runs 5]
//                [--source TEXT] [--keep]

import BenchSupport
import Bundles
import Foundation
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("bundle-bench: \(message)\n".utf8))
  exit(2)
}

func progress(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - Options

var lookups = 1_000_000
var resourceLookups = 100_000
var resourceCount = 5_000
var runs = 5
var source = "working tree"
var keep = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
func number(_ text: String?, _ option: String) -> Int {
  guard let text, let value = Int(text), value > 0 else { fail("\(option) needs a positive number") }
  return value
}
while let argument = arguments.next() {
  switch argument {
  case "--lookups": lookups = number(arguments.next(), argument)
  case "--resource-lookups": resourceLookups = number(arguments.next(), argument)
  case "--resources": resourceCount = number(arguments.next(), argument)
  case "--runs": runs = number(arguments.next(), argument)
  case "--source":
    guard let text = arguments.next() else { fail("--source needs a value") }
    source = text
  case "--keep": keep = true
  default: fail("unknown option \(argument)")
  }
}

// MARK: - Generated bundles

let root = FileManager.default.temporaryDirectory.path + "/bundle-bench-\(ProcessInfo.processInfo.processIdentifier)"
let keyCount = 2_000
let languages = ["en", "fr", "de"]

func write(_ bytes: [UInt8], _ path: String) {
  let folder = (path as NSString).deletingLastPathComponent
  try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  if !FileManager.default.createFile(atPath: path, contents: Data(bytes)) { fail("cannot write \(path)") }
}

/// A flat (iOS-style) app: Info.plist, `Localizable.strings` with 2,000 keys in en/fr/de (UTF-16
/// with BOM in en, UTF-8 elsewhere), 1,000 non-localized images and 200 localized images per
/// language.
func makeLookupBundle(_ path: String) {
  let info: PropertyListValue = [
    "CFBundleIdentifier": "com.example.bench", "CFBundleExecutable": "Bench", "CFBundleDevelopmentRegion": "en",
  ]
  write(try! info.encodedBytes(as: .binary), path + "/Info.plist")
  for language in languages {
    var text = "/* generated */\n"
    for index in 0 ..< keyCount { text += "\"key.\(index)\" = \"\(language) value \(index)\";\n" }
    if language == "en" {
      var bytes: [UInt8] = [0xFF, 0xFE]
      for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
      write(bytes, path + "/\(language).lproj/Localizable.strings")
    } else {
      write(Array(text.utf8), path + "/\(language).lproj/Localizable.strings")
    }
    for index in 0 ..< 200 { write(Array(language.utf8), path + "/\(language).lproj/loc-\(index).png") }
  }
  for index in 0 ..< 1_000 { write([0x89], path + "/image-\(index).png") }
}

/// A bundle of `count` resources: 80% at the top, the rest spread over five `.lproj` folders.
func makeLargeBundle(_ path: String, count: Int) {
  let info: PropertyListValue = ["CFBundleIdentifier": "com.example.large", "CFBundleDevelopmentRegion": "en"]
  write(try! info.encodedBytes(as: .xml), path + "/Info.plist")
  let localized = count / 5
  let lprojs = ["en", "fr", "de", "ja", "es"]
  for index in 0 ..< count - localized { write([0x31], path + "/resource-\(index).dat") }
  for index in 0 ..< localized { write([0x32], path + "/\(lprojs[index % 5]).lproj/localized-\(index).dat") }
}

progress("generating bundles in \(root)")
try? FileManager.default.removeItem(atPath: root)
makeLookupBundle(root + "/Lookup.app")
makeLargeBundle(root + "/Large-stasis.app", count: resourceCount)
makeLargeBundle(root + "/Large-foundation.app", count: resourceCount)
defer { if !keep { try? FileManager.default.removeItem(atPath: root) } }

let stasis: Bundles.Bundle
do {
  stasis = try Bundles.Bundle(path: root + "/Lookup.app", environment: .languages(["en"]))
} catch {
  fail("Stasis cannot open the bundle: \(error)")
}
guard let foundation = Foundation.Bundle(path: root + "/Lookup.app") else { fail("Foundation cannot open the bundle") }

// MARK: - Checks: both answer the same before anything is timed.

let keys = (0 ..< keyCount).map { "key.\($0)" } + (0 ..< 200).map { "missing.\($0)" }
for key in keys {
  let ours = stasis.localizedString(forKey: key, value: nil, table: nil)
  let theirs = foundation.localizedString(forKey: key, value: nil, table: nil)
  guard ours == theirs else { fail("answers differ for \(key): \(ours) vs \(theirs)") }
}
let resourceNames: [String] = (0 ..< 1_000).flatMap { index -> [String] in
  index % 5 == 4 ? ["loc-\(index % 200)"] : ["image-\(index)"]
} + (0 ..< 50).map { "absent-\($0)" }
for name in resourceNames {
  let ours = stasis.path(forResource: name, ofType: "png")
  let theirs = foundation.path(forResource: name, ofType: "png")
  guard ours == theirs else { fail("paths differ for \(name): \(ours ?? "nil") vs \(theirs ?? "nil")") }
}
progress("answers agree on \(keys.count) keys and \(resourceNames.count) resources")

// MARK: - Timed runs

struct Row {
  var name: String
  var stasis: Double
  var foundation: Double
  var unit: String
}

@MainActor func timeLookups(_ count: Int, _ body: (Int) -> Int) -> Double {
  var times: [Double] = []
  var checksum = 0
  for _ in 0 ..< runs {
    let start = cpuNow()
    for index in 0 ..< count { checksum &+= body(index) }
    times.append(cpuNow() - start)
  }
  if checksum == 42 { progress("") }  // keeps the work observable
  return median(times)
}

var rows: [Row] = []
progress("\(lookups) localized-string lookups, \(runs) runs each")
let keyTotal = keys.count
let stasisStrings = timeLookups(lookups) { stasis.localizedString(forKey: keys[$0 % keyTotal], value: nil, table: nil).utf8.count }
let foundationStrings = timeLookups(lookups) { foundation.localizedString(forKey: keys[$0 % keyTotal], value: nil, table: nil).utf8.count }
rows.append(Row(name: "\(lookups) localized-string lookups (2,000 keys + 200 misses)", stasis: stasisStrings, foundation: foundationStrings, unit: "s"))

progress("\(resourceLookups) resource lookups")
let nameTotal = resourceNames.count
let stasisResources = timeLookups(resourceLookups) { stasis.path(forResource: resourceNames[$0 % nameTotal], ofType: "png")?.utf8.count ?? 0 }
let foundationResources = timeLookups(resourceLookups) { foundation.path(forResource: resourceNames[$0 % nameTotal], ofType: "png")?.utf8.count ?? 0 }
rows.append(Row(name: "\(resourceLookups) resource lookups (80% top level, 20% en.lproj, 5% misses)", stasis: stasisResources, foundation: foundationResources, unit: "s"))

let stasisURLs = timeLookups(resourceLookups) { stasis.url(forResource: resourceNames[$0 % nameTotal], withExtension: "png")?.path.utf8.count ?? 0 }
let foundationURLs = timeLookups(resourceLookups) { foundation.url(forResource: resourceNames[$0 % nameTotal], withExtension: "png")?.path.utf8.count ?? 0 }
rows.append(Row(name: "\(resourceLookups) resource URL lookups", stasis: stasisURLs, foundation: foundationURLs, unit: "s"))

// First lookup: a new bundle object each run (Stasis lists the folder at the first lookup).
progress("first lookup in a bundle of \(resourceCount) resources")
var firstTimes: [Double] = []
var firstCPUTimes: [Double] = []
for _ in 0 ..< max(runs * 4, 21) {
  let start = wallNow()
  let cpuStart = cpuNow()
  guard let bundle = try? Bundles.Bundle(path: root + "/Large-stasis.app", environment: .languages(["en"])),
    bundle.path(forResource: "localized-\(resourceCount / 5 - 5)", ofType: "dat") != nil
  else { fail("Stasis first lookup failed") }
  firstCPUTimes.append(cpuNow() - cpuStart)
  firstTimes.append(wallNow() - start)
  guard bundle.resourceCount == resourceCount + 6 else { fail("index holds \(bundle.resourceCount) entries") }
}
// Foundation keeps bundles per path for the process, so it gets one cold sample on its own copy.
let foundationFirstStart = wallNow()
guard let largeFoundation = Foundation.Bundle(path: root + "/Large-foundation.app"),
  largeFoundation.path(forResource: "localized-\(resourceCount / 5 - 5)", ofType: "dat") != nil
else { fail("Foundation first lookup failed") }
let foundationFirst = wallNow() - foundationFirstStart
rows.append(Row(name: "first lookup, new bundle of \(resourceCount) resources (wall, median of \(firstTimes.count); Foundation 1 sample)", stasis: median(firstTimes), foundation: foundationFirst, unit: "ms"))

// The figures for Benchmarks/results/bundle-bench.json (BENCH_RESULTS, set by run.sh): each row's
// operation without its parenthesis, in seconds or milliseconds as the table prints it.
var resultsFile = ResultsFile(harness: "bundle-bench")
for row in rows {
  let operation = String(row.name.split(separator: " (").first ?? Substring(row.name))
  let scale = row.unit == "ms" ? 1000.0 : 1.0
  let clock = row.unit == "ms" ? "wall" : "cpu"
  resultsFile.add(system: "Stasis", subject: "app bundle", operation: operation, value: row.stasis * scale, unit: row.unit, clock: clock)
  resultsFile.add(system: "Foundation Bundle", subject: "app bundle", operation: operation, value: row.foundation * scale, unit: row.unit, clock: clock)
}
resultsFile.writeIfRequested(source: source)

// MARK: - Report

func machine() -> String {
  let machine = MachineDescription()
  return "Linux \(machine.kernelRelease), \(machine.cpuModel), \(machine.processors) cores"
}

let formatter = ISO8601DateFormatter()
print("## Bundles benchmark — \(formatter.string(from: Date()))")
print("")
print("Machine: \(machine()). Library: \(source). Release build, CPU time (median of \(runs) runs) unless noted.")
print("Foundation's preferred localizations here: \(foundation.preferredLocalizations); Stasis asked for [\"en\"].")
print("")
print("| operation | Stasis | Foundation | Stasis speed-up |")
print("|---|---:|---:|---:|")
for row in rows {
  let scale = row.unit == "ms" ? 1000.0 : 1.0
  let ours = String(format: row.unit == "ms" ? "%.2f ms" : "%.3f s", row.stasis * scale)
  let theirs = String(format: row.unit == "ms" ? "%.2f ms" : "%.3f s", row.foundation * scale)
  print("| \(row.name) | \(ours) | \(theirs) | \(String(format: "%.1f×", row.foundation / max(row.stasis, 1e-9))) |")
}
print("")
print(String(format: "Per lookup: strings %.0f ns (Stasis) vs %.0f ns (Foundation); resources %.0f ns vs %.0f ns.",
             stasisStrings / Double(lookups) * 1e9, foundationStrings / Double(lookups) * 1e9,
             stasisResources / Double(resourceLookups) * 1e9, foundationResources / Double(resourceLookups) * 1e9))
print(String(format: "First lookup (open + list %d files in 6 folders + look up), Stasis: wall median %.2f ms, min %.2f ms, max %.2f ms; CPU median %.2f ms; %d runs (bar: < 10 ms).",
             resourceCount, median(firstTimes) * 1000, (firstTimes.min() ?? 0) * 1000, (firstTimes.max() ?? 0) * 1000,
             median(firstCPUTimes) * 1000, firstTimes.count))
