// The `ibtool` command: the library IBTool does the work; standard output is closed and checked
// before the process exits.
import StasisSystem
import IBTool

StandardStreams.exitClosingStandardOutput(IBTool().run(CommandLine.arguments), toolName: "ibtool")
