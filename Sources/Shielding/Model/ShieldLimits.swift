/// The platform's limits on shielding, which the store partition respects.
///
/// ManagedSettings shields at most 50 application tokens (and 50 web domains) per
/// `ManagedSettingsStore`, and a process may use about 50 named stores.
public enum ShieldLimits {
  /// The most tokens of one kind a store shields: 50.
  public static let tokensPerStore = 50
  /// The most stores the library fills: 50.
  public static let maximumStores = 50
  /// The most tokens of one kind all the stores hold: 2,500.
  public static let maximumTokens = tokensPerStore * maximumStores
}
