import BudgetMath
import Foundation
import UsageModel

/// Which intents of a log still matter at or after a cutoff.
///
/// The rule keeps every intent that can change a state at or after `cutoff` — also when another
/// process appends an intent with an earlier instant afterwards:
/// - of the profile changes, overrides and budget readings at or before the cutoff, the latest
///   per profile or budget (it supersedes the earlier ones, and keeps superseding any appended
///   later with an earlier instant); every later one;
/// - earned time that has not ended by the cutoff;
/// - every intent of a focus session, unless the session ended by an explicit `complete` or
///   `cancel` at or before the cutoff, or by itself a week (the longest break) before it: a late
///   break cannot make it active again then;
/// - a repeated identifier only once, and nothing else.
enum IntentCompaction {
  static func kept<Token>(_ intents: [ShieldIntent<Token>], cutoff: Date) -> Set<String> {
    var seen: Set<String> = []
    let unique = intents.filter { seen.insert($0.id).inserted }
    let ordered = unique.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }.map(\.element)
    var kept: Set<String> = []
    var latest: [String: String] = [:]  // "kind:name" → the latest past intent's identifier
    var sessions: [String: [ShieldIntent<Token>]] = [:]
    for intent in ordered {
      let past = intent.at <= cutoff
      switch intent.action {
      case .setProfile(let profile):
        if past { latest["profile:" + profile.id] = intent.id } else { kept.insert(intent.id) }
      case .removeProfile(let id):
        if past { latest["profile:" + id] = intent.id } else { kept.insert(intent.id) }
      case .override(let profile, _, _):
        if past { latest["override:" + profile] = intent.id } else { kept.insert(intent.id) }
      case .budget(let name, _, _):
        if past { latest["budget:" + name] = intent.id } else { kept.insert(intent.id) }
      case .earnedTime(_, let duration, _):
        let end = intent.at.addingTimeInterval(Double(Milliseconds.amount(duration) ?? 0) / 1000)
        if end > cutoff { kept.insert(intent.id) }
      case .startFocus(let session, _, _), .focus(let session, _, _):
        sessions[session, default: []].append(intent)
      }
    }
    kept.formUnion(latest.values)
    let timeline = IntentTimeline(intents: ordered)
    for (name, sessionIntents) in sessions where !isOver(name, sessionIntents, timeline, cutoff) {
      kept.formUnion(sessionIntents.map(\.id))
    }
    return kept
  }

  /// Whether a focus session can no longer shield at or after `cutoff`.
  private static func isOver<Token>(
    _ name: String, _ intents: [ShieldIntent<Token>], _ timeline: IntentTimeline<Token>,
    _ cutoff: Date
  ) -> Bool {
    guard intents.allSatisfy({ $0.at <= cutoff }) else { return false }
    guard let session = timeline.sessions.first(where: { $0.session.id == name })?.session else {
      return true  // never started: its events were rejected and shield nothing
    }
    let state = session.state(at: cutoff)
    guard state.phase.isFinished, let end = state.endedAt else { return false }
    if let last = session.events.last, last.kind == .complete || last.kind == .cancel {
      return true
    }
    let longestBreak = Double(Milliseconds.amount(MonitoringLimits.maximumInterval) ?? 0) / 1000
    return end.addingTimeInterval(longestBreak) <= cutoff
  }
}
