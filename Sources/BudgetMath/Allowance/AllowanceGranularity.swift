/// The unit in which allowances are counted and distributed.
///
/// A period's amount is split into whole units; the remainder is spread so that the days add up
/// exactly to the amount. JSON form: the raw value, `"seconds"` or `"minutes"`.
public enum AllowanceGranularity: String, Sendable, Hashable, Codable, CaseIterable {
  /// Whole seconds (the default).
  case seconds
  /// Whole minutes, for apps that show and enforce minutes only.
  case minutes

  /// The unit's length in milliseconds.
  var milliseconds: Int64 {
    switch self {
    case .seconds: return 1000
    case .minutes: return 60_000
    }
  }

  /// The unit as a duration.
  public var unit: Duration { .milliseconds(milliseconds) }
}
