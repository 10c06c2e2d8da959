import BudgetMath
import Foundation
import UsageModel

/// One thing the app wants, recorded in the shared folder for the extension to act on.
///
/// The app never applies shields itself (re-applying them on coming to the foreground re-locked
/// apps in the middle of a break); it records intents, each with an identifier and an instant,
/// and the monitor extension derives what to shield from all of them (``ShieldDerivation``).
/// Recording an intent twice changes nothing.
///
/// ```swift
/// let focus = try ShieldIntent<String>(
///   id: "focus-1", at: nine, action: .startFocus(session: "deep-work", profiles: ["social"],
///   focus: .seconds(50 * 60)))
/// ```
///
/// JSON form: `{"id": "focus-1", "at": "2026-03-09T09:00:00Z", "type": "startFocus", …}` with
/// the fields of each type:
///
/// | type | fields |
/// |---|---|
/// | `setProfile` | `profile` (``ShieldProfile``) |
/// | `removeProfile` | `profileID` |
/// | `startFocus` | `session`, `profiles`, `focusMs` |
/// | `focus` | `session`, `event` (``/BudgetMath/FocusEventKind``), `breakLengthMs` (optional) |
/// | `earnedTime` | `session`, `durationMs`, `profiles` (absent: every profile) |
/// | `override` | `profileID`, `mode` (`lock` or `unlock`), `until` |
/// | `budget` | `name`, `status` (a ``/BudgetMath/BudgetStatus``), `until` |
public struct ShieldIntent<Token: ShieldToken>: Sendable, Hashable, Codable, Identifiable {
  /// What an intent asks for.
  public enum Action: Sendable, Hashable {
    /// Adds a profile, or replaces the profile with the same identifier, from the intent's
    /// instant.
    case setProfile(ShieldProfile<Token>)
    /// Removes a profile from the intent's instant.
    case removeProfile(id: String)
    /// Starts a focus session at the intent's instant: the profiles' targets are shielded
    /// while it is active (not on a break), for `focus` of focus time.
    case startFocus(session: String, profiles: [String], focus: Duration)
    /// Something happened to a focus session at the intent's instant: a break (of a planned
    /// length, or open-ended), its end, completion or cancellation.
    case focus(session: String, event: FocusEventKind, breakLength: Duration?)
    /// Earned time redeemed at the intent's instant: it lifts the budget shields of the
    /// profiles (all of them when `nil`), and their schedules where a profile allows it, for
    /// `duration` of wall-clock time.
    case earnedTime(session: String, duration: Duration, profiles: [String]?)
    /// A manual override of one profile from the intent's instant until `until`; the latest
    /// override of a profile replaces earlier ones.
    case override(profileID: String, mode: ShieldOverrideMode, until: Date)
    /// A budget's status from the intent's instant until `until` (the end of its period):
    /// when it has no time left, the profiles naming it are shielded.
    case budget(name: String, status: BudgetStatus, until: Date)
  }

  /// The identifier; recording an intent with a known identifier again is a no-op.
  public let id: String
  /// When the intent takes effect, rounded to the millisecond.
  public let at: Date
  /// What it asks for.
  public let action: Action

  /// Creates an intent.
  ///
  /// - Parameters:
  ///   - id: The identifier, not empty: a UUID, or a transaction's identifier.
  ///   - at: When it takes effect; rounded to the millisecond.
  ///   - action: What it asks for; an `until` is rounded to the millisecond.
  /// - Throws: ``ShieldingError/invalidValue(field:value:requirement:)`` for an empty
  ///   identifier or name, an instant out of range, a duration that is not positive whole
  ///   milliseconds, a break longer than a week, or an `until` not after `at`.
  public init(id: String, at: Date, action: Action) throws(ShieldingError) {
    guard !id.isEmpty else {
      throw .invalidValue(field: "intent id", value: "\"\"", requirement: "not empty")
    }
    guard let instant = Milliseconds.instant(at) else {
      throw .invalidValue(field: "at", value: "\(at)", requirement: "a representable instant")
    }
    try Self.check(action, at: instant)
    self.id = id
    self.at = Milliseconds.date(instant)
    self.action = Self.rounded(action)
  }

