import Foundation

/// One threshold an app reached in a monitoring interval, and the earliest report of it.
///
/// The platform reports a threshold *after* the app's use reached it, so the report's instant
/// bounds when that use ended: the use counted by the threshold happened before it.
///
/// JSON form: `{"thresholdMs": 300000, "at": "2026-01-02T13:40:00Z"}`.
public struct ThresholdStep: Sendable, Hashable, Codable {
  let thresholdAmount: Int64
  var instant: Int64

  init(thresholdAmount: Int64, instant: Int64) {
    self.thresholdAmount = thresholdAmount
    self.instant = instant
  }

  /// The threshold: the app's cumulative use in the interval.
  public var threshold: Duration { Milliseconds.duration(thresholdAmount) }

  /// The earliest report of the threshold.
  public var reportedAt: Date { Milliseconds.date(instant) }

  private enum CodingKeys: String, CodingKey {
    case thresholdMs
    case at
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let threshold = try container.decodeMilliseconds(forKey: .thresholdMs)
    guard let amount = Milliseconds.amount(threshold) else {
      throw DecodingError.dataCorruptedError(
        forKey: .thresholdMs, in: container, debugDescription: "\(threshold) is out of range")
    }
    thresholdAmount = amount
    instant = try container.decodeInstant(forKey: .at)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeMilliseconds(threshold, forKey: .thresholdMs)
    try container.encodeInstant(instant, forKey: .at)
  }
}
