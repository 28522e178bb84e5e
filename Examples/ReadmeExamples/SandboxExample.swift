import StasisSystem
import Foundation
import Sandbox

@MainActor func sandboxExample() throws {
  // snippet: readme-sandbox
  let root = ContainerRoot.standard()   // $STASIS_CONTAINERS_ROOT, else $XDG_DATA_HOME/stasis/Containers, else ~/.local/share/stasis/Containers
  let app = try root.container(for: "com.example.Homepwner")   // creates <root>/com.example.Homepwner/{Homepwner.app, Documents, Library/…, tmp}
  print(app.searchPaths(for: .documentDirectory))              // NSSearchPathForDirectoriesInDomains(.documentDirectory, .userDomainMask, true)
  let file = try app.resolve("Documents/items.archive")        // refuses "..", absolute paths, NUL, links that lead out
  try AtomicFile.write(Data("items".utf8), toFile: file)       // temp file in the same folder, fsync, rename, fsync of the folder
  try app.purgeCaches()
  try app.purgeTemporaryFiles()
  // end-snippet
}
