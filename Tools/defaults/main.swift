// The `defaults` command: the library DefaultsTool does the work; standard output is closed and
// checked before the process exits.
import DefaultsTool
import StasisSystem

@main
enum DefaultsCommand {
  static func main() {
    StandardStreams.exitClosingStandardOutput(DefaultsTool().run(CommandLine.arguments), toolName: "defaults")
  }
}
