/// The backend's response envelope: `{"success": true, "data": …}`.
///
/// Both fields are required; decoding ignores unknown fields (such as a `message`) and names a
/// missing field in its `DecodingError`.
public struct APIEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
  /// Whether the request succeeded.
  public let success: Bool
  /// The response's data.
  public let data: Payload

  /// Creates an envelope.
  ///
  /// - Parameters:
  ///   - success: Whether the request succeeded.
  ///   - data: The response's data.
  public init(success: Bool, data: Payload) {
    self.success = success
    self.data = data
  }
}

extension APIEnvelope: Equatable where Payload: Equatable {}
extension APIEnvelope: Hashable where Payload: Hashable {}
