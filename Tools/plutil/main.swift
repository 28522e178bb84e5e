import PlistTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `plutil`: parses nothing itself; PlistTool reads Apple's single-dash syntax
/// (`plutil -convert xml1 -o out.plist in.plist`), which argument parsers built for
/// `--long-options` cannot express.
@main
enum PlutilCommand {
  static func main() {
    exit(PlistTool().run(CommandLine.arguments))
  }
}
