/// Where the platform counts an event's usage from when its events are registered inside an
/// occurrence of the activity's schedule.
///
/// A registration made before an occurrence counts from the occurrence's start either way; the
/// two kinds differ only for a re-registration in the middle of one.
///
/// JSON form: the case name, `"fromRegistration"` or `"fromOccurrenceStart"`.
public enum ThresholdCounting: String, Sendable, Hashable, Codable, CaseIterable {
  /// Usage counts from the registration instant: the interval's usage is the sum of each
  /// registration's highest threshold.
  case fromRegistration
  /// Usage counts from the occurrence's start: the interval's usage is the highest threshold
  /// of any of its registrations, and with past activity a new registration at once fires
  /// every threshold already reached again (a replay).
  case fromOccurrenceStart
}
