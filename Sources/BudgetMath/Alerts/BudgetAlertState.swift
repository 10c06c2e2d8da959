import Foundation
import UsageModel

/// Which budget thresholds have already been reported, so that each is reported once.
///
/// An alert is due when the use in a window of days reaches a threshold share of the allowance
/// — `used × 100 ≥ allowance × threshold`, exactly, with some use — for the first time for that
/// category and window. Because the check is made on *totals*, the outcome does not depend on
/// how the usage arrived: one burst that crosses 50 %, 80 % and 100 % reports all three at once,
/// in ascending order; a re-sync with the same totals reports nothing; a correction that lowers
/// the use does not make a threshold report twice. A new window (the next day, the next month)
/// starts with nothing reported.
///
/// Keep the state in a ``/SharedStore``-backed key so that the app and its extensions, and every
/// launch, agree on what was already reported:
///
/// ```swift
/// let key = StoreKey("budget-alerts", default: BudgetAlertState())
/// let alerts = try store.update(key) { state in
///   state.evaluate(category: .socialMedia, window: today...today, used: used, allowance: limit)
/// }
/// for alert in alerts { notify(alert) }
/// ```
///
/// JSON form: `{"thresholds": [50, 80, 100], "reported": [{"category": "social_media",
/// "first": "2026-01-15", "last": "2026-01-15", "thresholds": [50, 80]}, …]}`, windows sorted by
/// category, then first and last day.
public struct BudgetAlertState: Sendable, Hashable, Codable {
  private struct WindowKey: Hashable, Comparable {
    var category: AppCategory
    var first: LocalDay
    var last: LocalDay

    static func < (lhs: WindowKey, rhs: WindowKey) -> Bool {
      (lhs.category.rawValue, lhs.first, lhs.last) < (rhs.category.rawValue, rhs.first, rhs.last)
    }
  }

  /// The thresholds checked, in percent of the allowance, ascending.
  public let thresholds: [Int]
  private var reported: [WindowKey: Set<Int>] = [:]

  /// The default thresholds, in percent and ascending: 50, 80 and 100.
  public static let defaultThresholds = [50, 80, 100]

  /// Creates a state with the ``defaultThresholds`` (50 %, 80 % and 100 %) in which nothing was
  /// reported yet.
  ///
  /// The default thresholds are valid, so this cannot fail; use it as the default value of a
  /// stored key.
  public init() {
    thresholds = Self.defaultThresholds
  }

  /// Creates a state with your own thresholds in which nothing was reported yet.
  ///
  /// - Parameter thresholds: The thresholds in percent, each 1 to 1000 (above 100 alerts on
  ///   overuse); duplicates are merged and the list is sorted.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for an empty list or a
  ///   threshold outside 1...1000.
  public init(thresholds: [Int]) throws(BudgetMathError) {
    guard !thresholds.isEmpty, thresholds.allSatisfy({ (1...1000).contains($0) }) else {
      throw .invalidValue(
        field: "thresholds", value: "\(thresholds)",
        requirement: "at least one threshold, each 1 to 1000 percent")
    }
    self.thresholds = Array(Set(thresholds)).sorted()
  }

  /// Reports the thresholds crossed for the first time in `window`, and remembers them.
  ///
  /// - Parameters:
  ///   - category: The budget's category.
  ///   - window: The days the use and allowance cover: one day for a daily alert, the period
  ///     for a period alert.
  ///   - used: The total use in the window so far.
  ///   - allowance: The allowance of the window.
  /// - Returns: The new alerts, lowest threshold first; empty when nothing new was crossed.
  /// - Complexity: O(*t*) in the number of thresholds.
  public mutating func evaluate(
    category: AppCategory,
    window: ClosedRange<LocalDay>,
    used: Duration,
    allowance: Duration
  ) -> [BudgetAlert] {
    guard used > .zero else { return [] }
    let key = WindowKey(category: category, first: window.lowerBound, last: window.upperBound)
    var alreadyReported = reported[key, default: []]
    var alerts: [BudgetAlert] = []
    for threshold in thresholds where !alreadyReported.contains(threshold) {
      guard BudgetStatus.reaches(used, percent: threshold, of: allowance) else { break }
      alreadyReported.insert(threshold)
      alerts.append(
        BudgetAlert(
          category: category, window: window, thresholdPercent: threshold, used: used,
          allowance: allowance))
    }
    if !alerts.isEmpty { reported[key] = alreadyReported }
    return alerts
  }

