/// The identity of one run of a producer's numbering, drawn at random when its store key is
/// created.
///
/// A ``/SequenceTracking/SequenceCounter`` or ``/SequenceTracking/SequencedOutbox`` draws a fresh
/// epoch whenever it finds its key absent: on first use, after the app was reinstalled, after the
/// app-group container was wiped, or after someone removed the key. Numbering then starts again at
/// 1. Comparing epochs is how a consumer tells "the producer restarted from 1" (a different epoch)
/// from "I received an old number" (the same epoch, a lower value).
///
/// Epochs are compared for equality only; they have no order. Two independently drawn epochs
/// are equal with probability 2⁻⁶⁴.
///
/// JSON form: the 64-bit value as a string of exactly 16 lowercase hexadecimal digits, for example
/// `"00000000000000ff"`. A string keeps the value exact for JSON readers that hold numbers as
/// doubles.
public struct SequenceEpoch: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The epoch's 64-bit value.
  public let rawValue: UInt64

  /// Creates an epoch with a given value, for tests and for decoding your own formats.
  ///
  /// - Parameter rawValue: The epoch's value.
  public init(rawValue: UInt64) {
    self.rawValue = rawValue
  }

  /// Draws a fresh epoch from `generator`.
  ///
  /// ```swift
  /// var generator = SystemRandomNumberGenerator()
  /// let epoch = SequenceEpoch.random(using: &generator)
  /// ```
  ///
  /// - Parameter generator: The source of randomness.
  /// - Returns: A new epoch.
  public static func random(using generator: inout some RandomNumberGenerator) -> SequenceEpoch {
    SequenceEpoch(rawValue: generator.next())
  }

  /// Creates an epoch from its JSON form, 16 lowercase hexadecimal digits.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` when the string is not 16 lowercase hexadecimal
  ///   digits.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let value = Self.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription:
          "an epoch is 16 lowercase hexadecimal digits, not \(text.debugDescription)")
    }
    rawValue = value
  }

  /// Encodes the epoch as 16 lowercase hexadecimal digits.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// The epoch as 16 lowercase hexadecimal digits, its JSON form.
  public var description: String {
    let digits = String(rawValue, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  private static func parse(_ text: String) -> UInt64? {
    let utf8 = text.utf8
    guard utf8.count == 16,
      utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    else { return nil }
    return UInt64(text, radix: 16)
  }
}
