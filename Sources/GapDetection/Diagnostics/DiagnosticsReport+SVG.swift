import Foundation
import UsageModel

extension DiagnosticsReport {
  /// The day as an SVG timeline: usage per category, heartbeat ticks, gaps coloured by class,
  /// an hour axis in the day's local time and a legend.
  ///
  /// The picture is self-contained, well-formed XML (1,200 pixels wide) that any browser opens.
  /// Every gap is one `rect` with the id `gap-<n>` and the classes `gap gap-<class>`
  /// (`gap-tracker-down`, `gap-notification-loss`, `gap-idle`) and a tooltip; the heartbeats are
  /// one `path` with the class `heartbeats`. The hour axis follows the wall clock, so a day on
  /// which clocks change shows 23 or 25 hours and marks the change. Time outside the windows of
  /// expected tracking is hatched; time after ``generatedAt`` is greyed.
  public var svg: String {
    TimelineRenderer(report: self).render()
  }
}
