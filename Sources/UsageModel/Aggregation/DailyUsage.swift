import Foundation

/// The usage of one local day: the device total, each category's part, and each app's part.
///
/// ``total`` is the time during which *any* app was in use — the union of every record that
/// covers the day — so it never exceeds the day's real ``length`` (23 hours on a spring-forward
/// day), however many records overlap. Each entry of ``apps`` is likewise the union of one
/// app's records, whatever their categories: an app recorded under two categories appears in
/// each of them, but counts once in ``apps``, which is what a per-app total (such as the
/// backend's sync payload) must use.
///
/// JSON form: `{"day": "2026-03-08", "start": "2026-03-08T05:00:00Z", "end":
/// "2026-03-09T04:00:00Z", "totalMs": 5400000, "categories": [CategoryUsage, …], "apps":
/// [AppUsage, …]}`, categories in descending order of time, ties by raw value, and apps in
/// descending order of time, ties by app ID. Decoding requires every field and checks what the
/// initialiser checks.
public struct DailyUsage: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The device's time in use during the day: the union of all records, counted once.
  public let total: Duration
  /// Each category's time, most used first.
  public let categories: [CategoryUsage]
  /// Each app's time over all its categories, counted once; most used first, ties by app ID.
  public let apps: [AppUsage]
  let startInstant: Int64
  let endInstant: Int64

  /// Creates a day's usage, for example as a test fixture or from another source of totals.
  ///
  /// Categories and apps are stored in the documented order, whatever order they come in.
  ///
  /// - Parameters:
  ///   - day: The local day.
  ///   - interval: The day's interval (see ``DayBoundary/interval(of:)``); rounded to the
  ///     millisecond.
  ///   - total: The device's time in use, zero or more.
  ///   - categories: Each category's time, one entry per category.
  ///   - apps: Each app's time over all its categories, one entry per app.
  /// - Throws: ``UsageModelError/instantOutOfRange(field:secondsSince1970:)`` for an unusable
  ///   interval; ``UsageModelError/invalidDuration(field:value:reason:)`` for a negative total,
  ///   one longer than the day, or a category's or app's time that is negative or longer than
  ///   `total`, or an app's time in a category that is negative or longer than the category's;
  ///   ``UsageModelError/duplicateEntry(field:value:)`` for a category or app listed twice, or an
  ///   app listed twice in one category.
  /// - Complexity: O(*n* log *n*) for *n* categories and apps.
  public init(
    day: LocalDay, interval: DateInterval, total: Duration, categories: [CategoryUsage],
    apps: [AppUsage]
  ) throws(UsageModelError) {
    let start = try Milliseconds.instant(interval.start, field: "interval.start")
    let end = try Milliseconds.instant(interval.end, field: "interval.end")
    try Self.checkTotal(total, length: Milliseconds.duration(end - start))
    try Self.check(categories: categories, within: total)
    try Self.check(apps: apps, within: total)
    self.init(
      day: day, startInstant: start, endInstant: end, total: total,
      categories: categories.sorted(by: CategoryUsage.mostUsedFirst),
      apps: apps.sorted(by: AppUsage.mostUsedFirst))
  }

  /// Creates a day's usage from values already validated and in the documented order.
  init(
    day: LocalDay, startInstant: Int64, endInstant: Int64, total: Duration,
    categories: [CategoryUsage], apps: [AppUsage]
  ) {
    self.day = day
    self.startInstant = startInstant
    self.endInstant = endInstant
    self.total = total
    self.categories = categories
    self.apps = apps
  }

  /// When the day started.
  public var start: Date { Milliseconds.date(startInstant) }
  /// When the day ended (the next day's start).
  public var end: Date { Milliseconds.date(endInstant) }
  /// The day's interval, its ends rounded to the millisecond; ``length`` is its exact length.
  public var interval: DateInterval { DateInterval(start: start, end: end) }
  /// The day's real length, exactly: a whole number of milliseconds.
  public var length: Duration { Milliseconds.duration(endInstant - startInstant) }

  /// The usage of `category` on this day, or `nil` when none of its apps was used.
  ///
  /// - Parameter category: A category.
  /// - Returns: Its usage.
  /// - Complexity: O(*n*) in the number of categories.
  public func usage(of category: AppCategory) -> CategoryUsage? {
    categories.first { $0.category == category }
  }

  /// The time of `app` on this day over all its categories, counted once; zero when unused.
  ///
  /// - Parameter app: An app.
  /// - Returns: Its time.
  /// - Complexity: O(*n*) in the number of apps.
  public func total(of app: AppID) -> Duration {
    apps.first { $0.app == app }?.total ?? .zero
  }

  // MARK: - Validation

  static func checkTotal(_ total: Duration, length: Duration) throws(UsageModelError) {
    guard total >= .zero, total <= length else {
      throw .invalidDuration(
        field: "total", value: "\(total)", reason: "a day's total must lie within the day's length")
    }
  }

  static func check(categories: [CategoryUsage], within total: Duration)
    throws(UsageModelError)
  {
    var seen: Set<AppCategory> = []
    for category in categories {
      guard seen.insert(category.category).inserted else {
        throw .duplicateEntry(field: "categories", value: category.category.rawValue)
      }
      guard category.total >= .zero, category.total <= total else {
        throw .invalidDuration(
          field: "categories[\(category.category)].total", value: "\(category.total)",
          reason: "a category's time must lie within the day's total")
      }
      var apps: Set<AppID> = []
      for app in category.apps {
        guard apps.insert(app.app).inserted else {
          throw .duplicateEntry(
            field: "categories[\(category.category)].apps", value: app.app.rawValue)
        }
        guard app.total >= .zero, app.total <= category.total else {
          throw .invalidDuration(
            field: "categories[\(category.category)].apps[\(app.app)].total", value: "\(app.total)",
            reason: "an app's time in a category must lie within the category's time")
        }
      }
    }
  }

  static func check(apps: [AppUsage], within total: Duration) throws(UsageModelError) {
    var seen: Set<AppID> = []
    for app in apps {
      guard seen.insert(app.app).inserted else {
        throw .duplicateEntry(field: "apps", value: app.app.rawValue)
      }
      guard app.total >= .zero, app.total <= total else {
        throw .invalidDuration(
          field: "apps[\(app.app)].total", value: "\(app.total)",
          reason: "an app's time must lie within the day's total")
      }
    }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case day
    case start
    case end
    case totalMs
    case categories
    case apps
  }

  /// Decodes the documented JSON form, validating it as the initialiser does.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing or invalid field, also for a total longer than
  ///   the day, for a category or app listed twice or with more time than the day's total, and
  ///   for an app listed twice in a category or with more time than the category.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let day = try container.decode(LocalDay.self, forKey: .day)
    let start = try container.decodeInstant(forKey: .start)
    let end = try container.decodeInstant(forKey: .end)
    guard end >= start else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "the day ends before it starts")
    }
    let total = try container.decodeMilliseconds(forKey: .totalMs)
    let categories = try container.decode([CategoryUsage].self, forKey: .categories)
    let apps = try container.decode([AppUsage].self, forKey: .apps)
    try Self.reporting(.totalMs, in: container) { () throws(UsageModelError) in
      try Self.checkTotal(total, length: Milliseconds.duration(end - start))
    }
    try Self.reporting(.categories, in: container) { () throws(UsageModelError) in
      try Self.check(categories: categories, within: total)
    }
    try Self.reporting(.apps, in: container) { () throws(UsageModelError) in
      try Self.check(apps: apps, within: total)
    }
    self.init(
      day: day, startInstant: start, endInstant: end, total: total,
      categories: categories.sorted(by: CategoryUsage.mostUsedFirst),
      apps: apps.sorted(by: AppUsage.mostUsedFirst))
  }

  /// Runs `check`, reporting its error as a `DecodingError` on `key`.
  private static func reporting(
    _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>,
    _ check: () throws(UsageModelError) -> Void
  ) throws {
    do {
      try check()
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container, debugDescription: error.description)
    }
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
    try container.encode(apps, forKey: .apps)
  }
}
