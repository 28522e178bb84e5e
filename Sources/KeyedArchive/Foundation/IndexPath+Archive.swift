public import FoundationEssentials
import PropertyLists

/// `IndexPath` is archived as `NSIndexPath`: `{NSIndexPathLength: n}`, plus for one index
/// `NSIndexPathValue: index` and for more `NSIndexPathData: UID → NSMutableData` holding the
/// indexes as base-128 varints. Indexes are unsigned in Foundation, so negative ones cannot be
/// archived.
extension IndexPath: ArchiveFoundationValue {
  public var archiveClass: (name: String, classes: [String]) { ("NSIndexPath", ["NSIndexPath", "NSObject"]) }

  public func encodeArchiveContents(with coder: ArchiveEncoder) throws {
    guard allSatisfy({ $0 >= 0 }) else {
      throw KeyedArchiveError(.invalidValue, "cannot archive the index path \(self): NSIndexPath holds unsigned indexes")
    }
    coder.encodeRaw(.integer(count), forKey: "NSIndexPathLength")
    switch count {
    case 0:
      break
    case 1:
      coder.encodeRaw(.integer(self[0]), forKey: "NSIndexPathValue")
    default:
      var bytes: [UInt8] = []
      bytes.reserveCapacity(count * 2)
      for index in self { ArchiveVarint.append(UInt64(index), to: &bytes) }
      coder.encodeRaw(.uid(try coder.reference(to: ArchiveMutable(Data(bytes)))), forKey: "NSIndexPathData")
    }
  }

  init(archivedBy coder: ArchiveDecoder) throws {
    let className = "NSIndexPath"
    guard let length = try coder.storedInteger("NSIndexPathLength", of: className) else {
      throw coder.corrupt(className, "has no NSIndexPathLength")
    }
    switch length {
    case 0:
      self.init()
    case 1:
      guard let index = try coder.storedInteger("NSIndexPathValue", of: className), index >= 0 else {
        throw coder.corrupt(className, "has length 1 but no non-negative NSIndexPathValue")
      }
      self.init(index: index)
    case 2...:
      guard let data = try coder.storedBytes("NSIndexPathData", of: className) else {
        throw coder.corrupt(className, "has length \(length) but no NSIndexPathData")
      }
      guard length <= data.count else {
        throw coder.corrupt(className, "has NSIndexPathLength \(length), more indexes than its \(data.count) bytes of NSIndexPathData can hold")
      }
      let numbers: [UInt64]
      switch ArchiveVarint.decodeAll(data) {
      case .success(let values): numbers = values
      case .failure(let failure): throw coder.corrupt(className, "has NSIndexPathData in which \(failure.description)")
      }
      guard numbers.count == length else {
        throw coder.corrupt(className, "has NSIndexPathLength \(length) but NSIndexPathData holds \(numbers.count) indexes")
      }
      var indexes: [Int] = []
      indexes.reserveCapacity(length)
      for number in numbers {
        guard let index = Int(exactly: number) else {
          throw coder.corrupt(className, "has an index in NSIndexPathData beyond Int.max")
        }
        indexes.append(index)
      }
      self.init(indexes: indexes)
    default:
      throw coder.corrupt(className, "has a negative NSIndexPathLength \(length)")
    }
  }
}
