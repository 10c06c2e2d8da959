import Foundation

/// Which run of `Scripts/stress.sh` the stress suites are part of, from the environment variable
/// `STK_STRESS`: `full`, `short` (the run `.ci/run` makes), or unset, when the stress suites do
/// not run at all.
///
/// A stress suite is a multi-process test at a scale `swift test` has no time for. It runs only
/// when this is set, through `.enabled(if: StressRun.current != nil)`, takes its counts from
/// ``scaled(full:short:)``, and prints one ``report(_:_:)`` line, which `Scripts/stress.sh`
/// shows:
///
/// ```swift
/// @Test("...", .enabled(if: StressRun.current != nil, "set STK_STRESS"))
/// func killStorm() throws {
///   let run = try #require(StressRun.current)
///   let kills = run.scaled(full: 2_000, short: 150)
///   ...
///   StressRun.report("kill storm", "\(kills) kills, 0 torn reads")
/// }
/// ```
package enum StressRun: String, Sendable {
  /// The full run: the figures `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/Reliability.md`
  /// reports, in under five minutes.
  case full
  /// The short run of `.ci/run`: the same scenarios with small counts, in under a minute.
  case short

  /// The run the environment asks for, or `nil` when `STK_STRESS` is not `full` or `short`.
  package static let current = ProcessInfo.processInfo.environment["STK_STRESS"].flatMap {
    StressRun(rawValue: $0)
  }

  /// The count of this run.
  ///
  /// - Parameters:
  ///   - full: The count of the full run.
  ///   - short: The count of the short run.
  /// - Returns: `full` or `short`.
  package func scaled<Count>(full: Count, short: Count) -> Count {
    self == .full ? full : short
  }

  /// Prints a scenario's line, `STRESS <scenario>: <figures>`, which `Scripts/stress.sh` shows.
  ///
  /// - Parameters:
  ///   - scenario: The scenario's name.
  ///   - figures: What it did and found.
  package static func report(_ scenario: String, _ figures: String) {
    print("STRESS \(scenario): \(figures)")
  }
}
