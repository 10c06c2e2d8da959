import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// A `RewardLedger` kept as a typed value: read, and updated by transactions.
final class LedgerDriver: StoredFormatDriver {
  let key = "ledger"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let typed = StoreKey("ledger", default: RewardLedger(rate: .tenXPPerMinute))

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let typed = typed
    let boundary = DayBoundary(timeZone: TimeZone(secondsFromGMT: 3_600) ?? .current)
    var capped = RewardLedger(
      rate: .tenXPPerMinute, dailyEarningCap: try DailyEarningCap(xp: 500, dayBoundary: boundary))
    let transactions: [LedgerTransaction.Kind] = [
      .earn(xp: 600), .redeem(xp: 95), .startSpending(session: "a", reserve: .seconds(300)),
      .endSpending(session: "a", used: .seconds(120)),
      .adjust(xp: -3, time: .seconds(-60), reason: "x"), .expire(xp: 1, time: .seconds(1)),
    ]
    for (index, kind) in transactions.enumerated() {
      try capped.apply(LedgerTransaction(id: "t\(index)", at: fuzzNow, kind: kind))
    }
    var open = RewardLedger(rate: try ExchangeRate(experiencePoints: 7, time: .seconds(45)))
    try open.apply(LedgerTransaction(id: "e", at: fuzzNow, kind: .earn(xp: 1_000)))
    try open.apply(LedgerTransaction(id: "r", at: fuzzNow, kind: .redeem(xp: 700)))
    try open.apply(
      LedgerTransaction(
        id: "s", at: fuzzNow, kind: .startSpending(session: "b", reserve: .seconds(60))))
    seeds = try [RewardLedger(rate: .tenXPPerMinute), capped, open].map { ledger in
      try sandbox.written(typed.name) { try $0.set(ledger, for: typed) }
    }
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let store = sandbox.store
    let typed = typed
    let name = StoredBytes.fileName(forKey: key)
    let value = try probe.read("value(for:)") {
      let ledger = try store.value(for: typed)
      _ = (ledger.balance, ledger.transactions.count, ledger.openSpendingSessions)
      return ledger
    }
    var readable = value.returned
    for operation in ["earn", "redeemAll", "expire"] {
      let updated = try probe.change("update: \(operation)", mayChange: [name]) {
        try store.update(typed) { (ledger: inout RewardLedger) throws(BudgetMathError) in
          try Self.step(operation, &ledger)
        }
      }
      if !readable {
        try probe.require(!updated.returned, operation, "updated an unreadable ledger")
        break
      }
      let after = try probe.read("value(for:) after \(operation)") {
        try store.value(for: typed)
      }
      try probe.require(after.returned, operation, "stored a ledger that does not read back")
      readable = after.returned
    }
    return value.returned
  }

  private static func step(_ operation: String, _ ledger: inout RewardLedger)
    throws(BudgetMathError)
  {
    switch operation {
    case "earn": _ = try ledger.apply(LedgerTransaction(id: "f1", at: fuzzNow, kind: .earn(xp: 25)))
    case "redeemAll": _ = try ledger.redeemAll(id: "f2", at: fuzzNow)
    default: _ = try ledger.apply(ledger.expiryOfEverything(id: "f3", at: fuzzNow))
    }
  }
}

