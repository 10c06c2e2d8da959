extension Decoder {
  /// Decodes a value whose JSON form is a bare string, validated by `make`.
  ///
  /// The JSON form of identifiers, names and local dates across the library: a string that
  /// `make` parses or validates. What `make` throws is reported as `DecodingError.dataCorrupted`
  /// with its description, so a bad value is an error naming what is wrong, never a default.
  ///
  /// - Parameter make: Builds the value from the decoded string.
  /// - Returns: The value.
  /// - Throws: `DecodingError` when the value is not a string or `make` rejects it.
  package func decodeText<Value>(_ make: (String) throws -> Value) throws -> Value {
    let container = try singleValueContainer()
    let text = try container.decode(String.self)
    do {
      return try make(text)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: String(describing: error))
    }
  }
}
