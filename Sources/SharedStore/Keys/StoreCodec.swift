import Foundation

/// Turns values into stored bytes and back.
///
/// The default, ``json``, writes JSON with sorted keys, so that equal values always produce equal
/// bytes and an ``SharedStore/update(_:_:)`` that changes nothing writes nothing. Dates use
/// Foundation's default representation (seconds since 2001-01-01 as a floating-point number),
/// which round-trips every `Date` exactly. Supply your own codec for a more compact hot path.
public struct StoreCodec<Value: Sendable>: Sendable {
  private let encodeValue: @Sendable (Value) throws -> Data
  private let decodeValue: @Sendable (Data) throws -> Value

  /// Creates a codec from two closures.
  ///
  /// - Parameters:
  ///   - encode: Turns a value into bytes; thrown errors are reported as
  ///     ``SharedStoreError/encoding(key:type:description:)``.
  ///   - decode: Turns bytes into a value; thrown errors are reported as
  ///     ``SharedStoreError/decoding(key:type:description:)``.
  public init(
    encode: @escaping @Sendable (Value) throws -> Data,
    decode: @escaping @Sendable (Data) throws -> Value
  ) {
    encodeValue = encode
    decodeValue = decode
  }

  /// Encodes `value` for the key named `key`.
  ///
  /// - Parameters:
  ///   - value: The value to encode.
  ///   - key: The key it is stored under, for error context.
  /// - Returns: The bytes to store.
  /// - Throws: ``SharedStoreError/encoding(key:type:description:)``.
  public func encode(_ value: Value, key: String) throws(SharedStoreError) -> Data {
    do {
      return try encodeValue(value)
    } catch {
      throw .encoding(key: key, type: "\(Value.self)", description: "\(error)")
    }
  }

  /// Decodes the bytes stored under the key named `key`.
  ///
  /// - Parameters:
  ///   - data: The stored bytes.
  ///   - key: The key they were stored under, for error context.
  /// - Returns: The decoded value.
  /// - Throws: ``SharedStoreError/decoding(key:type:description:)``.
  public func decode(_ data: Data, key: String) throws(SharedStoreError) -> Value {
    do {
      return try decodeValue(data)
    } catch {
      throw .decoding(key: key, type: "\(Value.self)", description: "\(error)")
    }
  }
}

extension StoreCodec where Value: Codable {
  /// JSON with sorted keys; see ``StoreCodec`` for the representation of dates.
  public static var json: StoreCodec<Value> {
    StoreCodec(
      encode: { value in
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
      },
      decode: { data in try JSONDecoder().decodeStored(Value.self, from: data) }
    )
  }
}
