import Foundation
import Lifecycle
import Restoration
import RestorationSampleApp
import Testing
import TestSupport

/// A snapshot written by Stasis, read by readers Stasis did not write: Foundation's
/// `NSKeyedUnarchiver` (swift-corelibs-foundation, in process) and the toolchain's `plutil`.
@MainActor
@Suite("Restoration: snapshots are plain keyed archives other readers understand")
struct SnapshotReadersTests {
  func richSnapshot() throws -> (ScratchFolder, SavedStateFolder, Snapshot) {
    let scratch = try ScratchFolder("restoration-readers")
    let folder = SavedStateFolder(path: scratch.file("app.savedState"))
    let app = try launchSample(folder)
    driveToRichState(app)
    try app.lifecycle.enterBackground()
    return (scratch, folder, try Snapshot(contentsOfFile: folder.currentSnapshotPath))
  }

  @Test("Foundation's NSKeyedUnarchiver reads every node, its state and the metadata, equal to Stasis's reading")
  func foundationReads() throws {
    let (scratch, folder, snapshot) = try richSnapshot()
    defer { scratch.remove() }
    let data = try Data(contentsOf: URL(fileURLWithPath: folder.currentSnapshotPath))
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    #expect((unarchiver.decodeObject(forKey: "UIApplicationStateRestorationBundleVersionKey") as? String) == "7")
    #expect(unarchiver.decodeObject(forKey: "UIApplicationStateRestorationTimestampKey") is Date)
    #expect((unarchiver.decodeObject(forKey: "StasisSnapshotSequence") as? NSNumber)?.intValue == snapshot.metadata.sequence)
    #expect((unarchiver.decodeObject(forKey: SnapshotMetadata.idiomKey) as? NSNumber)?.intValue == 0)
    // The node table, column by column (format 3): names in a string table, integers packed
    // little-endian in data, all of one column's values of one width (length ÷ node count).
    #expect((unarchiver.decodeObject(forKey: "StasisRestorationFormat") as? NSNumber)?.intValue == 3)
    let count = (unarchiver.decodeObject(forKey: "StasisNodeCount") as? NSNumber)?.intValue ?? -1
    let table = (unarchiver.decodeObject(forKey: "StasisStrings") as? [Any] ?? []).compactMap { $0 as? String }
    func integers(_ key: String, count: Int) -> [Int] {
      guard let data = unarchiver.decodeObject(forKey: key) as? Data, count > 0, data.count % count == 0 else { return [] }
      let width = data.count / count
      return (0..<count).map { index in
        // Sign-extend the little-endian value byte by byte.
        var value = 0
        for byte in (0..<width).reversed() { value = value << 8 | Int(data[data.startIndex + index * width + byte]) }
        let shift = 64 - 8 * width
        return shift > 0 ? (value << shift) >> shift : value
      }
    }
    func strings(_ key: String, count: Int) -> [String] { integers(key, count: count).map { table.indices.contains($0) ? table[$0] : "?" } }
    let identifiers = strings("StasisNodeIdentifiers", count: count)
    let parents = integers("StasisNodeParents", count: count)
    let classes = strings("StasisNodeClasses", count: count)
    let counts = integers("StasisStateCounts", count: count)
    let keys = strings("StasisStateKeys", count: counts.reduce(0, +))
    let values = typedValues(unarchiver, count: keys.count, integers: integers)
    #expect(unarchiver.error == nil)
    #expect(identifiers.count == snapshot.nodes.count)
    #expect(parents.count == snapshot.nodes.count && classes.count == snapshot.nodes.count && counts.count == snapshot.nodes.count)
    #expect(keys.count == values.count)
    var paths: [[String]] = []
    var position = 0
    for (index, node) in snapshot.nodes.enumerated() where index < identifiers.count && index < parents.count {
      let path = parents[index] >= 0 ? paths[parents[index]] + [identifiers[index]] : [identifiers[index]]
      paths.append(path)
      #expect(path == node.path)
      #expect(classes[index] == node.className)
      #expect(counts[index] == node.state.count, "node \(node.path)")
      for offset in position..<min(position + counts[index], keys.count) {
        let theirs = values[offset]
        let ours: Any = node.state[keys[offset]] ?? "missing"
        #expect(String(describing: plain(theirs)) == String(describing: plain(ours)), "\(node.path) \(keys[offset])")
      }
      position += counts[index]
    }
    #expect(unarchiver.error == nil)
  }

  @Test("The toolchain's plutil (Apple's port) lints and prints the snapshot", .enabled(if: ToolchainPlutil.isAvailable, ToolchainPlutil.missingReason))
  func toolchainPlutilReads() throws {
    let (scratch, folder, _) = try richSnapshot()
    defer { scratch.remove() }
    let lint = try ToolchainPlutil.run(["-lint", folder.currentSnapshotPath], input: [])
    #expect(lint.status == 0, "\(lint)")
    // (Its -convert refuses every keyed archive: it reads a UID as a dictionary key.)
    let printed = try ToolchainPlutil.run(["-p", folder.currentSnapshotPath], input: [])
    #expect(printed.status == 0, "\(printed)")
    let text = String(decoding: printed.output, as: UTF8.self)
    #expect(text.contains("\"NSKeyedArchiver\""))
    // (The state's strings are UTF-8 in StasisStateText, printed as data.)
    #expect(text.contains("\"StasisStateText\""))
    #expect(text.contains("UIApplicationStateRestorationBundleVersionKey"))
  }

