import ArgumentParser
import TestSupport
import Testing

@testable import IBTool

/// ibtool's two readers of its command line: the plain one (``Options/init(plainArguments:)``),
/// which every ordinary invocation takes, and swift-argument-parser's (``CommandLineOptions``),
/// which defines the flags: wherever the plain one reads a command line, it must read what
/// argument-parser reads.
@Suite struct IBToolArgumentTests {
  @Test func aCompileLineIsReadPlainly() throws {
    let options = try #require(
      Options(plainArguments: [
        "--compile", "out.nib", "--color-profiles-from", "a.nib", "--errors", "in.xib",
        "--color-profiles-from", "b.nib",
        "--output-format", "human-readable-text", "--target-device", "mac",
      ]))
    #expect(options.compile == "out.nib")
    #expect(options.colorProfilesFrom == ["a.nib", "b.nib"])
    #expect(options.errors && !options.warnings)
    #expect(options.outputFormat == .humanReadableText)
    #expect(options.targetDevice == ["mac"])
    #expect(options.input == "in.xib")
    #expect(
      try CommandLineOptions.parse(["--compile", "out.nib", "in.xib"]).options
        == Options(plainArguments: ["--compile", "out.nib", "in.xib"]))
  }

  @Test func helpAndMistakesNameTheToolIbtool() {
    #expect(CommandLineOptions.helpMessage().contains("USAGE: ibtool [<options>] <input>"))
    #expect(CommandLineOptions.helpMessage().contains("--compile <compile>"))
  }

  @Test(arguments: [
    ["--help"], ["-h"], [], ["--compile", "out.nib"], ["--compile=out.nib", "in.xib"],
    ["--compile", "-o", "in.xib"],
    ["--compile", "a.nib", "--compile", "b.nib", "in.xib"], ["--output-format", "yaml", "in.xib"],
    ["a.xib", "b.xib"],
    ["--", "in.xib"], ["--unknown", "in.xib"], ["--errors", "-"],
  ])
  func unusualLinesGoToArgumentParser(_ arguments: [String]) {
    #expect(Options(plainArguments: arguments) == nil)
  }

  /// Seeded command lines from ibtool's flags, options with values, values that look like
  /// flags, and mistakes.
  @Test func wherePlainReadingReadsALineArgumentParserReadsTheSame() {
    var generator = SplitMix64(seed: 15)
    let flags = Array(Options.flags.keys)
    let valued =
      Array(Options.singleValues.keys) + Array(Options.repeatedValues.keys) + ["--output-format"]
    let values = ["out.nib", "YES", "xml1", "binary1", "human-readable-text", "mac", "10.15"]
    let others = ["in.xib", "-", "--", "--help", "-x", "--bogus", "--compile=a.nib"]
    var plain = 0
    var bothRefused = 0
    let lines = 600
    for _ in 0..<lines {
      var arguments: [String] = []
      for _ in 0..<Int.random(in: 0...5, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<3: arguments.append(flags.randomElement(using: &generator)!)
        case 3..<7:
          arguments += [
            valued.randomElement(using: &generator)!, values.randomElement(using: &generator)!,
          ]
        case 7, 8: arguments.append("in.xib")
        default: arguments.append(others.randomElement(using: &generator)!)
        }
      }
      let parsed = try? CommandLineOptions.parse(arguments).options
      guard let quick = Options(plainArguments: arguments) else {
        if parsed == nil { bothRefused += 1 }
        continue
      }
      plain += 1
      #expect(parsed == quick, "\(arguments)")
    }
    print(
      "ibtool command lines: \(plain) of \(lines) read plainly, each as argument-parser reads it; \(bothRefused) refused by both"
    )
    #expect(plain >= 100)
  }
}
