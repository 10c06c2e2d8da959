/// Where a usage record came from.
///
/// The aggregation treats every source alike: a stretch of time recorded by two sources counts
/// once. The source is kept so that reports and diagnostics can say how usage was observed.
///
/// JSON form: the raw value, for example `"threshold_event"`.
public enum UsageSource: String, Sendable, Hashable, CaseIterable, Codable {
  /// Derived from a DeviceActivity "threshold reached" event (see ``ThresholdAccountant``).
  case thresholdEvent = "threshold_event"
  /// Derived from a tracker's heartbeats while an app was in use.
  case heartbeat
  /// Imported from a usage report, for example a DeviceActivityReport extension.
  case reportImport = "report_import"
  /// Entered or corrected by a person.
  case manual
}
