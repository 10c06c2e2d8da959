import AppPipeline
import Foundation
import SequenceTracking
import SignalValues
import TrackerSignals
import UsageModel

/// What the library concludes from a simulated platform's callbacks: each callback recorded by
/// the extension's ``MonitorRecorder`` (with the device's zone at the time), drained by the
/// app's ``UsagePipeline`` as on a phone, and read back from the dashboards as seconds per local
/// day and app: the upper bound (`Dashboard.usage`) and the lower (`Dashboard.confirmedUsage`).
///
/// ```swift
/// let library = try LibraryReading.totals(of: scenario)
/// #expect(library["2026-04-14", "com.a"] == scenario.truth["2026-04-14", "com.a"])
/// ```
package enum LibraryReading {
  /// How many callbacks the extension records between two wakes of the app.
  package static let callbacksPerWake = 5

  /// Both bounds of the library's reading.
  package struct Bounds: Sendable, Equatable {
    /// Everything plausibly claimed.
    package var upper = AppDayTotals()
    /// What the evidence confirms.
    package var lower = AppDayTotals()

    /// Two empty readings.
    package init() {}
  }

  /// The library's reading of a scenario, its callbacks delivered in the scenario's order.
  ///
  /// - Parameter scenario: A scenario of the platform simulator.
  /// - Returns: The library's upper bound, in seconds per app and per day of the scenario's
  ///   truth.
  /// - Throws: What the folder or the pipeline throws.
  /// - Complexity: O(*d* · *n* log *n*) for *n* callbacks and *d* days.
  package static func totals(of scenario: PlatformScenario) throws -> AppDayTotals {
    try totals(of: scenario, callbacks: scenario.callbacks)
  }

  /// Both bounds of the library's reading of a scenario, its callbacks in the scenario's order.
  ///
  /// - Parameter scenario: A scenario of the platform simulator.
  /// - Returns: The upper and lower bounds, in seconds per app and per day.
  /// - Throws: What the folder or the pipeline throws.
  package static func bounds(of scenario: PlatformScenario) throws -> Bounds {
    try bounds(of: scenario, callbacks: scenario.callbacks)
  }

  /// The library's reading of a scenario's platform, with the callbacks given in place of the
  /// scenario's deliveries (reordered or duplicated by a property test).
  ///
  /// The app side is configured as the app that registered the scenario's events would be: the
  /// scenario's starting zone, the simulator's daily 00:00–23:59 activity as the monitoring plan,
  /// ``includesPastActivity(of:)`` and ``registrations(of:)``. Each day is read from `dashboard(for:now:)` at
  /// ``end(of:callbacks:)``, once every callback has been drained.
  ///
  /// - Parameters:
  ///   - scenario: The scenario whose configuration and days to read.
  ///   - callbacks: The callbacks, in delivery order.
  /// - Returns: The library's seconds per app and per day of the scenario's truth.
  /// - Throws: What the folder or the pipeline throws.
  /// - Complexity: O(*d* · *n* log *n*) for *n* callbacks and *d* days.
  package static func totals(of scenario: PlatformScenario, callbacks: [SimulatedCallback]) throws
    -> AppDayTotals
  {
    try bounds(of: scenario, callbacks: callbacks).upper
  }

  /// Both bounds of the library's reading, with the callbacks given in place of the scenario's
  /// deliveries; see ``totals(of:callbacks:)``.
  ///
  /// - Parameters:
  ///   - scenario: The scenario whose configuration and days to read.
  ///   - callbacks: The callbacks, in delivery order.
  /// - Returns: The upper and lower bounds, in seconds per app and per day.
  /// - Throws: What the folder or the pipeline throws.
  package static func bounds(of scenario: PlatformScenario, callbacks: [SimulatedCallback]) throws
    -> Bounds
  {
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 100_000))
    let recorder = MonitorRecorder(folder: folder)
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration(of: scenario))
    var latest = Date.distantPast
    for (offset, callback) in callbacks.enumerated() {
      _ = recorder.record(
        callback.kind, activity: callback.activity, event: callback.event, now: callback.at,
        timeZone: callback.timeZone)
      // The app's clock never runs backwards, whatever order the callbacks arrive in.
      latest = max(latest, callback.at)
      if (offset + 1) % callbacksPerWake == 0 {
        try pipeline.wake(.notification, now: latest)
      }
    }
    let end = end(of: scenario, callbacks: callbacks)
    try pipeline.wake(.foreground, now: end)
    var bounds = Bounds()
    for text in scenario.truth.days {
      let dashboard = try pipeline.dashboard(for: try LocalDay(parsing: text), now: end)
      for usage in dashboard.usage.apps {
        bounds.upper[text, usage.app.rawValue] = seconds(usage.total)
      }
      for usage in dashboard.confirmedUsage.apps {
        bounds.lower[text, usage.app.rawValue] = seconds(usage.total)
      }
    }
    return bounds
  }

  /// The app's configuration for a scenario.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: The starting zone, the daily activity's plan and the past-activity setting.
  /// - Throws: `UsageModelError` if the schedule cannot be built.
  package static func configuration(of scenario: PlatformScenario) throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(
      userId: "simulated", timeZone: scenario.plan.homeZone)
    // The simulator monitors one activity on a daily 00:00–23:59 schedule.
    let allDay = try DailyWindow(start: .midnight, end: TimeOfDay(hour: 23, minute: 59))
    configuration.monitoring = try MonitoringPlan([
      MonitoredActivity(name: PlatformSimulator.activity, schedule: .daily(allDay))
    ])
    configuration.includesPastActivity = includesPastActivity(of: scenario)
    configuration.registrations = try registrations(of: scenario)
    return configuration
  }

  /// The registrations the app recorded: one per registration of the simulator, with its
  /// generation, instant and past-activity setting.
  ///
  /// The simulator counts a registration from the occurrence's start only with past activity
  /// (without it, from the registration), so that is the counting recorded.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: The registrations for ``PipelineConfiguration/registrations``.
  /// - Throws: `UsageModelError` for an out-of-range instant.
  package static func registrations(of scenario: PlatformScenario) throws
    -> [MonitoringRegistration]
  {
    try scenario.simulator.registrations.map { registration in
      let fromStart =
        registration.semantics == .fromOccurrenceStart && registration.includesPastActivity
      return try MonitoringRegistration(
        activity: PlatformSimulator.activity, generation: UInt32(registration.generation),
        registeredAt: LocalClock.date(registration.at),
        includesPastActivity: registration.includesPastActivity,
        counting: fromStart ? .fromOccurrenceStart : .fromRegistration)
    }
  }

  /// Whether the app registers its events with past activity: as the scenario's first
  /// registration does (the simulator's generation 0, in force from the first midnight).
  ///
  /// It applies to events whose registration is unknown; ``registrations(of:)`` gives every
  /// other event its own registration's setting.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: The setting for ``PipelineConfiguration/includesPastActivity``.
  package static func includesPastActivity(of scenario: PlatformScenario) -> Bool {
    scenario.simulator.registrations.first?.includesPastActivity ?? false
  }

  /// The instant the scenario is read at: the later of its last interval's end and its last
  /// delivery, so that every day is complete and every callback has happened.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - callbacks: The callbacks delivered.
  /// - Returns: The instant.
  package static func end(of scenario: PlatformScenario, callbacks: [SimulatedCallback]) -> Date {
    let intervalsEnd = scenario.simulator.intervals.last.map { LocalClock.date($0.end) }
    let lastDelivery = callbacks.map(\.at).max()
    return [intervalsEnd, lastDelivery].compactMap { $0 }.max() ?? .distantPast
  }

  /// A duration in whole seconds, rounded to the nearest.
  ///
  /// - Parameter duration: A duration.
  /// - Returns: Its seconds.
  package static func seconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(seconds) + (attoseconds >= 500_000_000_000_000_000 ? 1 : 0)
  }
}
