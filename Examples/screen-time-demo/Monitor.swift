import Foundation
import ScreenTimeKit

/// The monitor extension's side of the sample: what the platform calls, what the extension
/// records, and which Darwin notifications get through.
struct Monitor {
  let sample: SampleDay
  let recorder: MonitorRecorder
  /// The usage activity the plan registered, whose events the platform fires.
  let usage: PlannedActivity

  init(sample: SampleDay, recorder: MonitorRecorder) throws {
    self.sample = sample
    self.recorder = recorder
    guard
      let usage = try sample.plan().plan.activities.first(where: {
        if case .usage = $0.role { return true }
        return false
      })
    else { throw DemoError(description: "the plan has no usage activity") }
    self.usage = usage
  }

  /// One call the platform makes, in time order.
  enum Call {
    case intervalDidStart(Date)
    case threshold(ThresholdEventName, Date)
    case tick(Date)

    var at: Date {
      switch self {
      case .intervalDidStart(let at), .threshold(_, let at), .tick(let at): return at
      }
    }
  }

  /// What happened, for the narration.
  struct Tally {
    var callbacks = 0
    var heartbeats = 0
    var posted = 0
    var lost = 0
  }

  /// The platform's calls: each day's interval start; a threshold event every 5 minutes of an
  /// app's use, cumulative over the day (every sixth delivered twice, as the platform sometimes
  /// does; a held session's all at once, a minute after it ended); on Sunday, a wake-up every
  /// minute from 07:00 that records a heartbeat — none while the extension is dead.
  func calls() throws -> [Call] {
    var calls: [Call] = []
    var usedSoFar: [String: Int] = [:]  // app and day -> minutes
    var count = 0
    for day in Set(sample.sessions.map(\.day)).sorted() {
      calls.append(.intervalDidStart(try sample.instant(.midnight, on: day)))
    }
    for session in sample.sessions {
      let key = "\(session.app) \(session.day)"
      let start = try sample.instant(session.start, on: session.day)
      for minute in stride(from: 5, through: session.minutes, by: 5) {
        let total = usedSoFar[key, default: 0] + minute
        // The platform fires only what the plan registered: the app's event at that threshold.
        guard
          let name = usage.events.first(where: {
            $0.app == session.app && $0.threshold == .seconds(total * 60)
          })
        else { continue }
        let at = start.addingTimeInterval(
          Double((session.held ? session.minutes + 1 : minute) * 60))
        calls.append(.threshold(name, at))
        count += 1
        if count % 6 == 0 { calls.append(.threshold(name, at.addingTimeInterval(4))) }
      }
      usedSoFar[key, default: 0] += session.minutes
    }
    let from = try sample.instant(TimeOfDay(hour: 7), on: sample.day)
    let outage = (
      try sample.instant(sample.outage.from, on: sample.day),
      try sample.instant(sample.outage.to, on: sample.day)
    )
    var tick = from
    let end = try sample.instant(sample.evening, on: sample.day)
    while tick <= end {
      if tick < outage.0 || tick >= outage.1 { calls.append(.tick(tick)) }
      tick = tick.addingTimeInterval(60)
    }
    return calls.sorted { $0.at < $1.at }
  }

  /// Makes one call, as the extension's callback would, and says whether its notification got
  /// through: two in three never arrive.
  func handle(_ call: Call, tally: inout Tally) throws -> Bool {
    let response: MonitorResponse
    switch call {
    case .intervalDidStart(let at):
      response = recorder.intervalDidStart(for: usage.name, now: at, memoryBytes: 3_200_000)
      tally.callbacks += 1
    case .threshold(let name, let at):
      response = recorder.eventDidReachThreshold(
        name.rawValue, activity: usage.name, now: at, memoryBytes: 3_400_000)
      tally.callbacks += 1
    case .tick(let at):
      response = recorder.heartbeat(now: at, memoryBytes: 3_100_000)
      tally.heartbeats += 1
    }
    if let failure = response.failures.first { throw DemoError(description: "\(failure)") }
    guard let number = response.notification else { return false }
    tally.posted += 1
    let delivered = number.value % 3 == 0
    if !delivered { tally.lost += 1 }
    return delivered
  }
}
