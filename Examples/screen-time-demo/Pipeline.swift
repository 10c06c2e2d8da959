import Foundation
import ScreenTimeKit

/// The whole pipeline on the sample day: the extension records usage and notifies, most
/// notifications are lost, the app catches up anyway, and budgets, alerts, pace and rewards are
/// computed from what it applied; last, the day's quiet stretches are told apart.
struct Pipeline {
  let directory: URL
  let svgPath: String?

  func run() throws {
    // Two processes, one app-group folder: each opens its own store on it.
    let extensionStore = try FileStore(directory: directory)
    let appStore = try FileStore(directory: directory)
    let outboxKey = "usage-outbox"
    let monitor = MonitorExtension(
      store: extensionStore,
      outbox: try SequencedOutbox(store: extensionStore, key: outboxKey, capacity: 500))
    let consumer = try OutboxConsumer(
      outbox: try SequencedOutbox<UsageRecord>(store: appStore, key: outboxKey, capacity: 500),
      store: appStore, key: "usage-applied", initialState: [UsageRecord]())

    print("== 1. The monitor extension records usage; Darwin notifications get lost ==")
    var tally = MonitorExtension.Tally()
    var coordinator = DrainCoordinator()
    var drains = 0
    func wake(_ trigger: DrainTrigger) throws {
      let head = try consumer.outbox.head()?.number
      let decision = coordinator.decide(trigger, head: head, cursor: try consumer.record().cursor)
      guard decision.shouldDrain else { return }
      try consumer.drain { records, entry in records.append(entry.payload) }
      drains += 1
    }
    var nextPoll = SampleDay.instant(9, 0)
    for (index, event) in thresholdEvents().enumerated() {
      while event.receivedAt >= nextPoll {  // the app's fallback poll while it is awake
        try wake(.poll)
        nextPoll = nextPoll.addingTimeInterval(3 * 3600)
      }
      let deliveries = index % 6 == 5 ? 2 : 1  // the platform sometimes fires an event twice
      for _ in 0..<deliveries {
        var delivered = false
        try monitor.handle(event, tally: &tally) { number in
          delivered = number.value % 3 == 0  // two notifications in three never arrive
          return delivered
        }
        if delivered { try wake(.notification) }
      }
    }
    try wake(.foreground)  // the person opens the app in the evening
    let applied = try consumer.record().state
    print(
      """
      threshold events delivered: \(tally.events) (\(tally.duplicates) duplicates added nothing)
      usage entries published:    \(tally.published), each followed by a notification
      notifications lost:         \(tally.notificationsDropped) of \(tally.notificationsPosted)
      app drains:                 \(drains), \(coordinator.statistics.pollsThatFoundWork) of them from a poll that found entries no notification had announced
      entries applied by the app: \(applied.count), each exactly once — nothing lost
      """)

    try report(applied, store: appStore)
    try TrackerHealth(directory: directory).run(usage: applied, svgPath: svgPath)
  }

  /// The sample day's threshold events: every 5 minutes of use, per app, cumulative over the
  /// day's monitoring interval (`stk:<threshold>:<app>`).
  func thresholdEvents() -> [ThresholdEvent] {
    let intervalStart = SampleDay.boundary.start(of: SampleDay.day)
    var usedSoFar: [String: Int] = [:]
    var events: [ThresholdEvent] = []
    for session in SampleDay.sessions {
      let start = SampleDay.instant(session.start.hour, session.start.minute)
      for minute in stride(from: 5, through: session.minutes, by: 5) {
        let total = usedSoFar[session.app, default: 0] + minute
        do {
          let name = try ThresholdEventName(
            app: AppID(demo: session.app), threshold: .seconds(total * 60))
          events.append(
            try ThresholdEvent(
              name: name, intervalStart: intervalStart,
              receivedAt: start.addingTimeInterval(Double(minute * 60))))
        } catch {
          preconditionFailure("\(error)")
        }
      }
      usedSoFar[session.app, default: 0] += session.minutes
    }
    return events.sorted { $0.receivedAt < $1.receivedAt }
  }

