/// Counts of what a ``DrainCoordinator`` was asked and decided: the evidence of how well
/// notifications work on a device.
///
/// ``pollsThatFoundWork`` is the number to watch: each such poll found entries that no
/// notification had brought yet — a notification dropped, coalesced, or still on its way.
///
/// JSON form: `{"drains":5,"foregrounds":1,"notifications":9,"notificationsWithNothingNew":3,`
/// `"polls":40,"pollsThatFoundWork":2}`.
public struct DrainStatistics: Hashable, Sendable, Codable {
  /// Decisions prompted by ``DrainTrigger/notification``.
  public internal(set) var notifications: UInt64 = 0
  /// Notifications after which there was nothing new to drain.
  public internal(set) var notificationsWithNothingNew: UInt64 = 0
  /// Decisions prompted by ``DrainTrigger/poll``.
  public internal(set) var polls: UInt64 = 0
  /// Polls that found entries to drain.
  public internal(set) var pollsThatFoundWork: UInt64 = 0
  /// Decisions prompted by ``DrainTrigger/foreground``.
  public internal(set) var foregrounds: UInt64 = 0
  /// Decisions to drain, whatever the trigger.
  public internal(set) var drains: UInt64 = 0

  /// Creates statistics with every count at zero.
  public init() {}

  /// Counts one decision.
  mutating func record(_ trigger: DrainTrigger, drained: Bool) {
    func increment(_ count: inout UInt64) { count = count.addingSaturating(1) }
    switch trigger {
    case .notification:
      increment(&notifications)
      if !drained { increment(&notificationsWithNothingNew) }
    case .poll:
      increment(&polls)
      if drained { increment(&pollsThatFoundWork) }
    case .foreground:
      increment(&foregrounds)
    }
    if drained { increment(&drains) }
  }
}