/// A `ThresholdAccountant` kept as a typed value: read, and updated by threshold events.
final class AccountantDriver: StoredFormatDriver {
  let key = "accountant"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let typed: StoreKey<ThresholdAccountant>
  private let events: [ThresholdEvent]
  private let intervalStart: Date

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let zone = TimeZone(identifier: "America/New_York") ?? .current
    let typed = StoreKey("accountant", default: ThresholdAccountant(timeZone: zone))
    self.typed = typed
    intervalStart = fuzzNow.addingTimeInterval(-7_200)
    let app = try AppID("com.example.app")
    let other = try AppID("com.example.other")
    func event(_ app: AppID, seconds: Int64, past: Bool = false) throws -> ThresholdEvent {
      try ThresholdEvent(
        name: try ThresholdEventName(app: app, threshold: .seconds(seconds)),
        intervalStart: fuzzNow.addingTimeInterval(-7_200), receivedAt: fuzzNow,
        includesPastActivity: past)
    }
    events = [try event(app, seconds: 1_200), try event(other, seconds: 604_800)]
    var recorded = try ThresholdAccountant(timeZone: zone, tolerance: .seconds(5))
    _ = recorded.record(try event(app, seconds: 900))
    _ = recorded.record(try event(other, seconds: 86_400, past: true))
    seeds = try [ThresholdAccountant(timeZone: zone), recorded].map { accountant in
      try sandbox.written(typed.name) { try $0.set(accountant, for: typed) }
    }
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let store = sandbox.store
    let (typed, intervalStart) = (typed, intervalStart)
    let name = StoredBytes.fileName(forKey: key)
    let value = try probe.read("value(for:)") {
      let accountant = try store.value(for: typed)
      _ = accountant.usage(inIntervalStartingAt: intervalStart)
      _ = accountant.pastActivityAllowance(intervalStart: intervalStart)
      _ = accountant.implausibleEvents
      return accountant
    }
    var readable = value.returned
    for event in events {
      let updated = try probe.change("update: record \(event.name)", mayChange: [name]) {
        try store.update(typed) { $0.record(event) }
      }
      try probe.require(
        updated.returned == readable, "update: record",
        readable ? "refused an accountant that value(for:) read" : "updated an unreadable one")
      guard readable else { break }
      let after = try probe.read("value(for:) after record") {
        let accountant = try store.value(for: typed)
        return accountant.usage(inIntervalStartingAt: intervalStart)
      }
      try probe.require(after.returned, "update", "stored an accountant that does not read back")
      readable = after.returned
    }
    if readable {
      try probe.change("update: removeIntervals", mayChange: [name]) {
        try store.update(typed) { $0.removeIntervals(startingBefore: fuzzNow) }
      }
    }
    return value.returned
  }
}

