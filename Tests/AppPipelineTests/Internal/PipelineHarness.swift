import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import TestSupport
import TrackerSignals
import UsageModel

/// An extension and an app on one shared folder, in one process: the extension's
/// ``MonitorRecorder`` and the app's ``UsagePipeline``, with a local clock to say when.
struct PipelineHarness {
  let directory: TemporaryDirectory
  let recorder: MonitorRecorder
  var pipeline: UsagePipeline
  let zone: TimeZone
  let boundary: DayBoundary

  /// Opens both sides in New York (or `zone`), with `configure` changing the app's settings.
  init(
    zone identifier: String = "America/New_York", outboxCapacity: Int = 1_024,
    configure: (inout PipelineConfiguration) throws -> Void = { _ in }
  ) throws {
    directory = try TemporaryDirectory(prefix: "stk-pipeline")
    zone = try TestSupport.zone(identifier)
    boundary = DayBoundary(timeZone: zone)
    // One folder, one layout: the extension and the app cannot disagree on a key or a capacity.
    let folder = try SharedFolder(
      directory: directory.url, layout: .standard(outboxCapacity: outboxCapacity))
    let deviceZone = zone
    recorder = MonitorRecorder(folder: folder, timeZone: { deviceZone })
    var configuration = PipelineConfiguration(userId: "user-123", timeZone: zone)
    try configure(&configuration)
    pipeline = try UsagePipeline(folder: folder, configuration: configuration)
  }

  /// The instant of local wall-clock time `text` (`2026-04-15 07:05` or `… 07:05:30`).
  func at(_ text: String) throws -> Date {
    let parts = text.split(separator: " ")
    guard parts.count == 2 else { throw FixtureError(description: "expected 'day time': \(text)") }
    let day = try LocalDay(parsing: String(parts[0]))
    let time = try TimeOfDay(parsing: String(parts[1]))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(
      year: day.year, month: day.month, day: day.day, hour: time.hour, minute: time.minute,
      second: time.second)
    guard let date = calendar.date(from: components) else {
      throw FixtureError(description: "no such local time: \(text)")
    }
    return date
  }

  /// Records threshold events of `app` every `step` minutes of use, cumulative from
  /// `alreadyUsed` minutes, received at the minutes of `uses` (local times on `day`).
  @discardableResult
  func use(
    _ app: String, activity: String = "daily", day: String, from start: String, minutes: Int,
    step: Int = 1, alreadyUsed: Int = 0
  ) throws -> [MonitorResponse] {
    let begin = try at("\(day) \(start)")
    var responses: [MonitorResponse] = []
    for minute in stride(from: step, through: minutes, by: step) {
      let name = try ThresholdEventName(
        app: try AppID(app), threshold: .seconds(Int64(alreadyUsed + minute) * 60))
      responses.append(
        recorder.eventDidReachThreshold(
          name.rawValue, activity: activity, now: begin.addingTimeInterval(Double(minute * 60))))
    }
    return responses
  }

  /// Heartbeat ticks every `seconds` from `start` through `end` (local times).
  func tick(from start: String, through end: String, every seconds: Int = 30) throws {
    var instant = try at(start)
    let last = try at(end)
    while instant <= last {
      _ = recorder.heartbeat(now: instant)
      instant = instant.addingTimeInterval(Double(seconds))
    }
  }

  /// Drains, then derives the dashboard of `day` at local time `now`.
  mutating func dashboard(_ day: String, at now: String) throws -> Dashboard {
    let instant = try at("\(day) \(now)")
    try pipeline.wake(.foreground, now: instant)
    return try pipeline.dashboard(for: try LocalDay(parsing: day), now: instant)
  }
}
