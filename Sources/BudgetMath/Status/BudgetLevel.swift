/// How a budget stands: comfortably under, close to the limit, or over it.
///
/// JSON form: the raw value, for example `"warning"`.
public enum BudgetLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// Used less than the warning share of the allowance.
  case under
  /// Used at least the warning share of the allowance, but not more than all of it.
  case warning
  /// Used more than the allowance; using exactly all of it is not over.
  case over
  /// The category is excluded from budgeting: its use is tracked, not limited.
  case excluded

  /// Orders levels by severity: under, warning, over; excluded sorts first.
  ///
  /// - Parameters:
  ///   - lhs: A level.
  ///   - rhs: Another level.
  /// - Returns: Whether `lhs` is less severe than `rhs`.
  public static func < (lhs: BudgetLevel, rhs: BudgetLevel) -> Bool {
    lhs.severity < rhs.severity
  }

  private var severity: Int {
    switch self {
    case .excluded: return 0
    case .under: return 1
    case .warning: return 2
    case .over: return 3
    }
  }
}