  /// Reports new threshold crossings of a budget report, for its day or its whole period.
  ///
  /// An excluded budget never alerts.
  ///
  /// - Parameters:
  ///   - report: A report from ``Budget/report(on:usage:planStart:warningPercent:)``.
  ///   - period: The period containing the report's day (``Budget/period``).
  ///   - scope: ``AlertScope/day`` to compare the day's use with the day's allowance,
  ///     ``AlertScope/period`` to compare the period's use so far with the period's amount.
  /// - Returns: The new alerts, lowest threshold first.
  public mutating func evaluate(
    _ report: BudgetReport,
    period: BudgetPeriod,
    scope: AlertScope
  ) -> [BudgetAlert] {
    guard report.today.level != .excluded else { return [] }
    switch scope {
    case .day:
      return evaluate(
        category: report.category, window: report.day...report.day, used: report.today.used,
        allowance: report.today.allowance)
    case .period:
      return evaluate(
        category: report.category, window: period.days(containing: report.day),
        used: report.period.used, allowance: report.period.allowance)
    }
  }

  /// A copy that alerts at `thresholds`, with everything already reported kept.
  ///
  /// - Parameter thresholds: The thresholds in percent, each 1...1000.
  /// - Returns: The copy.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for no threshold or a
  ///   threshold outside 1...1000.
  public func alerting(at thresholds: [Int]) throws(BudgetMathError) -> BudgetAlertState {
    var copy = try BudgetAlertState(thresholds: thresholds)
    copy.reported = reported
    return copy
  }

  /// Remembers `alert` as reported, as ``evaluate(category:window:used:allowance:)`` does when it
  /// returns it.
  ///
  /// - Parameter alert: An alert this state (or a copy of it) returned.
  /// - Returns: Whether it was not reported before.
  @discardableResult
  public mutating func record(_ alert: BudgetAlert) -> Bool {
    let key = WindowKey(category: alert.category, first: alert.first, last: alert.last)
    return reported[key, default: []].insert(alert.thresholdPercent).inserted
  }

  /// Whether `threshold` was already reported for `category` in `window`.
  ///
  /// - Parameters:
  ///   - threshold: A threshold in percent.
  ///   - category: The budget's category.
  ///   - window: The window's days.
  /// - Returns: Whether it was reported.
  public func hasReported(
    _ threshold: Int,
    category: AppCategory,
    window: ClosedRange<LocalDay>
  ) -> Bool {
    let key = WindowKey(category: category, first: window.lowerBound, last: window.upperBound)
    return reported[key]?.contains(threshold) ?? false
  }

  /// Forgets the windows that ended before `day`, so that the state stays small.
  ///
  /// - Parameter day: Windows whose last day is before this day are forgotten.
  public mutating func forgetWindows(endingBefore day: LocalDay) {
    reported = reported.filter { $0.key.last >= day }
  }

  // MARK: - Codable

  private struct StoredWindow: Codable {
    var category: AppCategory
    var first: LocalDay
    var last: LocalDay
    var thresholds: [Int]
  }

  private enum CodingKeys: String, CodingKey {
    case thresholds, reported
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field, also for a reported window
  ///   that ends before it starts or a reported threshold outside 1...1000 %.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    do {
      try self.init(thresholds: container.decode([Int].self, forKey: .thresholds))
    } catch let error as BudgetMathError {
      throw DecodingError.dataCorruptedError(
        forKey: .thresholds, in: container, debugDescription: error.description)
    }
    for window in try container.decode([StoredWindow].self, forKey: .reported) {
      guard window.first <= window.last,
        window.thresholds.allSatisfy({ (1...1000).contains($0) })
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .reported, in: container,
          debugDescription: "a reported window of \(window.category) ends before it starts or "
            + "lists a threshold outside 1...1000 %")
      }
      let key = WindowKey(category: window.category, first: window.first, last: window.last)
      reported[key, default: []].formUnion(window.thresholds)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(thresholds, forKey: .thresholds)
    try container.encode(
      reported.keys.sorted().map { key in
        StoredWindow(
          category: key.category, first: key.first, last: key.last,
          thresholds: reported[key, default: []].sorted())
      },
      forKey: .reported)
  }
}

/// What a budget alert compares: one day, or the whole period so far.
public enum AlertScope: String, Sendable, Hashable, Codable, CaseIterable {
  /// The day's use against the day's allowance.
  case day
  /// The period's use so far against the period's amount.
  case period
}
