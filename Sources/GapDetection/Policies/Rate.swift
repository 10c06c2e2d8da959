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
  /// - Parameter percent: The target, for example 2 for "fewer than 2 % of checks".
  /// - Returns: `count / total < percent / 100`, compared exactly (in 128-bit products, so any
  ///   counts compare without overflow).
  public func isBelow(percent: Int) -> Bool {
    guard total > 0 else { return true }
    let lhs = count.multipliedFullWidth(by: 100)
    let rhs = percent.multipliedFullWidth(by: total)
    return (lhs.high, lhs.low) < (rhs.high, rhs.low)
  }

  /// `3/200 (1.5%)`: the percentage rounded half up to one decimal.
  public var description: String {
    guard total > 0 else { return "0/0" }
    // (count × 1000 + total / 2) / total in 128 bits; the quotient is at most 1000.
    let product = count.magnitude.multipliedFullWidth(by: 1000)
    let (low, carry) = product.low.addingReportingOverflow(total.magnitude / 2)
    let tenths = total.magnitude.dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient
    return "\(count)/\(total) (\(tenths / 10).\(tenths % 10)%)"
  }

  private enum CodingKeys: String, CodingKey {
    case count
    case total
  }

  /// Decodes the documented JSON form, validating it as ``init(count:total:)`` does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for a missing field or unless `0 <= count <= total`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let count = try container.decode(Int.self, forKey: .count)
    let total = try container.decode(Int.self, forKey: .total)
    do {
      try self.init(count: count, total: total)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .count, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(total, forKey: .total)
  }
}
