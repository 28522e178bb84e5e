// The README's and the DocC overviews' Swift examples, compiled and run as a program.
//
// Each region between `// snippet: <name>` and `// end-snippet` appears verbatim (less its
// indentation and its imports) as a ```swift block in README.md or a module's DocC catalog;
// DocumentationExamplesTests/SnippetSyncTests checks that they agree, and ReadmeExampleTests runs
// this program in a scratch folder holding a copy of Examples/ (the relative paths below), with
// `$STASIS_CONTAINERS_ROOT` there too. Every file imports Foundation beside the Stasis modules,
// as an app would, so the examples show the aliases that the names policy asks for.
import Foundation

let examples: [(String, () throws -> Void)] = [
  ("property lists", propertyListsExample),
  ("keyed archive", keyedArchiveExample),
  ("sandbox", sandboxExample),
  ("defaults", defaultsExample),
  ("bundles", bundlesExample),
  ("bundles overview", bundlesOverviewExample),
  ("defaults overview", defaultsOverviewExample),
  ("host overview", hostOverviewExample),
  ("object model overview", objectModelOverviewExample),
  ("errors overview", errorsOverviewExample),
  ("interface overview", interfaceOverviewExample),
  ("interface builder overview", interfaceBuilderOverviewExample),
  ("nib loading", nibLoadingExample),
  ("interface objects overview", interfaceObjectsOverviewExample),
  ("lifecycle", lifecycleExample),
  ("restoration", restorationExample),
]
var failed = false
for (name, example) in examples {
  print("== \(name)")
  do {
    try example()
  } catch {
    print("FAILED: \(error)")
    failed = true
  }
}
exit(failed ? 1 : 0)