  @Test("Stasis's plutil -archive prints the snapshot's object graph", .enabled(if: BuiltExecutables.path(named: "plutil") != nil, "Stasis's plutil was not built next to the tests"))
  func stasisPlutilReads() throws {
    let (scratch, folder, snapshot) = try richSnapshot()
    defer { scratch.remove() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(BuiltExecutables.path(named: "plutil")))
    process.arguments = ["-archive", folder.currentSnapshotPath]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(text.contains("StasisNodeIdentifiers = "))
    #expect(text.contains("StasisNodeCount = \(snapshot.nodes.count)"))
    #expect(text.contains("StasisStateText = <"))
    #expect(text.contains("StasisStrings = #"))
    #expect(text.contains("StasisStateValues = #"))
  }
}

extension SnapshotReadersTests {
  @Test("A format 1 snapshot (Examples/Notes.savedState, written before format 2) still reads, and is written again as format 3 with the same nodes")
  func formatOneStillReads() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Notes.savedState/data.archive").path
    let old = try Snapshot(contentsOfFile: path)
    #expect(old.metadata.format == 1)
    #expect(!old.nodes.isEmpty)
    let again = try Snapshot(data: try old.archivedData())
    #expect(again.metadata.format == 3)
    #expect(again.nodes.map(\.path) == old.nodes.map(\.path))
    #expect(again.nodes.map(\.className) == old.nodes.map(\.className))
    #expect(again.nodes.map(\.restorationClassName) == old.nodes.map(\.restorationClassName))
    #expect(again.nodes.map { $0.state.keys.sorted() } == old.nodes.map { $0.state.keys.sorted() })
  }
}

/// The state values of a format-3 snapshot as Foundation reads them, by the layout documented in
/// `Snapshot`: a type byte per value says which column holds it (0 the next general value, 1 an
/// integer, 2 a real, 3 a string, 4/5 false/true, 6/7/8 an array of reals/integers/strings whose
/// count is the next array count).
private func typedValues(_ unarchiver: NSKeyedUnarchiver, count: Int, integers: (String, Int) -> [Int]) -> [Any] {
  let types = [UInt8](unarchiver.decodeObject(forKey: "StasisStateTypes") as? Data ?? Data())
  let general = unarchiver.decodeObject(forKey: "StasisStateValues") as? [Any] ?? []
  let arrayCounts = integers("StasisStateArrayCounts", types.filter { $0 >= 6 }.count)
  var arrays = arrayCounts.makeIterator()
  var members = (integers: 0, reals: 0, strings: 0)
  for type in types {
    switch type {
    case 1: members.integers += 1
    case 2: members.reals += 1
    case 3: members.strings += 1
    case 6: members.reals += arrays.next() ?? 0
    case 7: members.integers += arrays.next() ?? 0
    case 8: members.strings += arrays.next() ?? 0
    default: break
    }
  }
  var integerColumn = integers("StasisStateIntegers", members.integers).makeIterator()
  let realBytes = unarchiver.decodeObject(forKey: "StasisStateReals") as? Data ?? Data()
  var reals = stride(from: 0, to: realBytes.count, by: 8).map { offset in
    Double(bitPattern: realBytes[(realBytes.startIndex + offset)..<(realBytes.startIndex + offset + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
  }.makeIterator()
  let text = unarchiver.decodeObject(forKey: "StasisStateText") as? Data ?? Data()
  var start = text.startIndex
  var strings = integers("StasisStateTextLengths", members.strings).map { length -> String in
    defer { start += length }
    return String(data: text[start..<(start + length)], encoding: .utf8) ?? "?"
  }.makeIterator()
  var generalValues = general.makeIterator()
  arrays = arrayCounts.makeIterator()
  var values: [Any] = []
  for type in types {
    switch type {
    case 1: values.append(integerColumn.next() ?? 0)
    case 2: values.append(reals.next() ?? 0)
    case 3: values.append(strings.next() ?? "")
    case 4: values.append(false)
    case 5: values.append(true)
    case 6: values.append((0..<(arrays.next() ?? 0)).map { _ in reals.next() ?? 0 })
    case 7: values.append((0..<(arrays.next() ?? 0)).map { _ in integerColumn.next() ?? 0 })
    case 8: values.append((0..<(arrays.next() ?? 0)).map { _ in strings.next() ?? "" })
    default: values.append(generalValues.next() ?? "missing")
    }
  }
  #expect(values.count == count)
  return values
}

/// A value as Foundation and Stasis both see it: numbers as doubles, collections recursively.
private func plain(_ value: Any) -> Any {
  switch value {
  case let number as Int: return Double(number)
  case let number as Double: return number
  case let number as NSNumber: return number.doubleValue
  case let list as [Any]: return list.map(plain)
  default: return value
  }
}
