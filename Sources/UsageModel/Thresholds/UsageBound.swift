/// Which bound of the evidence a reading of threshold usage follows.
///
/// Threshold events are the only usage signal a monitor extension gets, and the platform
/// delivers some of them with no use behind them (every threshold at once at the first pickup
/// of the day, after plugging in a charger) and holds real ones back to deliver them together
/// (catch-up storms). The two look the same when they arrive, so every amount is read twice:
/// the *lower* bound counts only what the evidence confirms, the *upper* bound everything
/// plausibly claimed. The truth lies between them.
///
/// Fail safe: restrictions (limits, budgets, alerts, shields) follow the upper bound, so nothing
/// unlocks on doubtful evidence; rewards follow the lower bound, so nobody is paid for a phantom
/// minute.
///
/// JSON form: `"lower"` or `"upper"`.
public enum UsageBound: String, Sendable, Hashable, Codable, CaseIterable {
  /// Confirmed use only: each app's highest threshold that the evidence confirms.
  case lower
  /// Confirmed and unconfirmed use: each app's highest plausible threshold.
  case upper
}

/// Why an amount of threshold usage is not confirmed.
///
/// JSON form: the case's name, such as `"burst"`.
public enum UnconfirmedReason: String, Sendable, Hashable, Codable, CaseIterable {
  /// The threshold was reported within ``ThresholdGrading/burstWindow`` of another threshold of
  /// the same app, after a silence or claiming more use than the time since the app's last
  /// confirmed report.
  ///
  /// One app's thresholds are reached minutes apart, so reports that close together were held
  /// back (a catch-up storm: real use) or fired with no use behind them (phantom thresholds).
  /// The evidence cannot tell which until a later report of the same app, outside any burst,
  /// reaches a higher threshold: the platform reports a threshold only once its count reaches
  /// it, so that report confirms every threshold below it.
  case burst
  /// The highest threshold was reported less than ``ThresholdGrading/burstWindow`` ago: a
  /// burst may still join it, so it is confirmed once the window has passed.
  case recent
}
