import SignalValues

/// An entry of a ``SequencedOutbox`` together with the number it was published under.
///
/// JSON form (when `Payload` is `Codable`):
/// `{"number":{"epoch":"5f1c0a3be29d4471","value":42},"payload":…}`.
public struct SequencedEntry<Payload> {
  /// The number the entry was published under.
  public let number: SequenceNumber
  /// The published value.
  public let payload: Payload

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - number: Its number.
  ///   - payload: Its value.
  public init(number: SequenceNumber, payload: Payload) {
    self.number = number
    self.payload = payload
  }
}

extension SequencedEntry: Sendable where Payload: Sendable {}
extension SequencedEntry: Equatable where Payload: Equatable {}
extension SequencedEntry: Hashable where Payload: Hashable {}
extension SequencedEntry: Encodable where Payload: Encodable {}
extension SequencedEntry: Decodable where Payload: Decodable {}
