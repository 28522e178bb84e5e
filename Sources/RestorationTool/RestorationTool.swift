public import StasisSystem

/// The `restoration` command: reads the state-restoration snapshots an app saved (the
/// `Restoration` module's `Snapshot`) and says what is in them.
///
/// ```text
/// restoration dump SNAPSHOT          the metadata, app-wide values, node tree and exclusions
/// restoration diff SNAPSHOT SNAPSHOT what changed between two saves, node by node
/// restoration why PATH SNAPSHOT      why the object at an identifier path was (not) saved
///                                    and what the last restoration did with it
/// ```
///
/// `SNAPSHOT` is a snapshot file (`data.archive`, `previous.archive`, one in `Set Aside/`) or a
/// `<bundle id>.savedState` folder, whose `data.archive` is read, else its `previous.archive`.
///
/// Exit status, as `diff(1)`'s: 0 on success (for `diff`: the snapshots are the same, apart from
/// their timestamps and sequence numbers), 1 when `diff` found differences, 2 on an error (a
/// file that cannot be read or is not a snapshot, a usage error), with the message on standard
/// error.
public struct RestorationTool {
  /// The working folder (relative paths are read from it) and the standard streams.
  var environment: HostEnvironment

  /// The tool in `environment`: its working folder and standard streams (the real process's by
  /// default).
  public init(environment: HostEnvironment = .current) {
    self.environment = environment
  }

  /// Success; for `diff`, the snapshots are the same.
  static let successStatus: Int32 = 0
  /// `diff` found differences.
  static let differentStatus: Int32 = 1
  /// An error or a usage error: nothing useful was printed on standard output.
  static let errorStatus: Int32 = 2

  /// Runs one command line (`arguments[0]` is the program name) and returns the exit status: 2
  /// also when a write to standard output failed (`restoration dump … > /dev/full`), which is
  /// then reported on standard error.
  public func run(_ arguments: [String]) -> Int32 {
    let check = StandardOutputCheck()
    var checked = environment
    checked.standardStreams = check.checking(environment.standardStreams)
    let status = RestorationTool(environment: checked).runUnchecked(arguments)
    guard let failure = check.failure else { return status }
    writeError("restoration: " + StandardOutputCheck.message(for: failure) + "\n")
    return Self.errorStatus
  }

  func runUnchecked(_ arguments: [String]) -> Int32 {
    var words = Array(arguments.dropFirst())
    do throws(ToolFailure) {
      guard !words.isEmpty else { throw ToolFailure.usage("no command") }
      if words.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) { words = ["help"] }
      let command = words.removeFirst()
      let output: CommandOutput
      switch command {
      case "dump": output = try DumpCommand(operands: operands(words, of: command), environment: environment).run()
      case "diff": output = try DiffCommand(operands: operands(words, of: command), environment: environment).run()
      case "why": output = try WhyCommand(operands: operands(words, of: command), environment: environment).run()
      case "help": output = CommandOutput(text: HelpText.text)
      default: throw ToolFailure.usage("unknown command \(command)")
      }
      writeOutput(output.text)
      return output.status
    } catch {
      if error.isUsage {
        writeError("restoration: " + error.message + "\n" + HelpText.text)
      } else {
        writeError("restoration: " + error.message + "\n")
      }
      return Self.errorStatus
    }
  }

  /// The command's operands: every word but `--` (after which every word is an operand); any
  /// other word that starts with `-` is a usage error (there are no options yet).
  func operands(_ words: [String], of command: String) throws(ToolFailure) -> [String] {
    var operands: [String] = []
    var optionsEnded = false
    for word in words {
      if !optionsEnded, word == "--" {
        optionsEnded = true
      } else if !optionsEnded, word.hasPrefix("-"), word != "-" {
        throw ToolFailure.usage("\(command): unknown option \(word)")
      } else {
        operands.append(word)
      }
    }
    return operands
  }

  func writeOutput(_ text: String) { try? environment.standardStreams.writeOutput(Array(text.utf8)) }
  func writeError(_ text: String) { try? environment.standardStreams.writeError(Array(text.utf8)) }
}

/// What a command prints on standard output, and its exit status.
struct CommandOutput {
  var text: String
  var status: Int32 = RestorationTool.successStatus
}
