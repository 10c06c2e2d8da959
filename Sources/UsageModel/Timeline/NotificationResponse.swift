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

/// How quickly notifications were answered: counts, rate and latency figures, all exact.
///
/// Latencies are whole milliseconds; the mean and the median of an even count are exact
/// `Duration` divisions (no rounding to a `Double`).
public struct ResponseLatencyStatistics: Sendable, Hashable {
  /// The number of notifications.
  public let notificationCount: Int
  /// The number of notifications that were answered.
  public let respondedCount: Int
  /// The shortest latency, or `nil` when nothing was answered.
  public let minimum: Duration?
  /// The median latency, or `nil` when nothing was answered.
  public let median: Duration?
  /// The mean latency, or `nil` when nothing was answered.
  public let mean: Duration?
  /// The longest latency, or `nil` when nothing was answered.
  public let maximum: Duration?

  /// Computes the statistics of `responses`.
  ///
  /// - Parameter responses: Notifications with their responses.
  /// - Complexity: O(*n* log *n*).
  public init(_ responses: [NotificationResponse]) {
    let latencies = responses.compactMap(\.latency).sorted()
    notificationCount = responses.count
    respondedCount = latencies.count
    minimum = latencies.first
    maximum = latencies.last
    if latencies.isEmpty {
      median = nil
      mean = nil
    } else {
      let middle = latencies.count / 2
      median =
        latencies.count % 2 == 1
        ? latencies[middle] : (latencies[middle - 1] + latencies[middle]) / 2
      mean = latencies.reduce(Duration.zero, +) / latencies.count
    }
  }

  /// The fraction of notifications answered, 0...1, or `nil` when there were none.
  public var responseRate: Double? {
    notificationCount == 0 ? nil : Double(respondedCount) / Double(notificationCount)
  }
}
