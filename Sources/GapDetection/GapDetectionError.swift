import UsageModel

/// Everything GapDetection rejects, with the context needed to act on it.
///
/// A call that throws changes nothing: a policy or a value is not created.
public enum GapDetectionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A field has a value outside its allowed range.
  ///
  /// `field` names it (`"staleAfter"`, `"at"`, `"pulseTime"`, ...), `value` shows what was given
  /// and `requirement` what is allowed.
  case invalidValue(field: String, value: String, requirement: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let requirement):
      return "Invalid \(field) \(value): \(requirement)."
    }
  }
}

extension GapDetectionError {
  /// The coding key of the JSON field that an invalid value came from.
  ///
  /// For ``invalidValue(field:value:requirement:)``, the key named `field`, or `field` with `Ms`
  /// appended (the library's name for an amount of milliseconds). Decoders use it to name the
  /// field that was wrong.
  func codingKey<Key: CodingKey>(_ type: Key.Type) -> Key? {
    guard case .invalidValue(let field, _, _) = self else { return nil }
    return Key(stringValue: field) ?? Key(stringValue: field + "Ms")
  }
}

// MARK: - Milliseconds

extension GapDetectionError: InvalidValueError {}

/// UsageModel's conversions of `Date` and `Duration` values, throwing ``GapDetectionError``.
typealias TimeValues = UsageModel.TimeValues<GapDetectionError>
