// The `restoration` command: the library RestorationTool does the work; standard output is
// closed and checked before the process exits.
import StasisSystem
import RestorationTool

@main
enum RestorationMain {
  static func main() {
    StandardStreams.exitClosingStandardOutput(RestorationTool().run(CommandLine.arguments), toolName: "restoration")
  }
}
