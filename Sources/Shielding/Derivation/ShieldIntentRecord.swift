/// One record of the intent log as read: an intent, or bytes that did not decode.
public enum ShieldIntentRecord<Token: ShieldToken>: Sendable, Hashable {
  /// A decoded intent.
  case intent(ShieldIntent<Token>)
  /// A record that could not be decoded, at its position in the log.
  case undecodable(position: UInt64, reason: String)
}