  func report(_ records: [UsageRecord], store: FileStore) throws {
    print("\n== 2. The app aggregates what it applied (a 23-hour day: clocks sprang forward) ==")
    let usage = UsageAggregator(boundary: SampleDay.boundary, rules: SampleDay.rules)
      .aggregate(records)
    guard let today = usage.days.first(where: { $0.day == SampleDay.day }) else {
      print("no usage on \(SampleDay.day)")
      return
    }
    print("\(today.day): \(format(today.total)) of screen time in a \(format(today.length)) day")
    for category in today.categories {
      let apps = category.apps.map { "\($0.app) \(format($0.total))" }.joined(separator: ", ")
      print(
        "  \(category.category.displayName.padded(16)) \(format(category.total).padded(9)) \(apps)")
    }

    print("\n== 3. Budgets, alerts and pace for March ==")
    let plan = try MonthlyPlan(
      month: try LocalMonth(year: 2026, month: 3),
      amounts: [
        .socialMedia: .seconds(30 * 3600), .entertainment: .seconds(55 * 3600),
        .gaming: .seconds(25 * 3600),
      ],
      excluded: [.education], granularity: .minutes)
    var used: [AppCategory: [LocalDay: Duration]] = [:]
    for (category, daily) in SampleDay.earlierEachDay {
      for offset in 1...7 {
        used[category, default: [:]][SampleDay.day.advanced(by: -offset)] = daily
      }
    }
    for category in today.categories {
      used[category.category, default: [:]][today.day] = category.total
    }
    let reports = try plan.reports(on: SampleDay.day, usage: used)
    for report in reports {
      let name = report.category.displayName.padded(16)
      guard report.today.level != .excluded else {
        print("  \(name) today \(format(report.today.used)): tracked, not limited")
        continue
      }
      print(
        "  \(name) today \(format(report.today.used)) of \(format(report.today.allowance)): "
          + "\(report.today.level.rawValue); March so far \(format(report.periodToDate.used)) of "
          + "\(format(report.periodToDate.allowance))")
    }
    let alertsKey = StoreKey("budget-alerts", default: BudgetAlertState())
    for pass in ["first sync", "re-sync"] {
      let alerts = try store.update(alertsKey) { state in
        reports.flatMap { state.evaluate($0, period: .month, scope: .day) }
      }
      let text = alerts.map { "\($0.category.displayName) \($0.thresholdPercent)%" }
      print(
        "  alerts on \(pass): \(text.isEmpty ? "none (already reported)" : text.joined(separator: ", "))"
      )
    }
    let march = BudgetPeriod.month.interval(containing: SampleDay.day, boundary: SampleDay.boundary)
    let now = SampleDay.instant(23, 30)
    for budget in plan.budgets where !budget.isExcluded {
      let pace = try PaceProjection(
        used: used[budget.category, default: [:]].values.reduce(.zero, +),
        allowance: budget.proratedAmount(forPeriodContaining: SampleDay.day), period: march,
        now: now)
      let verdict =
        pace.runsOutAt.map { "runs out \($0.formatted(in: SampleDay.timeZone))" }
        ?? pace.outlook.rawValue
      print(
        "  pace \(budget.category.displayName.padded(16)) projected \(format(pace.projectedTotal ?? .zero)) — \(verdict)"
      )
    }

    print("\n== 4. Learning time earns screen time (10 XP = 1 minute) ==")
    var ledger = RewardLedger(rate: .tenXPPerMinute)
    let learned = today.usage(of: .education)?.total ?? .zero
    let xp = Int(learned.components.seconds / 60) * 12 + 5  // 12 XP a minute, 5 for the streak
    for _ in 1...2 {  // the sync runs twice; the transaction's id makes the second a no-op
      try ledger.apply(
        LedgerTransaction(id: "learn-\(SampleDay.day)", at: now, kind: .earn(xp: xp)))
    }
    try ledger.apply(LedgerTransaction(id: "swap-1", at: now, kind: .redeem(xp: xp)))
    try ledger.apply(
      LedgerTransaction(
        id: "play-1", at: now, kind: .startSpending(session: "evening", reserve: .seconds(20 * 60)))
    )
    try ledger.apply(
      LedgerTransaction(
        id: "play-1-end", at: now, kind: .endSpending(session: "evening", used: .seconds(9 * 60))))
    let balance = ledger.balance
    print(
      "  \(format(learned)) of learning earned \(xp) XP (applied once, though synced twice); "
        + "redeemed for whole minutes, \(balance.xp) XP kept as credit")
    print("  a 20-minute reward session ended after 9: \(format(balance.available)) left to spend")

    print("\n== 5. What the app syncs to its backend (seed 003's payload) ==")
    let payload = UsageSyncPayload(userId: "user-123", usage: today) { $0.rawValue }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(payload), as: UTF8.self))
  }
}

/// `1 h 35 min`, `25 min`, `40 s`.
func format(_ duration: Duration) -> String {
  let seconds = Int(duration.components.seconds)
  let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
  if hours > 0 { return minutes > 0 ? "\(hours) h \(minutes) min" : "\(hours) h" }
  if minutes > 0 { return "\(minutes) min" }
  return "\(seconds) s"
}

extension String {
  func padded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

extension Date {
  func formatted(in timeZone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "MMM d HH:mm zzz"
    return formatter.string(from: self)
  }
}
