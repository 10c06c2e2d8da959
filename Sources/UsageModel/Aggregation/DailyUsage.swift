import Foundation

/// The usage of one local day: the device total, and each category's and app's part.
///
/// ``total`` is the time during which *any* app was in use — the union of every record that
/// covers the day — so it never exceeds the day's real ``length`` (23 hours on a spring-forward
/// day), however many records overlap.
///
/// JSON form: `{"day": "2026-03-08", "start": "2026-03-08T05:00:00Z", "end":
/// "2026-03-09T04:00:00Z", "totalMs": 5400000, "categories": [CategoryUsage, …]}`, categories in
/// descending order of time, ties by raw value.
public struct DailyUsage: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The device's time in use during the day: the union of all records, counted once.
  public let total: Duration
  /// Each category's time, most used first.
  public let categories: [CategoryUsage]
  let startInstant: Int64
  let endInstant: Int64

  /// Creates a day's usage, for example as a test fixture or from another source of totals.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - interval: The day's interval (see ``DayBoundary/interval(of:)``); rounded to the
  ///     millisecond.
  ///   - total: The device's time in use, zero or more.
  ///   - categories: Each category's time.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for an unusable
  ///   interval, ``UsageModelError/invalidDuration(field:value:reason:)`` for a negative total
  ///   or one longer than the day.
  public init(
    day: LocalDay, interval: DateInterval, total: Duration, categories: [CategoryUsage]
  ) throws(UsageModelError) {
    let start = try Milliseconds.instant(interval.start, field: "interval.start")
    let end = try Milliseconds.instant(interval.end, field: "interval.end")
    guard total >= .zero, total <= Milliseconds.duration(end - start) else {
      throw .invalidDuration(
        field: "total", value: "\(total)", reason: "a day's total must lie within the day's length")
    }
    self.init(
      day: day, startInstant: start, endInstant: end, total: total, categories: categories)
  }

  init(
    day: LocalDay, startInstant: Int64, endInstant: Int64, total: Duration,
    categories: [CategoryUsage]
  ) {
    self.day = day
    self.startInstant = startInstant
    self.endInstant = endInstant
    self.total = total
    self.categories = categories
  }

  /// When the day started.
  public var start: Date { Milliseconds.date(startInstant) }
  /// When the day ended (the next day's start).
  public var end: Date { Milliseconds.date(endInstant) }
  /// The day's real length.
  public var length: Duration { Milliseconds.duration(endInstant - startInstant) }

  /// The usage of `category` on this day, or `nil` when none of its apps was used.
  ///
  /// - Parameter category: A category.
  /// - Returns: Its usage.
  /// - Complexity: O(*n*) in the number of categories.
  public func usage(of category: Category) -> CategoryUsage? {
    categories.first { $0.category == category }
  }

  private enum CodingKeys: String, CodingKey {
    case day
    case start
    case end
    case totalMs
    case categories
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field, also for a total longer than
  ///   the day.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    day = try container.decode(LocalDay.self, forKey: .day)
    startInstant = try container.decodeInstant(forKey: .start)
    endInstant = try container.decodeInstant(forKey: .end)
    guard endInstant >= startInstant else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "the day ends before it starts")
    }
    total = try container.decodeMilliseconds(forKey: .totalMs)
    guard total <= Milliseconds.duration(endInstant - startInstant) else {
      throw DecodingError.dataCorruptedError(
        forKey: .totalMs, in: container,
        debugDescription: "a day's total (\(total)) must lie within the day's length")
    }
    categories = try container.decode([CategoryUsage].self, forKey: .categories)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError` when a duration is not a whole number of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(day, forKey: .day)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
    try container.encodeMilliseconds(total, forKey: .totalMs)
    try container.encode(categories, forKey: .categories)
  }
}
