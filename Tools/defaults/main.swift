import DefaultsTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `defaults`: macOS's user-defaults command over Stasis containers; all logic is in DefaultsTool.
@main
enum DefaultsCommand {
  static func main() {
    exit(DefaultsTool().run(CommandLine.arguments))
  }
}
