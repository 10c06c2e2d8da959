/// A day of the week, numbered as ISO 8601 does: Monday is 1, Sunday is 7.
///
/// JSON form: the number, 1...7.
public enum Weekday: Int, Sendable, Hashable, Comparable, CaseIterable, Codable {
  /// Monday, 1.
  case monday = 1
  /// Tuesday, 2.
  case tuesday
  /// Wednesday, 3.
  case wednesday
  /// Thursday, 4.
  case thursday
  /// Friday, 5.
  case friday
  /// Saturday, 6.
  case saturday
  /// Sunday, 7.
  case sunday

  /// Whether `lhs` comes before `rhs` in an ISO week.
  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
