import BudgetMath
import Foundation
import UsageModel

/// The intents of a log, checked and arranged by kind and instant, ready to be evaluated at any
/// instant.
///
/// Built once per derivation: duplicate identifiers collapse to the first intent, focus
/// sessions are replayed through BudgetMath's `FocusSession` state machine (an event it rejects
/// is reported and ignored: ignoring a focus event never lifts a shield), and every instant at
/// which an intent takes effect is kept for ``nextBoundary(after:scheduleLimit:in:)``.
struct IntentTimeline<Token: ShieldToken>: Sendable {
  struct ProfileChange: Sendable {
    let at: Date
    let id: String
    let profile: ShieldProfile<Token>?
  }

  struct Focus: Sendable {
    let profiles: [String]
    let startAt: Date
    var session: FocusSession
  }

  struct Window: Sendable {
    let at: Date
    let until: Date
    let id: String
  }

  /// A value in force from an intent's instant until an end.
  struct Dated<Value: Sendable>: Sendable {
    let window: Window
    let value: Value
  }

  private(set) var profileChanges: [ProfileChange] = []
  private(set) var sessions: [Focus] = []
  /// Earned time, with the profiles it lifts (all when `nil`).
  private(set) var earned: [Dated<Set<String>?>] = []
  private(set) var overrides: [String: [Dated<ShieldOverrideMode>]] = [:]
  private(set) var budgets: [String: [Dated<BudgetStatus>]] = [:]
  private(set) var instants: [Date] = []
  private(set) var diagnostics: [ShieldDiagnostic] = []

