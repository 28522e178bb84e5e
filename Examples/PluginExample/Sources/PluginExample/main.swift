// Lists what IBToolPlugin compiled into this target's resource bundle: each nib's classes and
// each storyboard's entry point and scenes, read with Stasis's Interface module.
import Foundation
import Interface
import PropertyLists

guard let resources = Bundle.module.resourceURL else {
  print("no resource bundle")
  exit(1)
}
var status: Int32 = 0
let found = FileManager.default.enumerator(atPath: resources.path)?.compactMap { $0 as? String } ?? []
for name in found.sorted() where name.hasSuffix(".nib") && !name.contains(".storyboardc/") || name.hasSuffix(".storyboardc") {
  let path = resources.appendingPathComponent(name).path
  do {
    if name.hasSuffix(".storyboardc") {
      let storyboard = try CompiledStoryboard(contentsOf: path)
      guard case .dictionary(let info) = storyboard.info, case .string(let entry)? = info["UIStoryboardDesignatedEntryPointIdentifier"] else {
        print("\(name): no entry point")
        status = 1
        continue
      }
      print("\(name): entry point \(entry), nibs \(storyboard.nibs.keys.sorted().joined(separator: ", "))")
    } else {
      guard case .nibArchive(let archive) = try CompiledNib(contentsOf: path) else {
        print("\(name): not a NIBArchive nib")
        status = 1
        continue
      }
      let classes = Set(NibGraph(archive).objects.map(\.className)).sorted()
      print("\(name): \(classes.joined(separator: ", "))")
    }
  } catch {
    print("\(name): \(error)")
    status = 1
  }
}
if found.isEmpty { print("the resource bundle is empty") }
exit(found.isEmpty ? 1 : status)
