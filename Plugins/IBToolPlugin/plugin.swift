// IBToolPlugin: a SwiftPM build-tool plugin that compiles a target's Interface Builder documents
// with Stasis's ibtool, as Xcode's resources phase does, into the plugin's work folder: each
// `NAME.xib` into `NAME.nib`, each `NAME.storyboard` into `NAME.storyboardc`, a document inside an
// `.lproj` folder into the same `.lproj` folder. The compiled files are the commands' outputs,
// which SwiftPM copies into the target's resource bundle. The documents themselves are listed in
// the target's `exclude:` (or left undeclared) so that they are not copied raw as well.
import PackagePlugin

@main
struct IBToolPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let ibtool = try context.tool(named: "ibtool").url
    var commands: [Command] = []
    for file in target.sourceFiles where ["xib", "storyboard"].contains(file.url.pathExtension) {
      let input = file.url
      let name = input.deletingPathExtension().lastPathComponent
      let compiled = name + (input.pathExtension == "xib" ? ".nib" : ".storyboardc")
      var folder = context.pluginWorkDirectoryURL.appending(path: "Resources", directoryHint: .isDirectory)
      let parent = input.deletingLastPathComponent().lastPathComponent
      if parent.hasSuffix(".lproj") { folder = folder.appending(path: parent, directoryHint: .isDirectory) }
      let output = folder.appending(path: compiled)
      commands.append(
        .buildCommand(
          displayName: "Compiling \(input.lastPathComponent) with Stasis's ibtool",
          executable: ibtool,
          arguments: [
            "--errors", "--warnings", "--output-format", "human-readable-text",
            "--module", target.moduleName, "--compilation-directory", folder.path(percentEncoded: false),
            input.path(percentEncoded: false),
          ],
          inputFiles: [input],
          outputFiles: [output]))
    }
    return commands
  }
}
