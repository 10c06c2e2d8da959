import Foundation

/// A stretch of time during which one app was in use.
///
/// A record holds an app, an optional category (when absent, ``CategoryRules`` decide), the
/// instants it starts and ends, and its ``UsageSource``. Construction validates: an instant that
/// is not finite or out of range, a negative duration and a reversed interval are each a typed
/// error, never a record. Instants are rounded to the nearest millisecond, so a record equals
/// its own JSON round trip and every sum over records is exact.
///
/// ```swift
/// let record = try UsageRecord(
///   app: AppID("com.instagram.instagram"),
///   start: sessionStart, duration: .seconds(65 * 60), source: .heartbeat)
/// ```
///
/// > Important: A record may end as late as 9999-12-29, so a session closed with a sentinel such
/// > as `Date.distantFuture` (the year 4001) is a valid record — and one that spans about 721,000
/// > local days. Aggregating it unclipped costs work and memory for every one of those days; see
/// > ``UsageAggregator/aggregate(_:over:)``, and end open sessions at the instant they were last
/// > seen instead.
///
/// JSON form: `{"app": "com.instagram.instagram", "category": "social_media", "start":
/// "2026-01-02T10:00:00Z", "end": "2026-01-02T11:05:00Z", "source": "heartbeat"}`; instants are
/// ISO 8601 in UTC with `.SSS` only when the millisecond is not zero; `category` is omitted when
/// absent.
public struct UsageRecord: Sendable, Hashable, Codable {
  /// The app in use.
  public let app: AppID
  /// The category the recorder assigned, or `nil` to let ``CategoryRules`` decide.
  public let category: AppCategory?
  /// Where the record came from.
  public let source: UsageSource
  let startInstant: Int64
  let endInstant: Int64

  /// Creates a record from its two ends.
  ///
  /// - Parameters:
  ///   - app: The app in use.
  ///   - category: Its category, or `nil` to let ``CategoryRules`` decide.
  ///   - start: When use began.
  ///   - end: When use ended, not before `start` (an empty record is allowed and counts nothing).
  ///   - source: Where the record came from.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for a non-finite or
  ///   out-of-range instant, ``UsageModelError/reversedInterval(start:end:)`` when `end` is
  ///   before `start`.
  public init(
    app: AppID, category: AppCategory? = nil, start: Date, end: Date, source: UsageSource
  ) throws(UsageModelError) {
    let startInstant = try Milliseconds.instant(start, field: "start")
    let endInstant = try Milliseconds.instant(end, field: "end")
    guard endInstant >= startInstant else { throw .reversedInterval(start: start, end: end) }
    self.init(
      app: app, category: category, startInstant: startInstant, endInstant: endInstant,
      source: source)
  }

  /// Creates a record from its start and an exact duration.
  ///
  /// - Parameters:
  ///   - app: The app in use.
  ///   - category: Its category, or `nil` to let ``CategoryRules`` decide.
  ///   - start: When use began.
  ///   - duration: How long, zero or more, rounded to the millisecond.
  ///   - source: Where the record came from.
  /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for a negative duration,
  ///   ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` when either end is out of
  ///   range.
  public init(
    app: AppID, category: AppCategory? = nil, start: Date, duration: Duration, source: UsageSource
  ) throws(UsageModelError) {
    guard duration >= .zero, let amount = Milliseconds.amount(duration) else {
      throw .invalidDuration(
        field: "duration", value: "\(duration)", reason: "a duration must be zero or more")
    }
    let startInstant = try Milliseconds.instant(start, field: "start")
    let (endInstant, overflow) = startInstant.addingReportingOverflow(amount)
    guard !overflow, endInstant <= Milliseconds.latest else {
      throw .instantOutOfRange(
        field: "end", secondsSince1970: start.timeIntervalSince1970 + Double(amount) / 1000)
    }
    self.init(
      app: app, category: category, startInstant: startInstant, endInstant: endInstant,
      source: source)
  }

  /// Creates a record from its start and a length in seconds, as Foundation gives it.
  ///
  /// The bridge for `TimeInterval` lengths, such as a DeviceActivityReport segment's
  /// `totalActivityDuration`: the same record as
  /// ``init(app:category:start:duration:source:)-(_,_,_,Duration,_)`` with `duration` rounded to
  /// the millisecond, so both forms agree on every value. Prefer it to converting with
  /// `Duration.seconds(_:)` yourself, which stops the program on a NaN, infinite or huge
  /// `Double`; here each of those is a typed error.
  ///
  /// - Parameters:
  ///   - app: The app in use.
  ///   - category: Its category, or `nil` to let ``CategoryRules`` decide.
  ///   - start: When use began.
  ///   - duration: Seconds, zero or more; rounded to the millisecond.
  ///   - source: Where the record came from.
  /// - Throws: ``UsageModelError/invalidDuration(field:value:reason:)`` for a negative, NaN or
  ///   infinite duration, ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` when
  ///   either end is out of range.
  public init(
    app: AppID, category: AppCategory? = nil, start: Date, duration: TimeInterval,
    source: UsageSource
  ) throws(UsageModelError) {
    guard duration.isFinite, duration >= 0 else {
      throw .invalidDuration(
        field: "duration", value: "\(duration) s",
        reason: "a duration must be a finite number of seconds, zero or more")
    }
    let milliseconds = (duration * 1000).rounded()
    // No record is longer than the supported instants are apart; checking first keeps the
    // conversion to an integer from trapping.
    guard milliseconds <= Double(Milliseconds.latest - Milliseconds.earliest) else {
      throw .instantOutOfRange(
        field: "end", secondsSince1970: start.timeIntervalSince1970 + duration)
    }
    try self.init(
      app: app, category: category, start: start, duration: .milliseconds(Int64(milliseconds)),
      source: source)
  }

  package init(
    app: AppID, category: AppCategory?, startInstant: Int64, endInstant: Int64, source: UsageSource
  ) {
    self.app = app
    self.category = category
    self.source = source
    self.startInstant = startInstant
    self.endInstant = endInstant
  }

  /// When use began.
  public var start: Date { Milliseconds.date(startInstant) }
  /// When use ended.
  public var end: Date { Milliseconds.date(endInstant) }
  /// The record's interval, its ends rounded to the millisecond; ``duration`` is its exact
  /// length.
  public var interval: DateInterval { DateInterval(start: start, end: end) }
  /// The exact length of the record, a whole number of milliseconds.
  public var duration: Duration { Milliseconds.duration(endInstant - startInstant) }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case app
    case category
    case start
    case end
    case source
  }

  /// Decodes the documented JSON form, validating it as the initialisers do.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field that is missing or invalid.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let app = try container.decode(AppID.self, forKey: .app)
    let category = try container.decodeIfPresent(AppCategory.self, forKey: .category)
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    let source = try container.decode(UsageSource.self, forKey: .source)
    guard end >= start else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container,
        debugDescription: UsageModelError.reversedInterval(
          start: Milliseconds.date(start), end: Milliseconds.date(end)
        ).description)
    }
    self.init(app: app, category: category, startInstant: start, endInstant: end, source: source)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(app, forKey: .app)
    try container.encodeIfPresent(category, forKey: .category)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encode(source, forKey: .source)
  }
}
