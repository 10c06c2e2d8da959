import ScreenTimeKit
import SwiftUI
import WidgetKit

/// What the widget shows at one instant: the time left today, or why it cannot say.
struct TimeRemainingEntry: TimelineEntry {
  let date: Date
  let remaining: Duration?
  let problem: String?
}

/// Derives the time left from the shared folder, with the same facts and rules as the app.
struct TimeRemainingProvider: TimelineProvider {
  func placeholder(in context: Context) -> TimeRemainingEntry {
    TimeRemainingEntry(date: Date(), remaining: ScreenTimeSettings.dailyAllowance, problem: nil)
  }

  func getSnapshot(in context: Context, completion: @escaping (TimeRemainingEntry) -> Void) {
    completion(entry(now: Date()))
  }

  func getTimeline(
    in context: Context, completion: @escaping (Timeline<TimeRemainingEntry>) -> Void
  ) {
    let now = Date()
    completion(Timeline(entries: [entry(now: now)], policy: .after(now + 15 * 60)))
  }

  /// Drains what the extension recorded since anyone last did, and derives today's dashboard.
  ///
  /// The drain is exactly once whichever process runs it. Alerts stay the app's to raise.
  private func entry(now: Date) -> TimeRemainingEntry {
    do {
      let folder = try SharedFolder(directory: ScreenTimeGroup.folder())
      var (pipeline, today) = try ScreenTimeSettings.pipeline(folder: folder, now: now)
      try pipeline.wake(.poll, now: now)
      let dashboard = try pipeline.dashboard(for: today, now: now)
      return TimeRemainingEntry(
        date: now, remaining: dashboard.budgets.first?.report.today.remaining, problem: nil)
    } catch {
      return TimeRemainingEntry(date: now, remaining: nil, problem: "\(error)")
    }
  }
}

/// The "time remaining" widget.
@main
struct TimeRemainingWidget: Widget {
  var body: some WidgetConfiguration {
    StaticConfiguration(kind: "TimeRemaining", provider: TimeRemainingProvider()) { entry in
      if #available(iOS 17.0, *) {
        TimeRemainingView(entry: entry).containerBackground(for: .widget) { Color.clear }
      } else {
        TimeRemainingView(entry: entry)
      }
    }
    .configurationDisplayName("Time remaining")
    .description("The time the picked apps have left today.")
    .supportedFamilies([.systemSmall])
  }
}

/// The widget's face.
struct TimeRemainingView: View {
  let entry: TimeRemainingEntry

  var body: some View {
    VStack(alignment: .leading) {
      Text("Left today").font(.caption)
      if let remaining = entry.remaining {
        Text(remaining.formatted(.units(allowed: [.hours, .minutes], width: .abbreviated)))
          .font(.title)
      } else {
        Text(entry.problem == nil ? "Choose apps in the app" : "Unavailable").font(.body)
      }
    }
  }
}