  init(intents: [ShieldIntent<Token>]) {
    var seen: [String: ShieldIntent<Token>] = [:]
    var unique: [ShieldIntent<Token>] = []
    for intent in intents {
      if let earlier = seen[intent.id] {
        if earlier != intent { diagnostics.append(.conflictingIntent(id: intent.id)) }
        continue
      }
      seen[intent.id] = intent
      unique.append(intent)
    }
    // Stable: intents at the same instant keep the log's order.
    let ordered = unique.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }
    .map(\.element)
    var sessionIndex: [String: Int] = [:]
    var referenced: [(intent: String, profile: String)] = []
    for intent in ordered {
      instants.append(intent.at)
      switch intent.action {
      case .setProfile(let profile):
        profileChanges.append(ProfileChange(at: intent.at, id: profile.id, profile: profile))
      case .removeProfile(let id):
        profileChanges.append(ProfileChange(at: intent.at, id: id, profile: nil))
        referenced.append((intent.id, id))
      case .startFocus(let name, let profiles, let focus):
        referenced += profiles.map { (intent.id, $0) }
        guard sessionIndex[name] == nil else {
          diagnostics.append(
            .rejectedIntent(id: intent.id, reason: "session \(name) already started"))
          continue
        }
        do throws(BudgetMathError) {
          let session = try FocusSession(id: name, scheduledStart: intent.at, focusDuration: focus)
          sessionIndex[name] = sessions.count
          sessions.append(Focus(profiles: profiles, startAt: intent.at, session: session))
        } catch {
          diagnostics.append(.rejectedIntent(id: intent.id, reason: error.description))
        }
      case .focus(let name, let kind, let breakLength):
        guard let index = sessionIndex[name] else {
          diagnostics.append(
            .rejectedIntent(id: intent.id, reason: "session \(name) never started"))
          continue
        }
        do throws(BudgetMathError) {
          try sessions[index].session.apply(
            Self.event(kind, at: intent.at, breakLength: breakLength))
        } catch {
          diagnostics.append(.rejectedIntent(id: intent.id, reason: error.description))
        }
      case .earnedTime(_, let duration, let profiles):
        let end = intent.at.addingTimeInterval(Double(Milliseconds.amount(duration) ?? 0) / 1000)
        earned.append(
          Dated(
            window: Window(at: intent.at, until: end, id: intent.id), value: profiles.map(Set.init))
        )
        referenced += (profiles ?? []).map { (intent.id, $0) }
      case .override(let profile, let mode, let until):
        overrides[profile, default: []].append(
          Dated(window: Window(at: intent.at, until: until, id: intent.id), value: mode))
        referenced.append((intent.id, profile))
      case .budget(let name, let status, let until):
        budgets[name, default: []].append(
          Dated(window: Window(at: intent.at, until: until, id: intent.id), value: status))
      }
    }
    let known = Set(profileChanges.compactMap { $0.profile?.id })
    for (intent, profile) in referenced where !known.contains(profile) {
      diagnostics.append(.unknownProfile(intent: intent, profile: profile))
    }
  }

  private static func event(_ kind: FocusEventKind, at: Date, breakLength: Duration?) -> FocusEvent
  {
    switch kind {
    case .start: return .start(at: at)
    case .beginBreak: return .beginBreak(at: at, length: breakLength)
    case .endBreak: return .endBreak(at: at)
    case .complete: return .complete(at: at)
    case .cancel: return .cancel(at: at)
    }
  }

  // MARK: - Evaluation

  /// The profiles in force at `instant`, by identifier.
  func profiles(at instant: Date) -> [String: ShieldProfile<Token>] {
    var profiles: [String: ShieldProfile<Token>] = [:]
    for change in profileChanges {
      guard change.at <= instant else { break }
      profiles[change.id] = change.profile
    }
    return profiles
  }

  /// The shielded targets at `instant`, in the profiles' order, with their reasons.
  ///
  /// The precedence, per profile: its schedules, the focus sessions naming it (unless on a
  /// break), its exhausted budgets and a lock each require its targets; earned time lifts its
  /// budgets (and its schedules when it says so); an unlock lifts all of its own sources but a
  /// lock. Then the union over the profiles.
  func evaluate(at instant: Date, in zone: TimeZone) -> [ShieldedTarget<Token>] {
    let profiles = self.profiles(at: instant)
    guard !profiles.isEmpty else { return [] }
    var focusReasons: [String: [ShieldReason]] = [:]
    for focus in sessions where focus.startAt <= instant {
      let state = focus.session.state(at: instant)
      guard state.phase == .active else { continue }
      for profile in focus.profiles {
        focusReasons[profile, default: []].append(
          ShieldReason(
            source: .focus, profile: profile, name: focus.session.id, until: state.endsAt))
      }
    }
    var order: [ShieldTarget<Token>] = []
    var reasonsByTarget: [ShieldTarget<Token>: [ShieldReason]] = [:]
    for id in profiles.keys.sorted() {
      guard let profile = profiles[id] else { continue }
      let reasons = self.reasons(of: profile, at: instant, in: zone, focus: focusReasons[id] ?? [])
      guard !reasons.isEmpty else { continue }
      for target in profile.targets {
        if reasonsByTarget[target] == nil { order.append(target) }
        reasonsByTarget[target, default: []] += reasons
      }
    }
    return order.map { target in
      ShieldedTarget(target: target, reasons: Array(Set(reasonsByTarget[target] ?? [])).sorted())
    }
  }

  private func reasons(
    of profile: ShieldProfile<Token>, at instant: Date, in zone: TimeZone, focus: [ShieldReason]
  ) -> [ShieldReason] {
    let override = latestOverride(of: profile.id, at: instant)
    if let override, override.value == .lock {
      return [
        ShieldReason(
          source: .lock, profile: profile.id, name: override.window.id, until: override.window.until
        )
      ]
    }
    if override?.value == .unlock { return [] }
    let earnedActive = earned.contains { entry in
      entry.window.at <= instant && instant < entry.window.until
        && (entry.value?.contains(profile.id) ?? true)
    }
    var reasons = focus
    if !(earnedActive && profile.earnedTimeLiftsSchedules) {
      for schedule in profile.schedules {
        guard let end = schedule.activeEnd(at: instant, in: zone) else { continue }
        reasons.append(
          ShieldReason(source: .schedule, profile: profile.id, name: schedule.name, until: end.date)
        )
      }
    }
    if !earnedActive {
      for name in profile.budgets {
        guard let reading = latest(budgets[name] ?? [], at: instant),
          instant < reading.window.until, reading.value.level != .excluded,
          reading.value.remaining == .zero
        else { continue }
        reasons.append(
          ShieldReason(
            source: .budget, profile: profile.id, name: name, until: reading.window.until))
      }
    }
    return reasons
  }

  private func latestOverride(of profile: String, at instant: Date) -> Dated<ShieldOverrideMode>? {
    guard let latest = latest(overrides[profile] ?? [], at: instant), instant < latest.window.until
    else { return nil }
    return latest
  }

  private func latest<Value>(_ entries: [Dated<Value>], at instant: Date) -> Dated<Value>? {
    entries.last { $0.window.at <= instant }
  }

  // MARK: - Boundaries

  /// The first instant after `instant` at which some source may change: an intent, a schedule's
  /// edge (daily windows only up to `scheduleLimit`), a focus session's automatic transition,
  /// the end of earned time, an override or a budget reading.
  func nextBoundary(after instant: Date, scheduleLimit: Date, in zone: TimeZone) -> Date? {
    var best: Date?
    func consider(_ date: Date?) {
      guard let date, date > instant else { return }
      best = min(best ?? date, date)
    }
    consider(firstInstant(after: instant))
    for profile in profiles(at: instant).values {
      for schedule in profile.schedules {
        guard let edge = schedule.nextBoundary(after: instant, in: zone) else { continue }
        if case .daily = schedule, edge > scheduleLimit { continue }
        consider(edge)
      }
    }
    for focus in sessions where focus.startAt <= instant {
      let state = focus.session.state(at: instant)
      switch state.phase {
      case .scheduled: consider(focus.session.scheduledStart)
      case .active: consider(state.endsAt)
      case .onBreak: consider(state.breakEndsAt)
      case .completed, .cancelled: continue
      }
    }
    for entry in earned { consider(entry.window.until) }
    for entries in overrides.values { for entry in entries { consider(entry.window.until) } }
    for entries in budgets.values { for entry in entries { consider(entry.window.until) } }
    return best
  }

  private func firstInstant(after instant: Date) -> Date? {
    var low = 0
    var high = instants.count
    while low < high {
      let middle = (low + high) / 2
      if instants[middle] <= instant { low = middle + 1 } else { high = middle }
    }
    return low < instants.count ? instants[low] : nil
  }
}
