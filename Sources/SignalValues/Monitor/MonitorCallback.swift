/// Which `DeviceActivityMonitor` callback a ``MonitorFact`` records.
///
/// The six callbacks of Apple's `DeviceActivityMonitor`, by the names they have there. Two of
/// them concern an event and carry its name (``concernsEvent``); the others concern only the
/// activity.
///
/// JSON form: the case name as a string, for example `"eventDidReachThreshold"`.
public enum MonitorCallback: String, Sendable, Hashable, Codable, CaseIterable {
  /// `intervalDidStart(for:)`: a monitoring interval of the activity began (or monitoring was
  /// started or restarted in the middle of one).
  case intervalDidStart
  /// `intervalDidEnd(for:)`: a monitoring interval of the activity ended.
  case intervalDidEnd
  /// `eventDidReachThreshold(_:activity:)`: an event's usage threshold was reached.
  case eventDidReachThreshold
  /// `intervalWillStartWarning(for:)`: an interval will start after the activity's warning time.
  case intervalWillStartWarning
  /// `intervalWillEndWarning(for:)`: an interval will end after the activity's warning time.
  case intervalWillEndWarning
  /// `eventWillReachThresholdWarning(_:activity:)`: an event will reach its threshold soon.
  case eventWillReachThresholdWarning

  /// Whether the callback concerns an event, whose name the fact then carries.
  public var concernsEvent: Bool {
    self == .eventDidReachThreshold || self == .eventWillReachThresholdWarning
  }
}
