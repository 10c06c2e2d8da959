import BudgetMath
import Foundation
import GapDetection
import UsageModel

/// Everything a screen-time app shows for one day, derived from the extension's facts in one
/// call: usage, budgets and pace, the alerts not yet acknowledged, the reward balance, tracker
/// health, the gap report and the backend's sync payload.
///
/// Made by ``UsagePipeline/dashboard(for:now:)``, which only reads (except to heal a damaged
/// file of the app's state).
///
/// JSON form: `{"day": "2026-03-08", "evaluatedAt": "…", "usage": DailyUsage, "confirmedUsage":
/// DailyUsage, "unconfirmed": [ThresholdGrading, …], "budgets":
/// [BudgetOverview, …], "alerts": PendingAlerts, "rewards": RewardBalance, "health":
/// HeartbeatHealth, "gaps": GapReport, "payload": UsageSyncPayload, "facts": FactReport}`.
public struct Dashboard: Sendable, Hashable, Codable {
  /// The local day.
  public let day: LocalDay
  /// The instant the dashboard was derived for.
  public let evaluatedAt: Date
  /// The day's usage, up to `evaluatedAt`: total, per category, per app (each app counted once
  /// across categories) — the upper bound of the evidence, everything plausibly claimed.
  public let usage: DailyUsage
  /// The day's usage that the evidence confirms: the lower bound (`UsageBound.lower`).
  ///
  /// It equals ``usage`` unless some thresholds arrived in a burst (``unconfirmed`` says
  /// which): show both where they differ. Rewards are earned from it by default.
  public let confirmedUsage: DailyUsage
  /// The apps and intervals of the day whose claimed use the evidence does not confirm in full,
  /// with the confirmed and claimed amounts and why.
  public let unconfirmed: [ThresholdGrading]
  /// Each budget of the month's plan on the day, with its pace, from the bound of
  /// ``PipelineConfiguration/restrictionBound`` (the upper by default); empty without a plan.
  public let budgets: [BudgetOverview]
  /// The alerts the day has reached and nobody acknowledged yet: raise them, then acknowledge
  /// them with ``UsagePipeline/acknowledge(_:)``, and no later dashboard shows them again.
  public let alerts: PendingAlerts
  /// The reward ledger's balance.
  public let rewards: RewardBalance
  /// The monitor extension's health at `evaluatedAt`, from its latest heartbeat.
  public let health: HeartbeatHealth
  /// The day's gaps and accounting up to `evaluatedAt`.
  public let gaps: GapReport
  /// The day's usage as the backend's sync payload.
  public let payload: UsageSyncPayload
  /// How the day's facts reached the app, and what became of them.
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

/// The alerts a dashboard found that nobody has acknowledged yet.
///
/// JSON form: `{"budget": [BudgetAlert, …], "trackerDown": [TrackerDownAlert, …]}`.
public struct PendingAlerts: Sendable, Hashable, Codable {
  /// Budget thresholds the day or its period reached, lowest threshold first for each budget.
  public let budget: [BudgetAlert]
  /// Windows of the day whose tracker-down time reached the health policy's threshold.
  public let trackerDown: [TrackerDownAlert]

  /// Creates a set of alerts.
  ///
  /// - Parameters:
  ///   - budget: Budget alerts.
  ///   - trackerDown: Tracker-down alerts.
  public init(budget: [BudgetAlert], trackerDown: [TrackerDownAlert]) {
    self.budget = budget
    self.trackerDown = trackerDown
  }

  /// Whether there is no alert.
  public var isEmpty: Bool { budget.isEmpty && trackerDown.isEmpty }
}
