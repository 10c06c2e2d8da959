import Foundation
import UsageModel

/// Something wrong that a derivation met and worked around without lifting a shield.
///
/// Each diagnostic comes with the safe state documented for it (see
/// <doc:DecidingWhatToShield>): what every source that might be active requires stays shielded,
/// and nothing unshields because of an error. Diagnostics are reported, never stored with an
/// applied state.
public enum ShieldDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// A record of the intent log could not be decoded. Intents after it are trusted only where
  /// they add shields: the state is the union of the state derived from every readable intent
  /// and of the state derived from the intents before this record.
  case undecodableIntent(position: UInt64, reason: String)
  /// An intent reuses an identifier with other content; the first one counts.
  case conflictingIntent(id: String)
  /// An intent was not applied (a focus event the session's state machine forbids, a focus
  /// event for a session never started); `reason` says why. Ignoring it never lifts a shield.
  case rejectedIntent(id: String, reason: String)
  /// An intent names a profile no intent ever set; it shields or lifts nothing.
  case unknownProfile(intent: String, profile: String)
  /// The clock reads earlier than the instant of the last state applied or written ahead
  /// (`lastApplied`): what the device may shield stays shielded, with anything newly required.
  case clockWentBackwards(lastApplied: Date, now: Date)
  /// More targets of a kind must be shielded than every store holds: the stores are full and
  /// ``ShieldState/shieldsAllCategories`` asks the extension to shield every category.
  case storeLimitExceeded(kind: ShieldTargetKind, count: Int, capacity: Int)
  /// The intent log evicted records the derivation never saw: what was applied last stays
  /// shielded, with anything newly required.
  case intentsEvicted(count: UInt64)
  /// A key of the shared folder could not be read; `reason` says why. For the intents, nothing
  /// changes: the last applied state stays.
  case unreadable(key: String, reason: String)
  /// A decision that changes the stores could not be recorded as pending under `key` before
  /// being applied; `reason` says why. Had it lifted a shield, a kill before it was marked
  /// applied would leave a record that misses the lift, so it keeps everything the record says
  /// the device may shield and only adds what is newly required. The next decision tries again.
  case writeAheadFailed(key: String, reason: String)

  /// Whether the derivation kept shields because of this diagnostic (all but a conflicting,
  /// rejected or unknown-profile intent, which are simply ignored).
  public var holdsShields: Bool {
    switch self {
    case .conflictingIntent, .rejectedIntent, .unknownProfile: return false
    default: return true
    }
  }

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .undecodableIntent(let position, let reason):
      return "The shield intent at position \(position) could not be decoded (\(reason)); later "
        + "intents only add shields until the log is repaired."
    case .conflictingIntent(let id):
      return "The shield intent \(id) was recorded twice with different content; the first counts."
    case .rejectedIntent(let id, let reason):
      return "The shield intent \(id) was not applied: \(reason)."
    case .unknownProfile(let intent, let profile):
      return "The shield intent \(intent) names the profile \(profile), which no intent sets."
    case .clockWentBackwards(let lastApplied, let now):
      return "The clock reads \(Self.format(now)), before the last applied state of "
        + "\(Self.format(lastApplied)); its shields are kept."
    case .storeLimitExceeded(let kind, let count, let capacity):
      return "\(count) targets of kind \(kind.rawValue) must be shielded, more than the "
        + "\(capacity) the stores hold; every category is shielded instead."
    case .intentsEvicted(let count):
      return "The shield intent log evicted \(count) records; the last applied shields are kept. "
        + "Raise its capacity."
    case .unreadable(let key, let reason):
      return "The key \(key) could not be read (\(reason)); the last applied shields are kept."
    case .writeAheadFailed(let key, let reason):
      return "The shield decision could not be recorded under \(key) before being applied "
        + "(\(reason)); the last applied shields are kept, and only new ones are added."
    }
  }

  private static func format(_ date: Date) -> String {
    Milliseconds.instant(date).map(ISO8601Instant.format) ?? "\(date)"
  }
}
