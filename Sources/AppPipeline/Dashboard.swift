import BudgetMath
import Foundation
import GapDetection
import UsageModel

/// Everything a screen-time app shows for one day, derived from the extension's facts in one
/// call: usage, budgets and pace, the alerts to raise now, the reward balance, tracker health,
/// the gap report and the backend's sync payload.
///
/// Made by ``UsagePipeline/dashboard(for:boundary:now:)``.
///
/// JSON form: `{"day": "2026-03-08", "evaluatedAt": "…", "usage": DailyUsage, "budgets":
/// [BudgetOverview, …], "alerts": [BudgetAlert, …], "trackerDownAlerts": [TrackerDownAlert,
/// …], "rewards": RewardBalance, "health": HeartbeatHealth, "gaps": GapReport, "payload":
/// UsageSyncPayload, "facts": FactReport}`.
public struct Dashboard: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The instant the dashboard was derived for.
  public let evaluatedAt: Date
  /// The day's usage: total, per category, per app (each app counted once across
  /// categories), up to `evaluatedAt`.
  public let usage: DailyUsage
  /// Each budget of the month's plan on the day, with its pace; empty without a plan.
  public let budgets: [BudgetOverview]
  /// The budget alerts to raise now: thresholds reached for the first time.
  ///
  /// Each is returned by one dashboard only, and recorded as raised when it is returned.
  public let alerts: [BudgetAlert]
  /// The tracker-down alerts to raise now: windows that lost more than the policy allows, each
  /// returned by one dashboard only.
  public let trackerDownAlerts: [TrackerDownAlert]
  /// The reward ledger's balance.
  public let rewards: RewardBalance
  /// The monitor extension's health at `evaluatedAt`, from its latest heartbeat.
  public let health: HeartbeatHealth
  /// The day's gaps and accounting up to `evaluatedAt`.
  public let gaps: GapReport
  /// The day's usage as the backend's sync payload (seed 003).
  public let payload: UsageSyncPayload
  /// How the facts reached the app.
  public let facts: FactReport
}

/// One budget on one day: its status and, for the period so far, its pace.
///
/// JSON form: `{"report": BudgetReport, "pace": PaceProjection}`; `pace` is omitted for an
/// excluded budget.
public struct BudgetOverview: Sendable, Hashable, Codable {
  /// The budget's status on the day and in its period.
  public let report: BudgetReport
  /// When the period's allowance runs out at the current rate; `nil` for an excluded budget.
  public let pace: PaceProjection?
}
