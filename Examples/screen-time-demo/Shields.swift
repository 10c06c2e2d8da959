import Foundation
import ScreenTimeKit

/// The sample day's shields: the app records intents, the extension decides and applies at
/// each wake-up — a focus session with a break, a budget running out, earned time lifting it,
/// and bedtime.
func shieldTour(in directory: URL, sample: SampleDay) throws {
  print("== 7. Shields: the app records intent, the extension decides and applies ==")
  let folder = try SharedFolder(directory: directory)
  let shields = ShieldController<String>(folder: folder, timeZone: sample.timeZone)
  func at(_ hour: Int, _ minute: Int = 0) throws -> Date {
    try sample.instant(try TimeOfDay(hour: hour, minute: minute), on: sample.day)
  }
  let bedtime = try ScheduledWindow(
    name: "bedtime", kind: .block,
    window: DailyWindow(start: TimeOfDay(hour: 21), end: TimeOfDay(hour: 7)))
  let kids = try ShieldProfile<String>(
    id: "kids",
    targets: [.application("instagram"), .application("clash"), .category("games")],
    schedules: [.daily(bedtime)], budgets: ["social_media"])

  // The reward ledger pays for the evening's earned time: 300 XP, redeemed, 30 minutes spent.
  var ledger = RewardLedger(rate: .tenXPPerMinute)
  try ledger.apply(LedgerTransaction(id: "chores", at: try at(16, 30), kind: .earn(xp: 300)))
  try ledger.redeemAll(id: "swap", at: try at(16, 30))
  let spend = try ledger.apply(
    LedgerTransaction(
      id: "reward-1", at: try at(17),
      kind: .startSpending(session: "reward", reserve: .seconds(1800))))
  let usedUp = try BudgetStatus(used: .seconds(61 * 60), allowance: .seconds(60 * 60))

  // What the app records, and when (each time it also starts a short monitoring interval, so
  // that the extension wakes up to apply it).
  let intents: [(label: String, intent: ShieldIntent<String>)] = [
    ("set profile kids", try ShieldIntent(id: "kids-1", at: try at(8), action: .setProfile(kids))),
    (
      "focus homework, 50 min",
      try ShieldIntent(
        id: "focus-1", at: try at(14),
        action: .startFocus(session: "homework", profiles: ["kids"], focus: .seconds(50 * 60)))
    ),
    (
      "a 10-minute break",
      try ShieldIntent(
        id: "break-1", at: try at(14, 20),
        action: .focus(session: "homework", event: .beginBreak, breakLength: .seconds(600)))
    ),
    (
      "social media budget used up (upper bound 61 of 60 min)",
      try ShieldIntent(
        id: "budget-1", at: try at(16),
        action: .budget(name: "social_media", status: usedUp, until: try at(23, 59)))
    ),
    ("300 XP redeemed for 30 min", try .earnedTime(from: spend.entry)),
  ]
  var pending = intents[...]
  var now = try at(8)
  let end = try at(22)
  while now < end {
    var heard: [String] = []
    while let next = pending.first, next.intent.at <= now {
      try shields.record(next.intent)
      heard.append(next.label)
      pending = pending.dropFirst()
    }
    let decision = shields.decide(now: now)
    try shields.markApplied(decision)
    let shielded = decision.state.targets.map(\.target.token)
    var reasons: [String] = []
    for reason in Set(decision.state.targets.flatMap(\.reasons)).sorted() {
      let until = reason.until.map { " until " + time($0, sample) } ?? ""
      reasons.append("\(reason.source.rawValue) \(reason.name)\(until)")
    }
    let what = shielded.isEmpty ? "nothing shielded" : shielded.joined(separator: ", ")
    let why = reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"
    let app = heard.isEmpty ? "" : "app: " + heard.joined(separator: "; ") + " → "
    let apply =
      decision.changesNothing
      ? "nothing to apply"
      : (decision.writes.map { "write store \($0.index)" }
        + decision.clears.map { "clear store \($0)" }).joined(separator: ", ")
    print("  \(time(now, sample))  \(app)\(apply): \(what)\(why)")
    if now == (try at(14, 20)) {
      // The source app's bug: re-applying shields on coming to the foreground mid-break.
      let foreground = shields.decide(now: try at(14, 25))
      print(
        "  \(time(try at(14, 25), sample))  the app comes to the foreground mid-break: "
          + (foreground.changesNothing ? "nothing to apply, nothing re-locked" : "RE-LOCKED"))
    }
    let wakeUp = [decision.nextChange, pending.first?.intent.at].compactMap { $0 }.min()
    guard let wakeUp else { break }
    now = wakeUp
  }
  print()
}

/// `HH:mm` on the sample's wall clock.
private func time(_ date: Date, _ sample: SampleDay) -> String {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = sample.timeZone
  formatter.dateFormat = "HH:mm"
  return formatter.string(from: date)
}
