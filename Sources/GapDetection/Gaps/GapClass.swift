/// What a gap means for the usage that was recorded.
///
/// JSON form: the raw value, for example `"tracker_down"`.
public enum GapClass: String, Sendable, Hashable, CaseIterable, Codable {
  /// The tracker's heartbeats were silent: usage in this time was probably lost.
  case trackerDown = "tracker_down"
  /// Heartbeats were fine but notification sequence numbers went missing: the app may not have
  /// processed usage that the tracker did record.
  case notificationLoss = "notification_loss"
  /// Heartbeats were fine and nothing went missing; nobody used the device. Nothing was lost.
  case idle

  /// Whether usage may have been lost in such a gap (its time counts as *unknown*).
  public var mayHaveLostUsage: Bool { self != .idle }

  /// A name to show a person: "tracker down", "notification loss", "idle".
  public var displayName: String {
    switch self {
    case .trackerDown: return "tracker down"
    case .notificationLoss: return "notification loss"
    case .idle: return "idle"
    }
  }
}
