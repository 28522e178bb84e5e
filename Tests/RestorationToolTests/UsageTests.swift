import Testing

@MainActor
@Suite("restoration: usage")
struct UsageTests {
  @Test("--help, -h and help print the usage on standard output, exit 0")
  func help() {
    for word in ["--help", "-h", "help"] {
      let result = restoration(word)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix("usage: restoration dump SNAPSHOT\n"))
      #expect(result.stderr == "")
    }
    #expect(restoration("dump", "--help").status == 0)
  }

  @Test(
    "Usage errors print the message and the usage on standard error, exit 2",
    arguments: [
      ([], "no command"),
      (["frobnicate"], "unknown command frobnicate"),
      (["dump"], "dump takes one snapshot file or .savedState folder"),
      (["dump", "-x", "a"], "dump: unknown option -x"),
      (["diff", "a"], "diff takes two snapshot files or .savedState folders"),
      (["why", "Tabs"], "why needs a snapshot file or .savedState folder after the path"),
      (["why", "/", "a"], "why: the path names no identifier"),
    ] as [([String], String)])
  func usageErrors(arguments: [String], message: String) {
    let result = restoration(arguments)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("restoration: \(message)\nusage: restoration dump SNAPSHOT\n"))
  }
}
