import ActivityPlanning
import SharedStore

/// Everything the shielding module can reject, naming the input to fix.
///
/// Building a profile or an intent throws it (typed throws) for bad input; reading and writing
/// the shared folder throws it for a store that failed. A call that throws changes nothing.
/// Errors met while *deriving* what to shield are never thrown: they are reported as
/// ``ShieldDiagnostic`` values beside a state that keeps every shield (see
/// <doc:DecidingWhatToShield>).
public enum ShieldingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A value is out of range; `requirement` says what it must be.
  case invalidValue(field: String, value: String, requirement: String)
  /// A schedule is shorter than the platform's shortest monitoring interval, 15 minutes.
  case scheduleTooShort(profile: String, schedule: String, length: Duration, minimum: Duration)
  /// A profile names more targets of one kind than every store of a process can hold.
  case tooManyTargets(profile: String, kind: ShieldTargetKind, count: Int, limit: Int)
  /// An intent reuses the identifier of an earlier intent with other content.
  case conflictingIntent(id: String)
  /// The shared store failed.
  case store(SharedStoreError)
  /// A value could not be encoded for the store.
  case encoding(String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "The \(field) \(value) is invalid: it must be \(requirement)."
    case .scheduleTooShort(let profile, let schedule, let length, let minimum):
      return "The schedule \(schedule) of profile \(profile) lasts \(length), shorter than the "
        + "platform's \(minimum)."
    case .tooManyTargets(let profile, let kind, let count, let limit):
      return "The profile \(profile) names \(count) targets of kind \(kind.rawValue), more than "
        + "the \(limit) a process can shield: split it or shield a category instead."
    case .conflictingIntent(let id):
      return "The intent \(id) was recorded earlier with other content: give each intent its "
        + "own identifier."
    case .store(let error):
      return error.description
    case .encoding(let reason):
      return "A value could not be encoded: \(reason)."
    }
  }
}
