extension ThresholdOutcome {
  /// The usage record this outcome adds, clamped to the event's monitoring interval, or `nil`
  /// when it added nothing.
  ///
  /// A ``counted(added:total:)`` outcome means the app was used for `added` more by the time the
  /// event was received; the record ends at ``ThresholdEvent/receivedAt`` and starts `added`
  /// earlier, but never before ``ThresholdEvent/intervalStart``: usage the platform counted from
  /// before the interval (``ThresholdEvent/includesPastActivity``) is not placed on the
  /// timeline, where it may already be counted in the interval before.
  ///
  /// ```swift
  /// let outcome = accountant.record(event)
  /// if let record = outcome.usageRecord(for: event) { records.append(record) }
  /// ```
  ///
  /// This is the bridge for incremental glue that records each outcome as it happens. Events
  /// that arrive late or out of order can make such records overlap; `UsagePipeline` in
  /// ScreenTimeKit lays out an interval's usage from all of its events at once instead.
  ///
  /// - Parameters:
  ///   - event: The event whose outcome this is.
  ///   - category: The category to record, or `nil` to let ``CategoryRules`` decide.
  /// - Returns: The record, with source ``UsageSource/thresholdEvent``; `nil` unless the outcome
  ///   is ``counted(added:total:)``.
  public func usageRecord(for event: ThresholdEvent, category: AppCategory? = nil)
    -> UsageRecord?
  {
    guard case .counted(let added, _) = self, let amount = Milliseconds.amount(added) else {
      return nil
    }
    let end = event.receivedInstant
    let start = max(event.intervalStartInstant, end - min(amount, end - Milliseconds.earliest))
    guard end > start else { return nil }
    return UsageRecord(
      app: event.name.app, category: category, startInstant: start, endInstant: end,
      source: .thresholdEvent)
  }
}
