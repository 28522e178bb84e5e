// The machine-readable result of a run, which Tools/benchmark-charts.py draws from: one JSON file
// per harness (Benchmarks/results/<harness>.json by default, the run.sh scripts say where).
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One measured figure: a system's value for an operation on a subject (a document, a size).
public struct ResultRow: Sendable {
  /// `Stasis`, or the peer's name (`Foundation NSKeyedArchiver`, `libplist`, …).
  public var system: String
  /// What was worked on: a document and its size, a graph of N items, a count of keys.
  public var subject: String
  /// What was timed: `decode binary`, `archive`, `reads of present keys`, …
  public var operation: String
  public var value: Double
  /// `s`, `ms`, `µs`, `ns` (a time: lower is better), `MB/s` or `/s` (a rate: higher is better).
  public var unit: String
  /// `cpu` or `wall`.
  public var clock: String

  public init(system: String, subject: String, operation: String, value: Double, unit: String, clock: String) {
    self.system = system
    self.subject = subject
    self.operation = operation
    self.value = value
    self.unit = unit
    self.clock = clock
  }

  /// Whether the unit is a rate (higher is better) rather than a time.
  public var isRate: Bool { unit.hasSuffix("/s") }
}

/// The rows of one run and what it ran on, written as JSON: `harness`, `command`, `date`
/// (ISO 8601, UTC), `library` (what was measured: the commit, exported clean or the working
/// tree), `commit`, `machine`, `load`, and `rows`, each `{system, subject, operation, value,
/// unit, clock, ratio}` — `ratio` how many times better Stasis's value is than this row's in the
/// same subject, operation, unit and clock (`null` on Stasis's own rows and where Stasis has none).
public struct ResultsFile {
  public let harness: String
  public var rows: [ResultRow] = []
  /// The load average at the run's start, when the harness took it.
  public let loadAtStart: String?
  private let startDate: String

  /// A run of `harness` (`archive-bench`) and the load average the harness took at its start.
  public init(harness: String, loadAtStart: String? = nil) {
    self.harness = harness
    self.loadAtStart = loadAtStart
    startDate = Self.utcNow()
  }

  public mutating func add(system: String, subject: String, operation: String, value: Double, unit: String, clock: String = "cpu") {
    rows.append(ResultRow(system: system, subject: subject, operation: operation, value: value, unit: unit, clock: clock))
  }

  /// The file to write: `$BENCH_RESULTS` (the run.sh scripts set it), else none.
  public static var requestedPath: String? {
    guard let path = getenv("BENCH_RESULTS").map({ String(cString: $0) }), !path.isEmpty else { return nil }
    return path
  }

  /// Writes the JSON to ``requestedPath`` when one is set (a note on stderr says where); `source`
  /// is the report's description of the library measured.
  public func writeIfRequested(source: String) {
    guard let path = Self.requestedPath else { return }
    let text = json(source: source)
    guard let file = fopen(path, "w") else {
      Self.note("results: cannot write \(path)\n")
      return
    }
    fputs(text, file)
    fclose(file)
    Self.note("results: \(rows.count) figures written to \(path)\n")
  }

  /// A line on standard error (file descriptor 2: `stderr` itself is not concurrency-safe).
  static func note(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
  }

  /// The JSON text of the run.
  public func json(source: String) -> String {
    let machine = MachineDescription()
    let command = getenv("BENCH_COMMAND").map { String(cString: $0) } ?? CommandLine.arguments.joined(separator: " ")
    var lines = ["{"]
    lines.append("  \"harness\": \(Self.quoted(harness)),")
    lines.append("  \"command\": \(Self.quoted(command)),")
    lines.append("  \"date\": \(Self.quoted(startDate)),")
    lines.append("  \"library\": \(Self.quoted(source)),")
    lines.append("  \"commit\": \(Self.commit(in: source).map(Self.quoted) ?? "null"),")
    lines.append(
      "  \"machine\": \(Self.quoted("\(machine.architecture), \(machine.processors) cores, \(machine.cpuModel), Linux \(machine.kernelRelease)")),")
    let load = (loadAtStart.map { "\($0) at the start, " } ?? "") + "\(loadAverage()) at the end"
    lines.append("  \"load\": \(Self.quoted(load)),")
    lines.append("  \"rows\": [")
    for (index, row) in rows.enumerated() {
      let ratio = self.ratio(of: row).map { Self.number($0) } ?? "null"
      let fields = [
        "\"system\": \(Self.quoted(row.system))", "\"subject\": \(Self.quoted(row.subject))",
        "\"operation\": \(Self.quoted(row.operation))", "\"value\": \(Self.number(row.value))", "\"unit\": \(Self.quoted(row.unit))",
        "\"clock\": \(Self.quoted(row.clock))", "\"ratio\": \(ratio)",
      ]
      lines.append("    {" + fields.joined(separator: ", ") + "}" + (index == rows.count - 1 ? "" : ","))
    }
    lines.append("  ]")
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// How many times better Stasis's value is than `row`'s, or `nil`.
  func ratio(of row: ResultRow) -> Double? {
    guard row.system != "Stasis", row.value > 0 else { return nil }
    let stasis = rows.first {
      $0.system == "Stasis" && $0.subject == row.subject && $0.operation == row.operation && $0.unit == row.unit && $0.clock == row.clock
    }
    guard let stasis, stasis.value > 0 else { return nil }
    return row.isRate ? stasis.value / row.value : row.value / stasis.value
  }

  /// The first word of 7 to 40 hexadecimal digits in `source` (`commit 3e03da8 of the library`).
  static func commit(in source: String) -> String? {
    for word in source.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) where (7...40).contains(word.count) {
      if word.allSatisfy({ $0.isHexDigit }) && word.contains(where: { $0.isNumber }) { return String(word) }
    }
    return nil
  }

  static func utcNow() -> String {
    var now = time(nil)
    var parts = tm()
    gmtime_r(&now, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    var buffer = [CChar](repeating: 0, count: 64)
    let count = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.6g", $0) }
    return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `text` as a JSON string, escaped by Foundation's JSON writer.
  static func quoted(_ text: String) -> String {
    // A string fragment always serializes.
    let data = try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }
}
