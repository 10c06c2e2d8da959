/// The platform's documented limits for DeviceActivity monitoring.
public enum MonitoringLimits {
  /// The shortest monitoring interval the platform accepts: 15 minutes.
  public static let minimumInterval = Duration.seconds(15 * 60)
  /// The longest monitoring interval the platform accepts: one week.
  public static let maximumInterval = Duration.seconds(7 * 86_400)
  /// The most activities one app may monitor at once: 20.
  public static let maximumActivities = 20
}
