import Foundation

/// The JSON form of a run, written by `--json FILE` and documented in Performance.md.
///
/// ```json
/// {
///   "format": 1,
///   "machine": { "cpu": "…", "cores": 2, "memory": "…", "kernel": "…", "swift": "…",
///                "fileSystem": "…", "loadAtStart": [1.9, 2.1, 2.3], "loadAtEnd": […],
///                "build": "release", "quick": false, "started": "…", "seconds": 812.4 },
///   "rows": [
///     { "suite": "sharedstore", "scenario": "FileStore.update (.durable)",
///       "workSize": "256-byte value × 400", "unit": "seconds", "median": 0.00098,
///       "p99": 0.00119, "baseline": "raw durable write (replace: flush file + dir)",
///       "baselineMedian": 0.00099, "ratio": 0.99, "target": "≤ 1.3×", "maximumRatio": 1.3,
///       "result": "PASS", "limit": "…", "note": "…" }
///   ],
///   "skipped": [ { "scenario": "…", "reason": "…" } ],
///   "failures": [ { "scenario": "…", "error": "…" } ],
///   "targets": 24, "passed": 23, "missed": 1
/// }
/// ```
///
/// Every row has every key; a row without a baseline or a target has `null` there.
struct RunDocument: Encodable {
  var machine: Machine
  var report: Report

  private enum Keys: String, CodingKey {
    case format, machine, rows, skipped, failures, targets, passed, missed
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(1, forKey: .format)
    try container.encode(machine, forKey: .machine)
    try container.encode(report.rows, forKey: .rows)
    try container.encode(
      report.skipped.map { ["scenario": $0.scenario, "reason": $0.reason] }, forKey: .skipped)
    try container.encode(
      report.failures.map { ["scenario": $0.scenario, "error": $0.error] }, forKey: .failures)
    let (targets, passed, missed) = report.summary
    try container.encode(targets, forKey: .targets)
    try container.encode(passed, forKey: .passed)
    try container.encode(missed, forKey: .missed)
  }

  /// The document as pretty-printed JSON with sorted keys, so that two runs diff line by line.
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}

extension Report.Row: Encodable {
  private enum Keys: String, CodingKey {
    case suite, scenario, workSize, unit, median, p99, baseline, baselineMedian, ratio, target
    case maximumRatio, result, limit, note
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(suite, forKey: .suite)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(workSize, forKey: .workSize)
    try container.encode(figure.unit.rawValue, forKey: .unit)
    try container.encode(figure.median, forKey: .median)
    try container.encode(figure.p99, forKey: .p99)
    try encode(baseline?.name, .baseline, &container)
    try encode(baseline?.median, .baselineMedian, &container)
    try encode(ratio, .ratio, &container)
    try encode(target?.text, .target, &container)
    try encode(target?.maximumRatio, .maximumRatio, &container)
    try encode(result?.rawValue, .result, &container)
    try encode(limit, .limit, &container)
    try container.encode(note, forKey: .note)
  }

  /// Encodes `value`, or `null` for `nil`: every row has every key.
  private func encode<T: Encodable>(
    _ value: T?, _ key: Keys, _ container: inout KeyedEncodingContainer<Keys>
  ) throws {
    if let value {
      try container.encode(value, forKey: key)
    } else {
      try container.encodeNil(forKey: key)
    }
  }
}