/// A `UsagePipeline`'s state in front of a valid outbox and heartbeat history: read, woken and
/// shown as a dashboard.
final class PipelineStateDriver: StoredFormatDriver {
  let key = SharedFolderLayout.standard.appStateKey
  let companions: [String: [UInt8]]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let configuration: PipelineConfiguration
  private let folder: SharedFolder
  private let boundary: DayBoundary
  private let day: LocalDay

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let store = sandbox.store
    let zone = TimeZone(identifier: "Europe/Berlin") ?? .current
    boundary = DayBoundary(timeZone: zone)
    day = try LocalDay(parsing: "2026-04-15")
    var configuration = PipelineConfiguration(userId: "user-1", timeZone: zone)
    configuration.plans = [
      try MonthlyPlan(month: day.localMonth, amounts: [.socialMedia: .seconds(30 * 3_600)])
    ]
    configuration.rewards = try UsageRewards(xpPerMinute: [.other: 3])
    self.configuration = configuration
    let folder = try SharedFolder(store: store, layout: .standard(outboxCapacity: 64))
    self.folder = folder
    let (outbox, heartbeats) = (folder.outbox, folder.heartbeats(of: .monitorExtension))
    let recorder = MonitorRecorder(folder: folder, timeZone: { zone })
    let start = boundary.start(of: day)
    try sandbox.plant([:])
    _ = recorder.intervalDidStart(for: "daily", now: start)
    var seeds: [[UInt8]] = []
    var pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    for minute in stride(from: 5, through: 40, by: 5) {
      let now = start.addingTimeInterval(Double(8 * 3_600 + minute * 60))
      _ = recorder.eventDidReachThreshold("stk:\(minute)m:com.a", activity: "daily", now: now)
      if minute.isMultiple(of: 15) {
        try pipeline.wake(.notification, now: now)
        seeds += [sandbox.bytes(ofKey: key)].compactMap { $0 }
      }
    }
    _ = recorder.eventDidReachThreshold("bogus", activity: "daily", now: start + 9 * 3_600)
    let files = try sandbox.files()
    companions = [
      outbox.key: files[StoredBytes.fileName(forKey: outbox.key)] ?? [],
      heartbeats.key: files[StoredBytes.fileName(forKey: heartbeats.key)] ?? [],
    ]
    _ = try pipeline.dashboard(for: day, now: start + 12 * 3_600)
    seeds += [sandbox.bytes(ofKey: key)].compactMap { $0 }
    self.seeds = seeds
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let name = StoredBytes.fileName(forKey: key)
    let now = boundary.start(of: day) + 12 * 3_600
    let pipeline: UsagePipeline
    do {
      pipeline = try UsagePipeline(folder: folder, configuration: configuration)
    } catch {
      throw probe.violation("UsagePipeline.init", "\(error)")
    }
    let state = try probe.read("state") { try pipeline.state() }
    var woken = pipeline
    // A wake writes the state, and first appends the facts it drains to the app side's logs.
    let layout = folder.layout
    let journal = [
      layout.appFactsKey(of: day.advanced(by: -1)), layout.appFactsKey(of: day),
      layout.appStartsKey, layout.appSummariesKey, layout.appLedgerKey,
    ].map(StoredBytes.fileName(forKey:))
    // A wake writes the drained facts, then commits the state: one that fails at the commit (a
    // hostile record log refusing the next version) has appended facts to the day logs, which
    // are read as a set and appended again by the next drain. A state that does not read is
    // quarantined — its bytes kept under the quarantine's name — and rebuilt. A wake whose
    // cursor is past the outbox's head raises the outbox's high-water mark.
    let planted = sandbox.bytes(ofKey: key)
    let quarantined = ".quarantined.\(name).1"
    let mark = StoredBytes.fileName(forKey: layout.outboxMarkKey)
    let wake = try probe.change(
      "wake", mayChange: Set([name, quarantined, mark] + journal),
      mayChangeOnFailure: Set(journal)
    ) {
      try woken.wake(.foreground, now: now)
    }
    let healed = wake.value?.recoveries.contains { $0.file == .state } ?? false
    try probe.require(
      !wake.returned || state.returned || healed, "wake",
      "woke on a state that state() refused, without rebuilding it")
    if healed {
      let kept: [UInt8]?
      do {
        kept = try sandbox.files()[quarantined]
      } catch {
        throw probe.violation("wake", "the sandbox cannot be listed: \(error)")
      }
      // The planted bytes, or the versions a wake appended to them before one was refused.
      try probe.require(
        kept != nil, "wake", "the state was rebuilt, but its \(planted?.count ?? 0) bytes not kept")
    }
    if wake.returned {
      let after = try probe.read("state after wake") { try pipeline.state() }
      try probe.require(after.returned, "wake", "the state afterwards does not read back")
    }
    let day = day
    // The dashboard only reads — except to heal a damaged file, which it then reports.
    let before: [String: [UInt8]]
    do {
      before = try sandbox.files()
    } catch {
      throw probe.violation("dashboard", "the sandbox cannot be listed: \(error)")
    }
    let dashboard = try probe.change(
      "dashboard", mayChange: Set([name, quarantined, ".quarantined.\(name).2"] + journal)
    ) {
      try pipeline.dashboard(for: day, now: now)
    }
    let dashboardHealed =
      dashboard.value.map { shown in
        let known = (state.value?.recoveries ?? []) + (wake.value?.recoveries ?? [])
        return shown.facts.recoveries.contains { !known.contains($0) }
      } ?? false
    if !dashboardHealed {
      let after: [String: [UInt8]]
      do {
        after = try sandbox.files()
      } catch {
        throw probe.violation("dashboard", "the sandbox cannot be listed: \(error)")
      }
      try probe.require(after == before, "dashboard", "changed a file without healing one")
    }
    try probe.require(
      !dashboard.returned || state.returned || healed || dashboardHealed, "dashboard",
      "showed a dashboard of a state that state() refused, and nothing rebuilt it")
    return state.returned
  }
}
