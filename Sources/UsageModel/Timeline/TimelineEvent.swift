import Foundation

/// One point on a day's timeline: a notification that fired, or something the person did.
///
/// JSON form: `{"at": "2026-01-02T10:30:00Z", "kind": "notification_fired", "label":
/// "stand_up"}`, the label omitted when absent.
public struct TimelineEvent: Sendable, Hashable, Comparable, Codable {
  /// What happened.
  public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A notification was delivered (captured when presented or when answered).
    case notificationFired = "notification_fired"
    /// The person did something, such as logging an exercise, that may answer a notification.
    case userAction = "user_action"
  }

  /// What happened.
  public let kind: Kind
  /// An optional tag, such as the notification's category or the action's type.
  public let label: String?
  let instant: Int64

  /// Creates an event.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - date: When, rounded to the millisecond.
  ///   - label: An optional tag.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)``.
  public init(_ kind: Kind, at date: Date, label: String? = nil) throws(UsageModelError) {
    self.init(kind, instant: try Milliseconds.instant(date, field: "at"), label: label)
  }

  init(_ kind: Kind, instant: Int64, label: String?) {
    self.kind = kind
    self.instant = instant
    self.label = label
  }

  /// When it happened.
  public var date: Date { Milliseconds.date(instant) }

  /// Orders by time, then kind (notifications first), then label.
  public static func < (lhs: TimelineEvent, rhs: TimelineEvent) -> Bool {
    (lhs.instant, lhs.kind == .userAction ? 1 : 0, lhs.label ?? "")
      < (rhs.instant, rhs.kind == .userAction ? 1 : 0, rhs.label ?? "")
  }

  private enum CodingKeys: String, CodingKey {
    case at
    case kind
    case label
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      try container.decode(Kind.self, forKey: .kind),
      instant: try container.decodeInstant(forKey: .at),
      label: try container.decodeIfPresent(String.self, forKey: .label))
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(instant, forKey: .at)
    try container.encode(kind, forKey: .kind)
    try container.encodeIfPresent(label, forKey: .label)
  }
}
