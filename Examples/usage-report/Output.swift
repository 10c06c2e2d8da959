import BudgetMath
import Foundation
import UsageModel

extension UsageSummary {
  /// The report as text for people: times in hours, minutes and seconds, exact.
  var text: String {
    let boundary = usage.boundary
    var lines = [
      "Usage in \(boundary.timeZone.identifier), days starting at \(boundary.dayStart)"
        + (month.map { ", \($0)" } ?? ""),
      "from " + counted(recordCount, "usage record") + " and sync payloads for "
        + counted(payloadDayCount, "day"),
    ]
    if usage.days.isEmpty { lines += ["", "No usage."] }
    for day in usage.days {
      var title = "\(day.day) \(name(of: day.day.weekday))"
      // A day is 24 hours long, except when the clocks change.
      if day.length != .seconds(24 * 3600) {
        title += " (\(formatted(day.length)): clocks changed)"
      }
      lines += ["", row(title, day.total)]
      for category in day.categories {
        lines.append(row("  " + category.category.displayName, category.total))
        for app in category.apps { lines.append(row("    " + label(app.app), app.total)) }
      }
    }
    if usage.days.count > 1 {
      lines += ["", row("All \(usage.days.count) days", usage.total), "  by category"]
      for category in categoryTotals {
        lines.append(row("    " + category.category.displayName, category.total))
      }
      lines.append("  by app")
      for app in appTotals { lines.append(row("    " + label(app.app), app.total)) }
    }
    if !usage.uncategorizedApps.isEmpty {
      lines += [
        "",
        "Counted as Other, as no rule matched them (see --rules): "
          + usage.uncategorizedApps.map(\.rawValue).joined(separator: ", "),
      ]
    }
    if let budgets { lines += [""] + budgets.text(in: boundary) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// An app's ID, with the name a sync payload gave it.
  private func label(_ app: AppID) -> String {
    appNames[app].map { "\(app) (\($0))" } ?? app.rawValue
  }

  /// The report in its documented JSON form (see the README), with sorted keys.
  func json() throws(Failure) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let form = JSONForm(
      usage: usage,
      totals: .init(
        totalMs: milliseconds(usage.total), categories: categoryTotals, apps: appTotals),
      appNames: Dictionary(uniqueKeysWithValues: appNames.map { ($0.key.rawValue, $0.value) }),
      budgets: budgets.map { budgets in
        .init(
          month: budgets.plan.month, day: budgets.day, now: isoText(budgets.now),
          categories: budgets.lines.map { .init(report: $0.report, pace: $0.pace) })
      })
    do {
      return try encoder.encode(form) + Data("\n".utf8)
    } catch {
      throw .input("the report", "cannot be encoded: \(error)")
    }
  }
}

extension UsageSummary.Budgets {
  /// One paragraph per budget: today, the plan's days so far, and the pace.
  func text(in boundary: DayBoundary) -> [String] {
    var text = [
      "Budgets of \(plan.month)"
        + (plan.startDay == plan.month.firstDay ? "" : " (from \(plan.startDay) on)")
        + " on \(day), as of \(localText(now, in: boundary))",
      nowWasGiven ? nil : "(the end of the latest day with usage; see --now)",
    ].compactMap { $0 }
    let since = plan.startDay == plan.month.firstDay ? "this month" : "so far"
    for (report, pace) in lines {
      let name = report.category.displayName
      guard report.today.level != .excluded else {
        text.append(
          "  \(name): excluded, tracked but not limited: today \(formatted(report.today.used)), "
            + "\(since) \(formatted(report.period.used))")
        continue
      }
      text += [
        "  \(name): \(report.today.level.rawValue) today, \(report.period.level.rawValue) \(since)",
        "    today       " + describe(report.today),
        "    " + since.padding(toLength: 12, withPad: " ", startingAt: 0) + describe(report.period),
      ]
      if let pace { text.append("    pace        " + describe(pace, in: boundary)) }
    }
    return text
  }

  private func describe(_ status: BudgetStatus) -> String {
    let amounts = "\(formatted(status.used)) of \(formatted(status.allowance))"
    switch status.level {
    case .over: return amounts + ", over by \(formatted(status.overage))"
    case .warning:
      return amounts + ", \(formatted(status.remaining)) left (past \(status.warningPercent) %)"
    case .under, .excluded: return amounts + ", \(formatted(status.remaining)) left"
    }
  }

  private func describe(_ pace: PaceProjection, in boundary: DayBoundary) -> String {
    switch pace.outlook {
    case .noUsageYet: return "no usage yet"
    case .exhausted: return "used up"
    case .onTrack:
      return "on track"
        + (pace.projectedTotal.map { ": \(formatted($0)) by the month's end at this rate" } ?? "")
    case .willRunOut:
      return "runs out "
        + (pace.runsOutAt.map { localText($0, in: boundary) } ?? "before the month's end")
        + " at this rate"
    }
  }
}

/// The JSON form of the report.
private struct JSONForm: Encodable {
  struct Totals: Encodable {
    let totalMs: Int64
    let categories: [CategoryUsage]
    let apps: [AppUsage]
  }
  struct Budgets: Encodable {
    let month: LocalMonth
    let day: LocalDay
    let now: String
    let categories: [Line]
  }
  struct Line: Encodable {
    let report: BudgetReport
    let pace: PaceProjection?
  }
  let usage: UsageReport
  let totals: Totals
  let appNames: [String: String]
  let budgets: Budgets?
}

// MARK: - Formatting

/// A time for people, exact: `2h 05m`, `58m 03s`, `45s`, `1.250s`.
func formatted(_ duration: Duration) -> String {
  let total = milliseconds(duration)
  let (hours, minutes, seconds, fraction) =
    (total / 3_600_000, total / 60_000 % 60, total / 1000 % 60, total % 1000)
  let wide = hours > 0 || minutes > 0
  var text = padded(seconds, wide ? 2 : 1) + (fraction == 0 ? "s" : ".\(padded(fraction, 3))s")
  if wide {
    text = padded(minutes, hours > 0 ? 2 : 1) + "m" + (total % 60_000 == 0 ? "" : " " + text)
  }
  if hours > 0 { text = "\(hours)h " + text }
  return text
}

/// A whole number of milliseconds (every amount of the library is one).
func milliseconds(_ duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}

private func padded(_ value: Int64, _ width: Int) -> String {
  let text = String(value)
  return String(repeating: "0", count: max(0, width - text.count)) + text
}

/// A label and a time, the time right-aligned at column 60.
private func row(_ label: String, _ duration: Duration) -> String {
  let time = formatted(duration)
  let room = max(1, 60 - label.count - time.count)
  return label + String(repeating: " ", count: room) + time
}

/// `1 day`, `12 usage records`.
private func counted(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)" + (count == 1 ? "" : "s")
}

private func name(of weekday: Weekday) -> String {
  ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][
    weekday.rawValue - 1]
}

/// An instant on the report's wall clock, with its offset: `2026-03-31 21:00 +02:00`.
func localText(_ date: Date, in boundary: DayBoundary) -> String {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = boundary.timeZone
  formatter.dateFormat = "yyyy-MM-dd HH:mm xxx"
  return formatter.string(from: date)
}

/// An instant as ISO 8601 text in UTC, with milliseconds only when there are some.
func isoText(_ date: Date) -> String {
  let formatter = ISO8601DateFormatter()
  if date.timeIntervalSince1970.rounded(.down) != date.timeIntervalSince1970 {
    formatter.formatOptions.insert(.withFractionalSeconds)
  }
  return formatter.string(from: date)
}
