import Foundation
import ScreenTimeKit

/// The app's side of the sample: it wakes on the notifications that arrive, on a poll, and when
/// the person opens it in the evening; then it shows the day.
struct App {
  let sample: SampleDay
  var pipeline: UsagePipeline

  /// Drains if anything is new; returns whether it drained.
  mutating func wake(_ trigger: DrainTrigger, at now: Date) throws -> Bool {
    try pipeline.wake(trigger, now: now).applied > 0
  }

  /// Prints the dashboard of the sample day, and writes it to `output` when given.
  mutating func show(at now: Date, output: URL?) throws {
    let dashboard = try pipeline.dashboard(for: sample.day, now: now)
    let usage = dashboard.usage
    print(
      "\n== 2. The app derives the day from the facts (a 23-hour day: clocks sprang forward) ==")
    print("\(usage.day): \(format(usage.total)) of screen time in a \(format(usage.length)) day")
    for category in usage.categories {
      let apps = category.apps.map { "\($0.app) \(format($0.total))" }.joined(separator: ", ")
      print(
        "  \(category.category.displayName.padded(16)) \(format(category.total).padded(9)) \(apps)")
    }
    // Both bounds of the evidence: they differ where thresholds came in a burst.
    if dashboard.confirmedUsage.total == usage.total {
      print("confirmed by the evidence: all of it")
    } else {
      print(
        "confirmed by the evidence: \(format(dashboard.confirmedUsage.total)) of "
          + "\(format(usage.total)) (budgets count the upper bound, rewards the lower)")
      for grading in dashboard.unconfirmed {
        print(
          "  \(grading.app): \(format(grading.confirmed)) confirmed, "
            + "\(format(grading.claimed)) claimed (\(grading.reason?.rawValue ?? "-"))")
      }
    }
    let counts = dashboard.facts.thresholds
    print(
      "threshold events: \(counts.counted) counted, \(counts.duplicates) duplicates added nothing, "
        + "\(counts.implausible) implausible")

    print("\n== 3. Budgets, alerts and pace for March ==")
    for overview in dashboard.budgets {
      let report = overview.report
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
    print("  alerts to raise:          \(describe(dashboard.alerts.budget))")
    // Raising them is the app's; acknowledging them is what keeps them from showing again.
    let acknowledged = try pipeline.acknowledge(dashboard.alerts)
    print("  acknowledged:             \(describe(acknowledged.budget))")
    let again = try pipeline.dashboard(for: sample.day, now: now)
    print("  alerts on a re-sync:      \(describe(again.alerts.budget))")
    for overview in dashboard.budgets {
      guard let pace = overview.pace else { continue }
      let verdict =
        pace.runsOutAt.map { "runs out \(sample.clock($0, withDay: true))" }
        ?? pace.outlook.rawValue
      print(
        "  pace \(overview.report.category.displayName.padded(16)) projected "
          + "\(format(pace.projectedTotal ?? .zero)) — \(verdict)")
    }

    print("\n== 4. Learning earns screen time (2 XP a minute of learning; 10 XP = 1 minute) ==")
    print("  the week's learning earned \(dashboard.rewards.xp) XP, credited once per minute used")
    try pipeline.apply(
      LedgerTransaction(id: "streak-\(sample.day)", at: now, kind: .earn(xp: 5)))
    let redemption = try pipeline.redeemAll(id: "swap-\(sample.day)", at: now)
    print(
      "  with a 5 XP streak bonus: redeemed \(redemption.redeemedXP) XP for "
        + "\(format(redemption.timeBought)), \(redemption.remainingXP) XP kept as credit")
    try pipeline.apply(
      LedgerTransaction(
        id: "play-1", at: now, kind: .startSpending(session: "evening", reserve: .seconds(1200))))
    try pipeline.apply(
      LedgerTransaction(
        id: "play-1-end", at: now, kind: .endSpending(session: "evening", used: .seconds(540))))
    let balance = try pipeline.ledger().balance
    print("  a 20-minute reward session ended after 9: \(format(balance.available)) left to spend")

    print("\n== 5. What the app syncs to its backend (the backend's wire format) ==")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(dashboard.payload), as: UTF8.self))

    print("\n== 6. Is the tracker alive? A dead extension versus a phone put down ==")
    let gaps = dashboard.gaps
    print("health at \(sample.clock(now)): \(describe(dashboard.health.status))")
    print(
      "tracking expected \(format(gaps.expected)) (from 07:00): tracked \(format(gaps.tracked)), "
        + "idle \(format(gaps.idle)), unknown \(format(gaps.unknown)) — they add up exactly")
    for gap in gaps.gaps {
      print(
        "  \(sample.clock(gap.start))–\(sample.clock(gap.end)) "
          + "\(gap.classification.displayName.padded(17)) \(format(gap.duration))")
    }
    for alert in dashboard.alerts.trackerDown {
      print(
        "  alert: the tracker was down for \(format(alert.trackerDown)) "
          + "(threshold \(format(alert.threshold)))")
    }
    if let output {
      try write(dashboard, now: now, to: output)
    } else {
      print("(run with --out DIR to write the dashboard as JSON and the day as an SVG timeline)")
    }
  }

  private func write(_ dashboard: Dashboard, now: Date, to output: URL) throws {
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let json = output.appendingPathComponent("dashboard.json")
    try encoder.encode(dashboard).write(to: json)
    let report = try pipeline.diagnosticsReport(for: sample.day, now: now)
    let svg = output.appendingPathComponent("day.svg")
    try Data(report.svg.utf8).write(to: svg)
    print("wrote \(json.path) and \(svg.path)")
  }

  private func describe(_ status: HeartbeatStatus) -> String {
    switch status {
    case .healthy(let age): return "healthy, last heartbeat \(format(age)) ago"
    case .stale(let age): return "stale, last heartbeat \(format(age)) ago"
    case .neverSeen: return "never seen"
    case .clockSkew(let ahead): return "clock skew, a heartbeat \(format(ahead)) in the future"
    }
  }

  private func describe(_ alerts: [BudgetAlert]) -> String {
    guard !alerts.isEmpty else { return "none (already acknowledged)" }
    return alerts.map { "\($0.category.displayName) \($0.thresholdPercent)%" }
      .joined(separator: ", ")
  }
}

extension SampleDay {
  /// `HH:mm`, or `MMM d HH:mm` with the day, on the local clock.
  func clock(_ date: Date, withDay: Bool = false) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.month, .day, .hour, .minute], from: date)
    let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    guard withDay else { return time }
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    return "\(months[max(0, min(11, (parts.month ?? 1) - 1))]) \(parts.day ?? 1) \(time)"
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
