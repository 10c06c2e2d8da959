/// A typed key: a name in a ``SharedStore``, the value used when nothing is stored, and a codec.
///
/// Declare keys once, as static constants, and use them from the app and its extensions alike:
///
/// ```swift
/// extension StoreKey where Value == Int {
///   static let launchCount = StoreKey("launch-count", default: 0)
/// }
/// let count = try store.value(for: .launchCount)
/// ```
///
/// The name is validated when the key is used (see ``StoreKeyRules``), so declaring a key never
/// throws; using a key with an invalid name throws ``SharedStoreError/invalidKey(key:reason:)``.
public struct StoreKey<Value: Codable & Sendable>: Sendable {
  /// The key's name in the store.
  public let name: String
  /// The value read when nothing is stored under ``name``.
  ///
  /// It is only used for a *missing* value: a stored value that fails to decode throws
  /// ``SharedStoreError/decoding(key:type:description:)`` instead.
  public let defaultValue: Value
  /// How values are turned into bytes and back.
  public let codec: StoreCodec<Value>

  /// Creates a typed key.
  ///
  /// - Parameters:
  ///   - name: The key's name in the store.
  ///   - defaultValue: The value read when nothing is stored.
  ///   - codec: How values are stored; JSON with sorted keys unless you choose otherwise.
  public init(_ name: String, default defaultValue: Value, codec: StoreCodec<Value> = .json) {
    self.name = name
    self.defaultValue = defaultValue
    self.codec = codec
  }
}
