/// An opaque marker of one stored version of a key's value.
///
/// Compare tokens for equality only: two reads that return equal tokens saw the same write.
/// A token changes on every write, append, compaction and removal. ``FileStore`` keeps it in the
/// file header as a 64-bit generation number that starts at an unpredictable value when a key is
/// created and grows with every later change — by one for a value, by the bytes appended for an
/// append-only log — so removing and re-creating a key does not bring an old token back.
///
/// JSON form: the generation as a number, for example `42`.
public struct ChangeToken: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The generation number recorded with the value.
  public let generation: UInt64

  /// Creates a token for a generation number.
  ///
  /// - Parameter generation: The generation number.
  public init(generation: UInt64) {
    self.generation = generation
  }

  /// Creates a token from its JSON form, a bare number.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the value is not an unsigned 64-bit number.
  public init(from decoder: any Decoder) throws {
    generation = try decoder.singleValueContainer().decode(UInt64.self)
  }

  /// Encodes the token as a bare number.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(generation)
  }

  /// The generation number in hexadecimal, for logs.
  public var description: String { "gen:" + String(generation, radix: 16) }
}
