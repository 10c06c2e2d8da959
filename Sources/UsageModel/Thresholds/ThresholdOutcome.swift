/// What recording one threshold event did.
public enum ThresholdOutcome: Sendable, Hashable {
  /// The event raised the app's highest threshold in its interval by `added`, to `total`.
  case counted(added: Duration, total: Duration)
  /// The app had already reached exactly this threshold in this interval: a duplicate delivery.
  /// Nothing was added.
  case duplicate(total: Duration)
  /// The app had already reached a higher threshold in this interval: a late or out-of-order
  /// delivery. Nothing was added.
  case superseded(total: Duration)
  /// The threshold exceeds what could have been used since the interval began; the event was
  /// recorded as implausible and not counted.
  case implausible(ImplausibleThresholdEvent)

  /// The usage this event added: zero unless ``counted(added:total:)``.
  public var added: Duration {
    if case .counted(let added, _) = self { return added }
    return .zero
  }
}
