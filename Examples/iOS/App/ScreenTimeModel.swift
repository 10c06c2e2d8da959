@preconcurrency import FamilyControls
import Foundation
import ScreenTimeKit
import SwiftUI
import UserNotifications

/// What the app shows, derived by the pipeline from the facts the extension recorded.
///
/// The app wakes the pipeline from three places, because a Darwin notification may be dropped
/// or coalesced and is never delivered to a suspended app: the notification, coming to the
/// foreground, and a poll every 30 seconds while the app is active.
@MainActor
final class ScreenTimeModel: ObservableObject {
  @Published private(set) var dashboard: Dashboard?
  @Published private(set) var problem: String?
  private var folder: SharedFolder?
  private var pipeline: UsagePipeline?
  private var observer: DarwinNotificationObserver?
  private var poll: Timer?

  init() {
    do {
      folder = try SharedFolder(directory: ScreenTimeGroup.folder())
    } catch {
      problem = "The App Group's folder cannot be opened: \(error)"
    }
    observer = DarwinNotificationObserver(name: ScreenTimeGroup.factsNotification) {
      [weak self] in
      Task { @MainActor in self?.wake(.notification) }
    }
  }

  /// Wakes the pipeline on coming to the foreground, and polls while the app is active.
  func scenePhaseChanged(to phase: ScenePhase) {
    poll?.invalidate()
    poll = nil
    guard phase == .active else { return }
    wake(.foreground)
    let interval = DrainCoordinator.recommendedPollInterval.components.seconds
    poll = Timer.scheduledTimer(withTimeInterval: TimeInterval(interval), repeats: true) {
      [weak self] _ in
      Task { @MainActor in self?.wake(.poll) }
    }
  }

  /// Drains what is new, derives today's dashboard, and raises each budget alert once.
  func wake(_ trigger: DrainTrigger) {
    guard let folder else { return }
    do {
      let now = Date()
      // On foreground, open the pipeline afresh: the plan, the day or the month may have changed.
      if pipeline == nil || trigger == .foreground {
        pipeline = try ScreenTimeSettings.pipeline(folder: folder, now: now).0
      }
      guard var pipeline else { return }
      try pipeline.wake(trigger, now: now)
      self.pipeline = pipeline
      let today = try pipeline.configuration.boundary.day(containing: now)
      let dashboard = try pipeline.dashboard(for: today, now: now)
      // Showing the dashboard changes nothing; acknowledging says which alerts are new.
      for alert in try pipeline.acknowledge(dashboard.alerts).budget {
        notify(alert)
      }
      self.dashboard = dashboard
      problem = nil
    } catch {
      problem = "\(error)"  // typed: PipelineError, with the store's error when the folder failed
    }
  }

  /// Asks for the Screen Time and notification authorizations the app needs.
  func authorize() async {
    do {
      try await AuthorizationCenter.shared.requestAuthorization(for: .individual)
      _ = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert])
    } catch {
      problem = "Not authorized: \(error)"
    }
  }

  /// Monitors the apps the person picked, and derives the day again.
  func choose(_ selection: FamilyActivitySelection) {
    guard let folder else { return }
    do {
      try MonitoringScheduler.arm(selection, folder: folder, now: Date())
      pipeline = nil  // the plan changed: open the pipeline with it
      wake(.foreground)
    } catch {
      problem = "Monitoring could not start: \(error)"
    }
  }

  private func notify(_ alert: BudgetAlert) {
    let content = UNMutableNotificationContent()
    content.title = "Screen time"
    content.body = "\(alert.thresholdPercent) % of today's allowance used"
    let request = UNNotificationRequest(
      identifier: "budget-\(alert.first)-\(alert.thresholdPercent)", content: content,
      trigger: nil)
    UNUserNotificationCenter.current().add(request, withCompletionHandler: nil)
  }
}
