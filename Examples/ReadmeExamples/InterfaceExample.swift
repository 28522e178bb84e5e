import Foundation
import Interface

@MainActor func interfaceOverviewExample() throws {
  // snippet: overview-interface
  let nib = try NIBArchive(contentsOfFile: "Examples/Demo.nib")
  print(nib.className(of: 0))   // NSObject, the root
  for (key, payload) in nib.values(of: 0) { print(key, payload) }   // UINibTopLevelObjectsKey object(1) …
  try nib.write(toFile: "Copy.nib")   // byte for byte, atomically
  // end-snippet
}
