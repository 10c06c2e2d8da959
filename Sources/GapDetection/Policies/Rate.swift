/// A count out of a total, compared exactly with percentage targets.
///
/// JSON form: `{"count": 3, "total": 200}`.
public struct Rate: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How many of the total.
  public let count: Int
  /// The total.
  public let total: Int

  /// Creates a rate.
  ///
  /// - Parameters:
  ///   - count: How many, from 0 to `total`.
  ///   - total: The total, zero or more.
  /// - Throws: ``GapDetectionError/invalidValue(field:value:requirement:)`` unless
  ///   `0 <= count <= total`.
  public init(count: Int, total: Int) throws(GapDetectionError) {
    guard count >= 0, count <= total else {
      throw .invalidValue(
        field: "rate", value: "\(count) of \(total)", requirement: "0 <= count <= total")
    }
    self.count = count
    self.total = total
  }

  init(unchecked count: Int, of total: Int) {
    self.count = count
    self.total = total
  }

  /// The fraction, or `nil` when the total is zero.
  public var fraction: Double? { total == 0 ? nil : Double(count) / Double(total) }

  /// Whether the rate is strictly below `percent` percent; a rate of nothing (total zero) is.
  ///
  /// - Parameter percent: The target, for example 2 for seed 000's "< 2 % of checks".
  /// - Returns: `count / total < percent / 100`, compared exactly.
  public func isBelow(percent: Int) -> Bool {
    total == 0 || count * 100 < percent * total
  }

  /// `3/200 (1.5%)`.
  public var description: String {
    guard total > 0 else { return "0/0" }
    let tenths = (count * 1000 + total / 2) / total
    return "\(count)/\(total) (\(tenths / 10).\(tenths % 10)%)"
  }
}
