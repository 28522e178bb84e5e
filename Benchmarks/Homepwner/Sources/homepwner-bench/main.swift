// homepwner-bench: a 10,000-item store (the book's BNRItem) saved and loaded with Stasis's
// ItemStore beside Foundation's NSKeyedArchiver / NSKeyedUnarchiver archiving the same items as
// NSCoding objects with the same keys (both writes: temporary file, fsync, rename, fsync of the
// folder), then the real `homepwner` process (release, given by --app) started on that store
// until its first frame is drawn (HOMEPWNER_EXIT_AFTER_FIRST_FRAME), wall time from spawn to exit.
import BenchSupport
import Foundation
import HomepwnerBenchKit
import KeyedArchive
import PropertyLists
import StasisSystem

#if canImport(Glibc)
  import Glibc
#endif

var rounds = 15
var appPath: String?
var source = "working tree"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
  switch argument {
  case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
  case "--app": appPath = arguments.next()
  case "--source": source = arguments.next() ?? source
  default: fatalError("homepwner-bench: unknown argument \(argument)")
  }
}

let work = NSTemporaryDirectory() + "/stasis-homepwner-bench-\(getpid())"
let documents = work + "/com.bignerdranch.Homepwner/Documents"
try FileManager.default.createDirectory(atPath: documents, withIntermediateDirectories: true)

var random = SplitMixRandom(state: 19)
let store = ItemStore(archivePath: documents + "/items.archive")
for _ in 0..<10_000 { store.createItem(Item.random(using: &random, date: Date(timeIntervalSinceReferenceDate: 700_000_000))) }

@MainActor func medianMilliseconds(_ body: () throws -> Void) rethrows -> Double {
  var times: [Double] = []
  for round in 0...rounds {
    let start = wallNow()
    try body()
    if round > 0 { times.append((wallNow() - start) * 1_000) }
  }
  return median(times)
}

let stasisSave = try medianMilliseconds { try store.save() }
// The save's parts: encoding the objects, writing the binary property list, the atomic write.
var encoded = PropertyListValue.bool(false)
let encodePart = try medianMilliseconds {
  let archiver = KeyedArchiver(registry: HomepwnerArchive.registry)
  try archiver.encode(objects: store.allItems, forKey: "root")
  encoded = archiver.finishedArchive()
}
var bytes = Data()
let serializePart = try medianMilliseconds { bytes = try encoded.encoded(as: .binary) }
let writePart = try medianMilliseconds { try AtomicFile.write(bytes, toFile: documents + "/items.parts") }
var loaded = 0
let stasisLoad = medianMilliseconds { loaded = ItemStore(archivePath: documents + "/items.archive").allItems.count }
precondition(loaded == 10_000)
let stasisBytes = (try? FileManager.default.attributesOfItem(atPath: documents + "/items.archive")[.size] as? Int) ?? 0

// Foundation: the same items as NSCoding objects with the book's keys.
final class FoundationItem: NSObject, NSCoding {
  let itemName: String, serialNumber: String, valueInDollars: Int, dateCreated: Date, itemKey: String
  init(_ item: Item) {
    itemName = item.itemName
    serialNumber = item.serialNumber
    valueInDollars = item.valueInDollars
    dateCreated = item.dateCreated
    itemKey = item.itemKey
  }
  func encode(with coder: NSCoder) {
    coder.encode(itemName as NSString, forKey: "itemName")
    coder.encode(serialNumber as NSString, forKey: "serialNumber")
    coder.encode(valueInDollars, forKey: "valueInDollars")
    coder.encode(NSDate(timeIntervalSinceReferenceDate: dateCreated.timeIntervalSinceReferenceDate), forKey: "dateCreated")
    coder.encode(itemKey as NSString, forKey: "itemKey")
  }
  required init?(coder: NSCoder) {
    itemName = coder.decodeObject(forKey: "itemName") as? String ?? ""
    serialNumber = coder.decodeObject(forKey: "serialNumber") as? String ?? ""
    valueInDollars = coder.decodeInteger(forKey: "valueInDollars")
    dateCreated = (coder.decodeObject(forKey: "dateCreated") as? Date) ?? Date()
    itemKey = coder.decodeObject(forKey: "itemKey") as? String ?? ""
  }
}
let foundationItems = NSArray(array: store.allItems.map(FoundationItem.init))
let foundationPath = work + "/foundation.archive"
@MainActor func writeAtomically(_ data: Data, to path: String) {
  let temporary = path + ".tmp"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  data.withUnsafeBytes { buffer in _ = write(descriptor, buffer.baseAddress, buffer.count) }
  fsync(descriptor)
  close(descriptor)
  rename(temporary, path)
  let folder = open(work, O_RDONLY | O_DIRECTORY)
  fsync(folder)
  close(folder)
}
let foundationSave = medianMilliseconds {
  let archiver = NSKeyedArchiver(requiringSecureCoding: false)
  archiver.encode(foundationItems, forKey: NSKeyedArchiveRootObjectKey)
  archiver.finishEncoding()
  writeAtomically(archiver.encodedData, to: foundationPath)
}
var foundationLoaded = 0
let foundationLoad = medianMilliseconds {
  let data = try! Data(contentsOf: URL(fileURLWithPath: foundationPath))
  let unarchiver = try! NSKeyedUnarchiver(forReadingFrom: data)
  unarchiver.requiresSecureCoding = false
  foundationLoaded = (unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? NSArray)?.count ?? 0
}
precondition(foundationLoaded == 10_000)

