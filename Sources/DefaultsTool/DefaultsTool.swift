import Defaults
import Foundation
public import StasisSystem
import PropertyLists
import Sandbox

/// The `defaults` command with macOS syntax, over the preferences files under a container root
/// (`$STASIS_CONTAINERS_ROOT`, see `HostEnvironment.containersRoot`):
///
/// ```text
/// defaults read [<domain> [<key>]]          defaults read-type <domain> <key>
/// defaults write <domain> <key> <value>     defaults write <domain> '<plist dictionary>'
/// defaults rename <domain> <old> <new>      defaults delete <domain> [<key>]
/// defaults domains                          defaults find <word>
/// defaults export <domain> <path|->         defaults import <domain> <path|->
/// ```
///
/// `-currentHost` before the command means the host-specific (`ByHost`) domains, as on macOS:
/// `Library/Preferences/ByHost/<id>.<hostUUID>.plist` beside each domain's file, the host's
/// identifier from `HostEnvironment.hostIdentifier` (`$STASIS_HOST_UUID`, else the machine id).
///
/// `<domain>` is a bundle identifier (its container's `Library/Preferences/<id>.plist`),
/// `-g` / `-globalDomain` / `NSGlobalDomain`, `-app <Name>` (the container holding `<Name>.app`),
/// or a path to a plist file (`.plist` is added when missing). Every change is made under the file's lock, on a fresh read, and written atomically
/// as a binary property list, so running apps and other `defaults` processes lose nothing.
///
/// Messages follow Apple's wording and go to standard error behind an `NSLog` header, as Apple's
/// do (`2016-05-18 09:28:12.188 defaults[4266:54118] ` then, for the "does not exist" family, a
/// line break); failures exit 1.
public struct DefaultsTool {
  /// The environment variables, working folder, clock, process id and standard streams.
  var environment: HostEnvironment

  public init(environment: HostEnvironment = .current) {
    self.environment = environment
  }

  /// Runs one command line (`arguments[0]` is the program name) and returns the exit status: 1
  /// also when a write to standard output failed (`defaults read > /dev/full`), which is then
  /// reported on standard error.
  public func run(_ arguments: [String]) -> Int32 {
    environment.runCheckingStandardOutput(prefix: Self.logHeader(in: environment)) { checkedEnvironment in
      var tool = self
      tool.environment = checkedEnvironment
      return tool.runUnchecked(arguments)
    }
  }

  func runUnchecked(_ arguments: [String]) -> Int32 {
    var words = Array(arguments.dropFirst())
    do throws(ToolFailure) {
      var byHost: String?
      if words.first == "-currentHost" {
        words.removeFirst()
        byHost = environment.hostIdentifier
      }
      if words.first == "-host" {
        throw ToolFailure("-host is not supported: only this machine's host-specific domains can be named (-currentHost)")
      }
      guard let command = words.first else { throw ToolFailure.usage }
      words.removeFirst()
      let root = ContainerRoot(environment: environment)
      var session = Session(root: root, environment: environment)
      session.byHost = byHost
      words = try session.resolvingApplication(words)
      switch command {
      case "read": try session.read(words)
      case "read-type": try session.readType(words)
      case "write": try session.write(words)
      case "rename": try session.rename(words)
      case "delete", "remove": try session.delete(words)
      case "domains": try session.domains(words)
      case "find": try session.find(words)
      case "export": try session.export(words)
      case "import": try session.importDomain(words)
      case "help", "-h", "--help":
        environment.writeStandardOutput(Array(Self.helpText.utf8))
      default: throw ToolFailure.usage
      }
      return 0
    } catch {
      if error.isUsage {
        environment.writeStandardError(Array(Self.helpText.utf8))
      } else {
        environment.writeStandardError(Array((Self.logHeader(in: environment) + error.message + "\n").utf8))
      }
      return error.status
    }
  }

  /// The help text (`defaults help`, and on a usage error).
  public static let helpText = """
    Command line interface to a user's defaults.
    Syntax:

    'defaults' followed by one of the following:

      read                                 shows all defaults
      read <domain>                        shows defaults for given domain
      read <domain> <key>                  shows defaults for given domain, key

      read-type <domain> <key>             shows the type for the given domain, key

      write <domain> <domain_rep>          writes domain (overwrites existing)
      write <domain> <key> <value>         writes key for domain

      rename <domain> <old_key> <new_key>  renames old_key to new_key

      delete <domain>                      deletes domain
      delete <domain> <key>                deletes key in domain

      import <domain> <path to plist>      writes the plist at path to domain
      import <domain> -                    writes a plist from stdin to domain
      export <domain> <path to plist>      saves domain as a plist at path
      export <domain> -                    writes domain as an XML plist to stdout
      domains                              lists all domains
      find <word>                          lists all entries containing word
      help                                 print this help

    'defaults -currentHost' followed by one of them: the host-specific (ByHost) domains.

    <domain> is ( <domain_name> | -app <application_name> | -globalDomain | -g | NSGlobalDomain | <path to file> )

    <value> is one of:
      <value_rep>
      -string <string_value>
      -data <hex_digits>
      -int[eger] <integer_value>
      -float  <floating-point_value>
      -bool[ean] (true | false | yes | no)
      -date <date_rep>
      -array <value1> <value2> ...
      -array-add <value1> <value2> ...
      -dict <key1> <value1> <key2> <value2> ...
      -dict-add <key1> <value1> ...

    Containers live under $STASIS_CONTAINERS_ROOT (else $XDG_DATA_HOME/stasis/Containers).

    """
}

/// A failure: the message for standard error and the exit status.
struct ToolFailure: Error {
  var message: String
  var status: Int32 = 1
  var isUsage = false

  init(_ message: String, status: Int32 = 1) {
    self.message = message
    self.status = status
  }

  static var usage: ToolFailure {
    var failure = ToolFailure("", status: 1)
    failure.isUsage = true
    return failure
  }

  init(_ error: DefaultsError) {
    self.init(error.description)
  }
}
