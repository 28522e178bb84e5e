import Foundation
import Interface
import InterfaceBuilder

@MainActor func interfaceBuilderOverviewExample() throws {
  // snippet: overview-interface-builder
  let document = try InterfaceDocument(contentsOfFile: "Examples/Demo.xib")
  let graph = try CocoaNibCompiler.compile(document)
  try NIBArchive(graph, keepingUnreachable: false).write(toFile: "Demo.nib")
  print(graph.hierarchyListing())   // #2 NSCustomObject NotesController, its window, views and cells
  // end-snippet
}
