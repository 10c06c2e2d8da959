import AppPipeline
import BudgetMath
import Foundation
import SequenceTracking
import SharedStore
import SignalValues
import TestSupport
import TrackerSignals
import UsageModel

// The subcommands of the app-state damage tests in PipelineKillTests: an extension and an app,
// each a process of its own, on one shared folder in New York, with the folder damaged between
// them by the test.
//
//   heal-extension --dir D --day YYYY-MM-DD --from HH:MM --minutes N --already A [--start yes]
//       Records, through a MonitorRecorder, the day's intervalDidStart at 00:00 when --start is
//       given, then threshold events of com.example every 5 minutes of use from --from, cumulative
//       from A minutes. Prints "recorded K", or fails when a callback does.
//   heal-app --dir D --now YYYY-MM-DDTHH:MM:SSZ --day YYYY-MM-DD [--redeem ID]
//       Opens a UsagePipeline (rewards of 10 XP a minute), wakes it on a notification, redeems
//       everything under ID when given, and derives the dashboards of --day and the day before.
//       Prints one JSON line: a HealReport.

/// Runs a heal subcommand; returns `false` when `name` is not one of them.
func runHealCommand(_ name: String, _ options: Options) throws -> Bool {
  switch name {
  case "heal-extension": try healExtension(options)
  case "heal-app": try healApp(options)
  default: return false
  }
  return true
}

private let healZone = "America/New_York"

private func healExtension(_ options: Options) throws {
  let zone = try TestSupport.zone(healZone)
  let recorder = MonitorRecorder(
    folder: try SharedFolder(directory: URL(fileURLWithPath: try options.string("dir"))),
    timeZone: { zone })
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = zone
  let day = try LocalDay(parsing: try options.string("day"))
  let from = try TimeOfDay(parsing: try options.string("from"))
  func at(_ hour: Int, _ minute: Int) throws -> Date {
    let components = DateComponents(
      year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)
    guard let date = calendar.date(from: components) else { throw HelperError("no such time") }
    return date
  }
  var responses: [MonitorResponse] = []
  if options.values["start"] != nil {
    responses.append(recorder.intervalDidStart(for: "daily", now: try at(0, 0)))
  }
  let already = try options.int("already")
  for minute in stride(from: 5, through: try options.int("minutes"), by: 5) {
    let name = try ThresholdEventName(
      app: try AppID("com.example"), threshold: .seconds(Int64(already + minute) * 60))
    responses.append(
      recorder.eventDidReachThreshold(
        name.rawValue, activity: "daily", now: try at(from.hour, from.minute + minute)))
  }
  for response in responses where !response.succeeded {
    throw HelperError("a callback failed: \(response.failures.map(\.description))")
  }
  emit("recorded \(responses.count)")
}

private func healApp(_ options: Options) throws {
  var configuration = PipelineConfiguration(userId: "heal", timeZone: try zone(healZone))
  configuration.rewards = try UsageRewards(xpPerMinute: [.other: 10])
  var pipeline = try UsagePipeline(
    folder: try SharedFolder(directory: URL(fileURLWithPath: try options.string("dir"))),
    configuration: configuration)
  let now = try instant(try options.string("now"))
  let day = try LocalDay(parsing: try options.string("day"))
  let drain = try pipeline.wake(.notification, now: now)
  if let id = options.values["redeem"] { try pipeline.redeemAll(id: id, at: now) }
  let dashboard = try pipeline.dashboard(for: day, now: now)
  let before = try pipeline.dashboard(for: day.advanced(by: -1), now: now)
  let report = HealReport(
    applied: drain.applied, recoveries: drain.recoveries,
    reportedRecoveries: dashboard.facts.recoveries.count, losses: dashboard.facts.losses.count,
    seconds: dashboard.usage.total.components.seconds,
    dayBeforeSeconds: before.usage.total.components.seconds, xp: dashboard.rewards.xp)
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  emit(String(decoding: try encoder.encode(report), as: UTF8.self))
}
