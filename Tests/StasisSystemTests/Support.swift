import StasisSystem
import Foundation
import Testing
import TestSupport

/// The names in `folder` that are temporary files of an atomic write.
func temporaryNames(in folder: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.contains(".stasis-tmp.") }.sorted()
}
