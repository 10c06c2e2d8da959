/// What woke a consumer up and made it consider draining.
///
/// JSON form: the case name as a string, for example `"notification"`.
public enum DrainTrigger: String, Sendable, Hashable, Codable, CaseIterable {
  /// A notification from the producer arrived (on iOS, a Darwin notification).
  case notification
  /// The fallback poll timer fired (every 30 seconds is recommended).
  case poll
  /// The app launched or came to the foreground, where notifications sent while it was suspended
  /// were not observed: always drain-check on foreground.
  case foreground
}
