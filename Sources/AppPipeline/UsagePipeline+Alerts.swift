import BudgetMath
import Foundation
import GapDetection

extension UsagePipeline {
  /// Records `alerts` as acknowledged, so that no later dashboard shows them again.
  ///
  /// Call it with a dashboard's ``Dashboard/alerts`` once the app has raised them (posted the
  /// notification, shown the banner). Acknowledging is idempotent and safe across processes:
  /// an alert already acknowledged — by an earlier call, or by another process in between — is
  /// not acknowledged twice, and the result lists only the alerts this call recorded, so the app
  /// can raise exactly those if it raises after acknowledging instead.
  ///
  /// ```swift
  /// let dashboard = try pipeline.dashboard(for: today, now: now)
  /// let fresh = try pipeline.acknowledge(dashboard.alerts)
  /// for alert in fresh.budget { notify(alert) }
  /// ```
  ///
  /// - Parameter alerts: The alerts to acknowledge, usually a dashboard's.
  /// - Returns: The alerts this call acknowledged: those not acknowledged before.
  /// - Throws: ``PipelineError/sequence(_:)`` when the state cannot be read or written; nothing
  ///   is acknowledged then. A damaged state is thrown here, not rebuilt: the next
  ///   ``wake(_:now:)`` or ``dashboard(for:now:)`` rebuilds it (``PipelineRecovery``), and the
  ///   alerts it shows again can be acknowledged then.
  @discardableResult
  public func acknowledge(_ alerts: PendingAlerts) throws(PipelineError) -> PendingAlerts {
    guard !alerts.isEmpty else { return alerts }
    return try updateState { state throws(PipelineError) in
      let budget = alerts.budget.filter { state.alerts.record($0) }
      let trackerDown = alerts.trackerDown.filter { state.acknowledgeTrackerDown($0) }
      return PendingAlerts(budget: budget, trackerDown: trackerDown)
    }
  }

  /// The alerts of a dashboard that nobody acknowledged yet: the budget thresholds `budgets`
  /// reach and the tracker-down windows of `gaps`.
  func pendingAlerts(
    _ budgets: [BudgetOverview], gaps: GapReport, state: PipelineState
  ) throws(PipelineError) -> PendingAlerts {
    var evaluation: BudgetAlertState
    do throws(BudgetMathError) {
      evaluation = try state.alerts.alerting(at: configuration.alertThresholds)
    } catch {
      throw .budget(error)
    }
    let budget = budgets.flatMap { evaluation.evaluate($0.report, period: .month, scope: .day) }
    let trackerDown = TrackerDownAlert.evaluate(gaps, policy: configuration.health).filter {
      !state.hasAcknowledgedTrackerDown($0)
    }
    return PendingAlerts(budget: budget, trackerDown: trackerDown)
  }
}
