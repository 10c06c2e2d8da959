/// What woke a consumer up and made it consider draining.
///
/// JSON form: the case name as a string, for example `"notification"`.
public enum DrainTrigger: String, Sendable, Hashable, Codable, CaseIterable {
  /// A notification from the producer arrived (on iOS, a Darwin notification).
  case notification
  /// The fallback poll timer fired (seed 004 polls every 30 seconds).
  case poll
  /// The app launched or came to the foreground, where notifications sent while it was suspended
  /// were not observed (seed 004 §5.1).
  case foreground
}