  /// `action` with its `until` rounded to the millisecond, as its JSON form keeps it.
  private static func rounded(_ action: Action) -> Action {
    func round(_ date: Date) -> Date { Milliseconds.instant(date).map(Milliseconds.date) ?? date }
    switch action {
    case .override(let profile, let mode, let until):
      return .override(profileID: profile, mode: mode, until: round(until))
    case .budget(let name, let status, let until):
      return .budget(name: name, status: status, until: round(until))
    default:
      return action
    }
  }

  /// The intent that earned time bought with a reward ledger's spending session starts.
  ///
  /// Earned time is spent by the wall clock from the session's start: the extension learns of
  /// use only at thresholds, so spending by use would need a threshold per earned session.
  ///
  /// - Parameters:
  ///   - entry: The ledger's entry of a `startSpending` transaction.
  ///   - profiles: The profiles it lifts; all of them when `nil`.
  /// - Returns: An intent with the transaction's identifier and instant.
  /// - Throws: ``ShieldingError/invalidValue(field:value:requirement:)`` for an entry of
  ///   another kind of transaction or a reservation of zero.
  public static func earnedTime(from entry: LedgerEntry, profiles: [String]? = nil)
    throws(ShieldingError) -> ShieldIntent
  {
    guard case .startSpending(let session, let reserve) = entry.transaction.kind else {
      throw .invalidValue(
        field: "entry", value: entry.transaction.id,
        requirement: "the entry of a startSpending transaction")
    }
    return try ShieldIntent(
      id: entry.transaction.id, at: entry.transaction.at,
      action: .earnedTime(session: session, duration: reserve, profiles: profiles))
  }

  private static func check(_ action: Action, at instant: Int64) throws(ShieldingError) {
    func positive(_ duration: Duration, _ field: String) throws(ShieldingError) {
      guard duration > .zero, Milliseconds.isWhole(duration), Milliseconds.amount(duration) != nil
      else {
        throw .invalidValue(
          field: field, value: "\(duration)", requirement: "positive whole milliseconds")
      }
    }
    func named(_ name: String, _ field: String) throws(ShieldingError) {
      guard !name.isEmpty else {
        throw .invalidValue(field: field, value: "\"\"", requirement: "not empty")
      }
    }
    func after(_ until: Date) throws(ShieldingError) {
      guard let end = Milliseconds.instant(until), end > instant else {
        throw .invalidValue(field: "until", value: "\(until)", requirement: "after the intent")
      }
    }
    switch action {
    case .setProfile: return
    case .removeProfile(let id): try named(id, "profile id")
    case .startFocus(let session, let profiles, let focus):
      try named(session, "session")
      try positive(focus, "focus")
      for profile in profiles { try named(profile, "profile id") }
    case .focus(let session, _, let breakLength):
      try named(session, "session")
      if let breakLength {
        try positive(breakLength, "breakLength")
        guard breakLength <= MonitoringLimits.maximumInterval else {
          throw .invalidValue(
            field: "breakLength", value: "\(breakLength)", requirement: "at most one week")
        }
      }
    case .earnedTime(let session, let duration, let profiles):
      try named(session, "session")
      try positive(duration, "duration")
      for profile in profiles ?? [] { try named(profile, "profile id") }
    case .override(let profile, _, let until):
      try named(profile, "profile id")
      try after(until)
    case .budget(let name, _, let until):
      try named(name, "budget name")
      try after(until)
    }
  }
}

/// What a manual override does to its profile until it expires.
///
/// JSON form: the raw value, `"lock"` or `"unlock"`.
public enum ShieldOverrideMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// Shields the profile's targets whatever its sources say.
  case lock
  /// Lifts every shield the profile's own sources require (schedules, focus, budgets).
  case unlock
}
