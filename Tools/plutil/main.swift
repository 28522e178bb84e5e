// The `plutil` command: the library PlistTool does the work; standard output is closed and
// checked before the process exits.
import PlistTool
import StasisSystem

@main
enum PlutilCommand {
  static func main() {
    StandardStreams.exitClosingStandardOutput(PlistTool().run(CommandLine.arguments), toolName: "plutil")
  }
}
