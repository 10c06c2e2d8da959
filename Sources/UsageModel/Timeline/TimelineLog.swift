import Foundation

/// A log of real, observed timeline events: fired notifications and the person's actions.
///
/// Only what happened is recorded — never a scheduled time passed off as a delivery. Recording
/// is idempotent: a notification re-delivered with the same instant, kind and label is stored
/// once. The log is a value; persist it where you like (for example a ``/SharedStore`` key).
///
/// ```swift
/// var log = TimelineLog()
/// log.record(try TimelineEvent(.notificationFired, at: deliveredAt))
/// let today = try log.events(onDayContaining: now, boundary: boundary)
/// try log.applyRetention(.today, now: now, boundary: boundary)
/// let stats = ResponseLatencyStatistics(log.responses(within: .seconds(1800)))
/// ```
///
/// JSON form: `{"events": [TimelineEvent, …]}`, in time order.
public struct TimelineLog: Sendable, Hashable, Codable {
  /// How many days of events a log keeps.
  public enum Retention: Sendable, Hashable {
    /// Only the current local day.
    case today
    /// The current local day and the `n - 1` days before it; `n` at least 1. A count reaching
    /// back past 0001-01-01, `Int.max` included, keeps everything.
    case days(Int)
  }

  /// Every event, in time order, each once.
  public private(set) var events: [TimelineEvent]

  /// Creates a log of `events`, in any order; duplicates are stored once.
  ///
  /// - Parameter events: Events to start with.
  public init(_ events: [TimelineEvent] = []) {
    self.events = Array(Set(events)).sorted()
  }

  /// Records an event unless the log already holds an identical one.
  ///
  /// - Parameter event: The event.
  /// - Returns: `true` when it was added, `false` for a duplicate.
  /// - Complexity: O(*n*) in the worst case, O(log *n*) for an event later than all others.
  @discardableResult
  public mutating func record(_ event: TimelineEvent) -> Bool {
    let position = insertionPoint(of: event)
    if position < events.count, events[position] == event { return false }
    events.insert(event, at: position)
    return true
  }

  /// The events of one local day, in time order.
  ///
  /// - Parameters:
  ///   - day: A local day.
  ///   - boundary: Where days start.
  /// - Returns: The events in `[start, end)` of the day.
  /// - Complexity: O(log *n* + *k*) for *k* events returned.
  public func events(on day: LocalDay, boundary: DayBoundary) -> [TimelineEvent] {
    events(onDayNumber: day.dayNumber, boundary: boundary)
  }

  /// The events of the local day that contains `date`, in time order: "today" when `date` is
  /// now.
  ///
  /// The same as ``events(on:boundary:)`` for `boundary.day(containing: date)`, without the
  /// conversion: an instant exactly at a day's start belongs to that day.
  ///
  /// ```swift
  /// let today = try log.events(onDayContaining: now, boundary: boundary)
  /// ```
  ///
  /// - Parameters:
  ///   - date: An instant, rounded to the millisecond.
  ///   - boundary: Where days start.
  /// - Returns: The events in `[start, end)` of that day.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` when `date` is not
  ///   finite or lies outside 0001-01-03...9999-12-29, so that it has no local day; the log is
  ///   not consulted.
  /// - Complexity: O(log *n* + *k*) for *k* events returned.
  public func events(onDayContaining date: Date, boundary: DayBoundary) throws(UsageModelError)
    -> [TimelineEvent]
  {
    let instant = try Milliseconds.instant(date, field: "date")
    return events(onDayNumber: boundary.dayNumber(containing: instant), boundary: boundary)
  }

  private func events(onDayNumber dayNumber: Int, boundary: DayBoundary) -> [TimelineEvent] {
    let start = boundary.startInstant(ofDayNumber: dayNumber)
    let end = boundary.startInstant(ofDayNumber: dayNumber + 1)
    return Array(events[firstIndex(atOrAfter: start)..<firstIndex(atOrAfter: end)])
  }

  /// Removes the events of days before those `retention` keeps.
  ///
  /// - Parameters:
  ///   - retention: How many days to keep, counting the day that contains `now`.
  ///   - now: The current instant.
  ///   - boundary: Where days start.
  /// - Returns: How many events were removed.
  /// - Throws: ``UsageModelError/invalidRetention(days:)`` for fewer than one day,
  ///   ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for an unusable `now`.
  @discardableResult
  public mutating func applyRetention(_ retention: Retention, now: Date, boundary: DayBoundary)
    throws(UsageModelError) -> Int
  {
    let days: Int
    switch retention {
    case .today: days = 1
    case .days(let count): days = count
    }
    guard days >= 1 else { throw .invalidRetention(days: days) }
    let today = boundary.dayNumber(containing: try Milliseconds.instant(now, field: "now"))
    // No event lies before the first supported day; comparing before subtracting also keeps
    // `today - (days - 1)` from overflowing.
    guard days - 1 <= today - LocalDay.supportedDayNumbers.lowerBound else { return 0 }
    let cutoff = boundary.startInstant(ofDayNumber: today - (days - 1))
    let removed = firstIndex(atOrAfter: cutoff)
    events.removeFirst(removed)
    return removed
  }

  /// Links each notification to the first action that answers it.
  ///
  /// A notification is answered by the first user action at or after it, within `window`, and
  /// before the next notification: once a newer notification has fired, a later action answers
  /// the newer one. Each action answers at most one notification.
  ///
  /// - Parameter window: The longest latency that still counts as a response, zero or more; a
  ///   negative window counts only an action at the very instant of its notification.
  /// - Returns: One entry per notification, in time order.
  /// - Complexity: O(*n*).
  public func responses(within window: Duration) -> [NotificationResponse] {
    // A window beyond Int64 milliseconds either way is unlimited, or answers nothing.
    let windowAmount = max(0, Milliseconds.amount(window) ?? (window < .zero ? 0 : .max))
    var result: [NotificationResponse] = []
    for (index, event) in events.enumerated() where event.kind == .notificationFired {
      // Events are in time order, so the first action after the notification and before the
      // next notification can only be the very next event.
      var response: TimelineEvent?
      if index + 1 < events.count, events[index + 1].kind == .userAction,
        events[index + 1].instant - event.instant <= windowAmount
      {
        response = events[index + 1]
      }
      result.append(NotificationResponse(notification: event, response: response))
    }
    return result
  }

  private func insertionPoint(of event: TimelineEvent) -> Int {
    var low = 0
    var high = events.count
    while low < high {
      let middle = (low + high) / 2
      if events[middle] < event { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private func firstIndex(atOrAfter instant: Int64) -> Int {
    var low = 0
    var high = events.count
    while low < high {
      let middle = (low + high) / 2
      if events[middle].instant < instant { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private enum CodingKeys: String, CodingKey {
    case events
  }

  /// Decodes `{"events": […]}`, sorting and removing duplicates.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(try container.decode([TimelineEvent].self, forKey: .events))
  }
}
