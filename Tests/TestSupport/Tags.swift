public import Testing

extension Tag {
  /// The integration tier: tests that start real processes (child apps, tools under a real
  /// terminal), send them real signals, or put them under real memory pressure. Their in-process
  /// counterparts run on the scripted ports and the manual clock of `StasisSystemTesting`; run
  /// the tier alone with `swift test --filter .tags:integration`, or skip it with
  /// `--skip .tags:integration`.
  @Tag public static var integration: Self
}