// The real app, to its first frame.
var firstFrame: Double?
if let appPath {
  firstFrame = medianMilliseconds {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: appPath)
    process.environment = [
      "STASIS_CONTAINERS_ROOT": work, "HOME": work, "HOMEPWNER_EXIT_AFTER_FIRST_FRAME": "1", "LANG": "C.UTF-8",
      "HOMEPWNER_BUNDLE": ProcessInfo.processInfo.environment["HOMEPWNER_BUNDLE"] ?? "",
    ]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try! process.run()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "homepwner exited with \(process.terminationStatus)")
  }
}
try? FileManager.default.removeItem(atPath: work)

// The figures for Benchmarks/results/homepwner-bench.json (BENCH_RESULTS, set by run.sh); wall time.
var resultsFile = ResultsFile(harness: "homepwner-bench")
for (operation, stasis, foundation) in [("save", stasisSave, Optional(foundationSave)), ("load", stasisLoad, Optional(foundationLoad))]
  + [("save: encoding", encodePart, nil), ("save: binary plist", serializePart, nil), ("save: atomic write with fsync", writePart, nil)]
  + (firstFrame.map { [("first frame of the app (spawn to exit)", $0, nil)] } ?? [])
{
  resultsFile.add(system: "Stasis", subject: "10,000 items", operation: operation, value: stasis, unit: "ms", clock: "wall")
  if let foundation {
    resultsFile.add(system: "Foundation NSKeyedArchiver", subject: "10,000 items", operation: operation, value: foundation, unit: "ms", clock: "wall")
  }
}
resultsFile.writeIfRequested(source: source)

let machine = MachineDescription()
@MainActor func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
print("## Homepwner benchmark: 10,000 items")
print("")
print("Machine: \(machine.architecture), \(machine.processors) processors, \(machine.cpuModel), Linux \(machine.kernelRelease); load \(loadAverage()); Stasis from \(source); \(rounds) rounds, medians, wall time.")
print("")
print("| | Stasis | Foundation | Foundation ÷ Stasis |")
print("|---|---|---|---|")
print("| save (archive + atomic write with fsync; \(stasisBytes) bytes) | \(ms(stasisSave)) | \(ms(foundationSave)) | \(String(format: "%.1f×", foundationSave / stasisSave)) |")
print("| (save: encoding \(ms(encodePart)), binary plist \(ms(serializePart)), atomic write with fsync \(ms(writePart))) | | | |")
print("| load (read + unarchive) | \(ms(stasisLoad)) | \(ms(foundationLoad)) | \(String(format: "%.1f×", foundationLoad / stasisLoad)) |")
if let firstFrame { print("| start-up of the real app to its first frame (spawn to exit) | \(ms(firstFrame)) | — | — |") }
print("")
print("Bars: save ≤ 50 ms \(stasisSave <= 50 ? "met" : "missed"); first frame ≤ 100 ms \(firstFrame.map { $0 <= 100 ? "met" : "missed" } ?? "not measured (no --app)").")
