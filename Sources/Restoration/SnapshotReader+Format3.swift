internal import FoundationEssentials
internal import KeyedArchive
internal import StasisSystem

// Format 3 (written): the common scalar state values in typed `NSData` columns
// (`StateValueColumns`), only the others in `StasisStateValues`.

extension SnapshotReader {
  /// The typed state value columns of a format 3 snapshot holding `count` state values.
  func readTypedStateColumns(count: Int) throws(RestorationError) -> StateValueColumns.Decoded {
    do {
      return try StateValueColumns.read(count: count) { key in
        do { return try unarchiver.decode(Data.self, forKey: key) } catch {
          throw StateValueColumns.Damage(key: key, expected: "data (\(error))")
        }
      }
    } catch let damage as StateValueColumns.Damage {
      throw fail(damage.key, damage.expected)
    } catch {
      throw fail(StateValueColumns.Key.types, "the state value columns", error)
    }
  }
}
