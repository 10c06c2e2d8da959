/// Seconds of use per local day and app, as a reading of a simulation states them.
package struct AppDayTotals: Hashable, Sendable {
  /// Seconds by day (`yyyy-MM-dd`), then by app.
  package private(set) var seconds: [String: [String: Int]] = [:]

  /// An empty reading.
  package init() {}

  /// The seconds of an app on a day, 0 when absent.
  ///
  /// - Parameters:
  ///   - day: `yyyy-MM-dd`.
  ///   - app: The app's bundle identifier.
  package subscript(day: String, app: String) -> Int {
    get { seconds[day]?[app] ?? 0 }
    set { seconds[day, default: [:]][app] = newValue }
  }

  /// The days with an entry, in order.
  package var days: [String] { seconds.keys.sorted() }

  /// Every (day, app) pair with an entry, in order.
  package var keys: [(day: String, app: String)] {
    days.flatMap { day in (seconds[day] ?? [:]).keys.sorted().map { (day, $0) } }
  }

  /// All apps' seconds on a day.
  ///
  /// - Parameter day: `yyyy-MM-dd`.
  /// - Returns: The day's total.
  package func total(day: String) -> Int { (seconds[day] ?? [:]).values.reduce(0, +) }

  /// All seconds of all days.
  package var total: Int { days.reduce(0) { $0 + total(day: $1) } }
}
