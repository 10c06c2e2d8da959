import Foundation

/// One "threshold reached" callback, as the monitor extension received it.
///
/// JSON form: `{"name": "stk:15m:com.instagram.instagram", "intervalStart":
/// "2026-01-02T05:00:00Z", "receivedAt": "2026-01-02T14:03:10Z", "includesPastActivity":
/// false}`.
public struct ThresholdEvent: Sendable, Hashable, Codable {
  /// The event's name: the app and the threshold it reached.
  public let name: ThresholdEventName
  /// When the monitoring interval the event belongs to began.
  ///
  /// For a schedule that started
  /// mid-interval (monitoring began at 14:23 for a 00:00–23:59 schedule), the instant monitoring
  /// began. Events of one interval share this instant exactly; it identifies the interval.
  public var intervalStart: Date { Milliseconds.date(intervalStartInstant) }
  /// When the extension received the callback.
  public var receivedAt: Date { Milliseconds.date(receivedInstant) }
  /// Whether the event was registered with `includesPastActivity`, so that the platform counts
  /// usage from the start of the hour in which the interval began.
  public let includesPastActivity: Bool
  let intervalStartInstant: Int64
  let receivedInstant: Int64

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - name: The event's name.
  ///   - intervalStart: When its monitoring interval began.
  ///   - receivedAt: When the callback ran.
  ///   - includesPastActivity: Whether the event counts activity from before the interval.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for a non-finite or
  ///   out-of-range instant. Instants are rounded to the millisecond.
  public init(
    name: ThresholdEventName, intervalStart: Date, receivedAt: Date,
    includesPastActivity: Bool = false
  ) throws(UsageModelError) {
    let intervalStartInstant = try Milliseconds.instant(intervalStart, field: "intervalStart")
    let receivedInstant = try Milliseconds.instant(receivedAt, field: "receivedAt")
    self.init(
      name: name, intervalStartInstant: intervalStartInstant, receivedInstant: receivedInstant,
      includesPastActivity: includesPastActivity)
  }

  init(
    name: ThresholdEventName, intervalStartInstant: Int64, receivedInstant: Int64,
    includesPastActivity: Bool
  ) {
    self.name = name
    self.intervalStartInstant = intervalStartInstant
    self.receivedInstant = receivedInstant
    self.includesPastActivity = includesPastActivity
  }

  private enum CodingKeys: String, CodingKey {
    case name
    case intervalStart
    case receivedAt
    case includesPastActivity
  }

  /// Decodes the documented JSON form; `includesPastActivity` may be absent (`false`).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      name: try container.decode(ThresholdEventName.self, forKey: .name),
      intervalStartInstant: try container.decodeInstant(forKey: .intervalStart),
      receivedInstant: try container.decodeInstant(forKey: .receivedAt),
      includesPastActivity: try container.decodeIfPresent(
        Bool.self, forKey: .includesPastActivity) ?? false)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encodeInstant(intervalStartInstant, forKey: .intervalStart)
    try container.encodeInstant(receivedInstant, forKey: .receivedAt)
    try container.encode(includesPastActivity, forKey: .includesPastActivity)
  }
}
