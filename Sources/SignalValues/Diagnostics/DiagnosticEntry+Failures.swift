import UsageModel

extension DiagnosticEntry {
  /// The failed entries among `entries` that fall on `day`: the day's errors, for a diagnostics
  /// report.
  ///
  /// Pure, so that the app can count a day's failures in entries it already read; TrackerSignals'
  /// ``/TrackerSignals/DiagnosticLog`` reads its entries and asks this.
  ///
  /// - Parameters:
  ///   - entries: Diagnostic entries.
  ///   - day: The local day.
  ///   - boundary: Where local days begin.
  /// - Returns: The failures of that day, in the order given.
  /// - Complexity: O(*n*) in the number of entries.
  public static func failures(
    in entries: [DiagnosticEntry], on day: LocalDay, boundary: DayBoundary
  ) -> [DiagnosticEntry] {
    let (start, end) = Milliseconds.bounds(of: boundary.interval(of: day))
    return entries.filter { !$0.success && $0.instant >= start && $0.instant < end }
  }
}
