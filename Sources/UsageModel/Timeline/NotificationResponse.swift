/// A fired notification and the action that answered it, if one did in time.
public struct NotificationResponse: Sendable, Hashable {
  /// The notification.
  public let notification: TimelineEvent
  /// The first action that answered it, or `nil`.
  public let response: TimelineEvent?

  /// Links a notification to its response.
  ///
  /// - Parameters:
  ///   - notification: The notification.
  ///   - response: The action that answered it, or `nil`.
  public init(notification: TimelineEvent, response: TimelineEvent?) {
    self.notification = notification
    self.response = response
  }

  /// The time from the notification to the response, or `nil` when unanswered.
  public var latency: Duration? {
    response.map { Milliseconds.duration($0.instant - notification.instant) }
  }
}
