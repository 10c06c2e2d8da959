/// Everything SignalValues rejects, with the context needed to act on it.
///
/// A call that throws changes nothing: a value is not created. The modules that record or
/// analyse these values report the failure in their own error type; TrackerSignals, for
/// instance, turns it into `TrackerSignalsError.invalidValue(field:value:requirement:)`.
public enum SignalValuesError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range.
  ///
  /// `field` names it (`"at"`, `"activity"`, `"before"`, ...), `value` shows what was given and
  /// `requirement` what is allowed.
  case invalidValue(field: String, value: String, requirement: String)

  /// A heartbeat source name is empty, too long or uses a character outside `A-Z a-z 0-9 _ -`.
  case invalidHeartbeatSource(value: String, reason: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    case .invalidHeartbeatSource(let value, let reason):
      return "Invalid heartbeat source \(value.debugDescription): \(reason)."
    }
  }
}

extension SignalValuesError {
  /// The coding key of the JSON field that an invalid value came from.
  ///
  /// For ``invalidValue(field:value:requirement:)``, the key named `field`; `nil` for other
  /// errors. Decoders use it to name the field that was wrong.
  func codingKey<Key: CodingKey>(_ type: Key.Type) -> Key? {
    guard case .invalidValue(let field, _, _) = self else { return nil }
    return Key(stringValue: field)
  }
}
