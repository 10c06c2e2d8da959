import DeviceActivity
import Foundation
import SharedStore
import SignalValues
import TrackerSignals

/// The DeviceActivity monitor extension, which writes down each callback as a fact.
///
/// It writes each fact once, then posts the Darwin notification. It derives nothing; the app
/// does.
final class ScreenTimeMonitor: DeviceActivityMonitor {
  /// The recorder on the App Group's folder, opened with the layout the app opens it with.
  ///
  /// Without the folder nothing can be recorded, not even a diagnostic: the app sees the
  /// missing heartbeats as tracker-down time.
  private let recorder = try? MonitorRecorder(
    folder: SharedFolder(directory: ScreenTimeGroup.folder()))

  override func intervalDidStart(for activity: DeviceActivityName) {
    super.intervalDidStart(for: activity)
    act(
      on: recorder?.intervalDidStart(
        for: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  override func intervalDidEnd(for activity: DeviceActivityName) {
    super.intervalDidEnd(for: activity)
    act(
      on: recorder?.intervalDidEnd(
        for: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  override func eventDidReachThreshold(
    _ event: DeviceActivityEvent.Name, activity: DeviceActivityName
  ) {
    super.eventDidReachThreshold(event, activity: activity)
    act(
      on: recorder?.eventDidReachThreshold(
        event.rawValue, activity: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  override func intervalWillStartWarning(for activity: DeviceActivityName) {
    super.intervalWillStartWarning(for: activity)
    act(
      on: recorder?.intervalWillStartWarning(
        for: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  override func intervalWillEndWarning(for activity: DeviceActivityName) {
    super.intervalWillEndWarning(for: activity)
    act(
      on: recorder?.intervalWillEndWarning(
        for: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  override func eventWillReachThresholdWarning(
    _ event: DeviceActivityEvent.Name, activity: DeviceActivityName
  ) {
    super.eventWillReachThresholdWarning(event, activity: activity)
    act(
      on: recorder?.eventWillReachThresholdWarning(
        event.rawValue, activity: activity.rawValue, now: Date(), memoryBytes: residentBytes()))
  }

  /// Does what the recorder says: notify the app once the fact is stored, restart monitoring.
  private func act(on response: MonitorResponse?) {
    guard let response else { return }
    if response.notification != nil {
      CFNotificationCenterPostNotification(
        CFNotificationCenterGetDarwinNotifyCenter(),
        CFNotificationName(ScreenTimeGroup.factsNotification as CFString), nil, nil, true)
    }
    if response.restart.isDue { restartMonitoring() }
  }

  /// Registers every running activity again, as it is, so that a stalled one starts afresh.
  ///
  /// Each activity's schedule and events are read back from the platform. The restart starts a
  /// new interval, which the app's pipeline counts on its own: nothing is counted twice.
  private func restartMonitoring() {
    let center = DeviceActivityCenter()
    for activity in center.activities {
      guard let schedule = center.schedule(for: activity) else { continue }
      let events = center.events(for: activity)
      center.stopMonitoring([activity])
      do {
        try center.startMonitoring(activity, during: schedule, events: events)
      } catch {
        recordFailure(error, restarting: activity)
      }
    }
  }

  /// Keeps a failed restart in the diagnostic log, where the app's reports show it.
  private func recordFailure(_ error: any Error, restarting activity: DeviceActivityName) {
    guard let recorder else { return }
    do {
      let entry = try DiagnosticEntry(
        id: UUID(), at: Date(), eventName: activity.rawValue,
        action: DiagnosticAction("restart_monitoring"), success: false,
        errorDescription: "\(error)", memoryBytes: residentBytes())
      _ = try recorder.diagnostics.append(entry)
    } catch {
      // The folder refused the entry too; the app sees the silence that follows as a gap.
    }
  }
}
