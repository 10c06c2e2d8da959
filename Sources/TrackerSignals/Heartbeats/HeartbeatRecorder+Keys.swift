import SignalValues

extension HeartbeatRecorder {
  /// The prefix of every heartbeat history's key: `stk.heartbeats.`.
  public static let keyPrefix = "stk.heartbeats."

  /// The store key of `source`'s history: `stk.heartbeats.<source>`.
  ///
  /// - Parameter source: Whose heartbeats.
  /// - Returns: The key.
  public static func key(of source: HeartbeatSource) -> String {
    keyPrefix + source.rawValue
  }
}
