import Foundation

/// A seeded mutation loop over a `Codable` type: hostile JSON in, no trap, no hang.
///
/// Each input is a mutation of a valid encoding (see ``JSONMutator``). Decoding it must either
/// throw a `DecodingError` or succeed; a value that decodes must encode, decode again to an
/// equal value (where the type promises a round trip), encode to the same text the second time,
/// and survive `operations`, the type's main operations. A trap stops the test process, which
/// fails the run; set the environment variable `STK_FUZZ_TRACE` to a file path to have each
/// input written there before it is used, so that the one that trapped can be read afterwards.
///
/// ```swift
/// let tally = try Fuzz.run(LocalDay.self, seeds: [day], inputs: 1_000, seed: 1)
/// ```
package enum Fuzz {
  /// How many inputs a run tried, and how many of them decoded.
  package struct Tally: Sendable, CustomStringConvertible {
    /// Inputs tried.
    package var inputs = 0
    /// Inputs that decoded.
    package var decoded = 0

    /// Creates an empty tally.
    package init() {}

    /// `"1000 inputs, 12 decoded"`.
    package var description: String { "\(inputs) inputs, \(decoded) decoded" }
  }

  /// One fuzzed type (or stored form) of a module's `FuzzTests`: a parameterised test's argument.
  package struct Target: Sendable, CustomStringConvertible {
    /// The type's name, as the test's argument is shown.
    package let description: String
    /// Runs `inputs` inputs from `seed` and returns the tally.
    package let run: @Sendable (_ inputs: Int, _ seed: UInt64) throws -> Tally

    /// A target named `description` that `run` fuzzes.
    package init(
      description: String, run: @escaping @Sendable (_ inputs: Int, _ seed: UInt64) throws -> Tally
    ) {
      self.description = description
      self.run = run
    }
  }

  /// An input that broke a property, with what it broke.
  package struct Failure: Error, CustomStringConvertible {
    /// The type decoded.
    package var type: String
    /// The input, as text (invalid UTF-8 replaced), cut to 2,000 characters.
    package var input: String
    /// The input's bytes in Base64, to replay it exactly.
    package var base64: String
    /// What went wrong.
    package var reason: String

    /// A report naming the input.
    package var description: String {
      "\(type): \(reason)\ninput: \(input)\nbase64: \(base64)"
    }
  }

  /// Whether a decoded value must come back equal from its own encoding.
  package enum RoundTrip: Sendable {
    /// `decode(encode(value)) == value`, and the second encoding equals the first.
    case equal
    /// Only the second encoding equals the first: the type normalises what it decodes.
    case stableEncoding
  }

  /// Runs `inputs` mutations of `seeds` through `Value`'s decoder.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - seeds: Valid values; their encodings are mutated.
  ///   - inputs: How many inputs to try.
  ///   - seed: The generator's seed.
  ///   - roundTrip: What a decoded value promises about its encoding.
  ///   - operations: The type's main operations, run on each decoded value; they may throw
  ///     typed errors, which count as defined results.
  /// - Returns: The tally.
  /// - Throws: ``Failure`` for the first input that breaks a property.
  package static func run<Value: Codable & Equatable>(
    _ type: Value.Type, seeds: [Value], inputs: Int, seed: UInt64,
    roundTrip: RoundTrip = .equal, operations: (Value) -> Void = { _ in }
  ) throws -> Tally {
    try loop(type, seeds: seeds, inputs: inputs, seed: seed) { value, bytes in
      let encoded = try encode(value, type, input: bytes)
      let again = try decode(type, encoded, input: bytes, stage: "its own encoding")
      if roundTrip == .equal, again != value {
        throw failure(type, bytes, "decoding its own encoding gives a different value")
      }
      if try encode(again, type, input: bytes) != encoded {
        throw failure(type, bytes, "the second encoding differs from the first")
      }
      operations(value)
    }
  }

  /// Runs `inputs` mutations of `seeds` through the decoder of a type that is not `Equatable`;
  /// only the encoding's stability is checked.
  ///
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - seeds: Valid values; their encodings are mutated.
  ///   - inputs: How many inputs to try.
  ///   - seed: The generator's seed.
  ///   - operations: The type's main operations, run on each decoded value.
  /// - Returns: The tally.
  /// - Throws: ``Failure`` for the first input that breaks a property.
  package static func runStable<Value: Codable>(
    _ type: Value.Type, seeds: [Value], inputs: Int, seed: UInt64,
    operations: (Value) -> Void = { _ in }
  ) throws -> Tally {
    try loop(type, seeds: seeds, inputs: inputs, seed: seed) { value, bytes in
      let encoded = try encode(value, type, input: bytes)
      let again = try decode(type, encoded, input: bytes, stage: "its own encoding")
      if try encode(again, type, input: bytes) != encoded {
        throw failure(type, bytes, "the second encoding differs from the first")
      }
      operations(value)
    }
  }

  /// Runs `inputs` mutations of the encodings of `seeds` through `body`, which must not trap;
  /// for inputs that are not decoded with `JSONDecoder` (a parser of text lines, a stored file).
  ///
  /// - Parameters:
  ///   - seeds: Valid documents.
  ///   - inputs: How many inputs to try.
  ///   - seed: The generator's seed.
  ///   - body: What to do with each input; it returns whether the input was accepted.
  /// - Returns: The tally.
  /// - Throws: What `body` throws, or ``JSONTree/ParseError`` for a seed that is not JSON.
  package static func runBytes(
    seeds: [[UInt8]], inputs: Int, seed: UInt64, _ body: ([UInt8]) throws -> Bool
  ) throws -> Tally {
    var mutator = try JSONMutator(seeds: seeds, seed: seed)
    var tally = Tally()
    for _ in 0..<inputs {
      let bytes = mutator.next()
      trace(bytes)
      tally.inputs += 1
      if try body(bytes) { tally.decoded += 1 }
    }
    return tally
  }

  private static func loop<Value: Codable>(
    _ type: Value.Type, seeds: [Value], inputs: Int, seed: UInt64,
    _ check: (Value, [UInt8]) throws -> Void
  ) throws -> Tally {
    let encoder = sortedEncoder()
    let documents = try seeds.map { Array(try encoder.encode($0)) }
    return try runBytes(seeds: documents, inputs: inputs, seed: seed) { bytes in
      let value: Value
      do {
        value = try JSONDecoder().decode(type, from: Data(bytes))
      } catch is DecodingError {
        return false
      } catch {
        throw failure(type, bytes, "decoding threw \(error), not a DecodingError")
      }
      try check(value, bytes)
      return true
    }
  }

  /// Decodes `bytes` as `type` as the replay of a recorded input does: `nil` for a
  /// `DecodingError`, and the properties of ``run(_:seeds:inputs:seed:roundTrip:operations:)``
  /// checked for a value that decodes.
  ///
  /// - Parameters:
  ///   - type: The type.
  ///   - text: The recorded input.
  /// - Returns: The decoded value, or `nil` when decoding rejected it.
  /// - Throws: ``Failure`` when a property does not hold.
  package static func replay<Value: Codable & Equatable>(_ type: Value.Type, _ text: String)
    throws -> Value?
  {
    let bytes = Array(text.utf8)
    let value: Value
    do {
      value = try JSONDecoder().decode(type, from: Data(bytes))
    } catch is DecodingError {
      return nil
    }
    let encoded = try encode(value, type, input: bytes)
    let again = try decode(type, encoded, input: bytes, stage: "its own encoding")
    guard try encode(again, type, input: bytes) == encoded else {
      throw failure(type, bytes, "the second encoding differs from the first")
    }
    return value
  }

  private static func sortedEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  private static func encode<Value: Encodable>(_ value: Value, _ type: Value.Type, input: [UInt8])
    throws -> [UInt8]
  {
    do {
      return Array(try sortedEncoder().encode(value))
    } catch {
      throw failure(type, input, "a decoded value does not encode: \(error)")
    }
  }

  private static func decode<Value: Decodable>(
    _ type: Value.Type, _ bytes: [UInt8], input: [UInt8], stage: String
  ) throws -> Value {
    do {
      return try JSONDecoder().decode(type, from: Data(bytes))
    } catch {
      throw failure(
        type, input,
        "\(stage) does not decode: \(error)\nencoding: \(String(decoding: bytes, as: UTF8.self))")
    }
  }

  private static func failure<Value>(_ type: Value.Type, _ input: [UInt8], _ reason: String)
    -> Failure
  {
    Failure(
      type: "\(type)", input: String(String(decoding: input, as: UTF8.self).prefix(2_000)),
      base64: Data(input).base64EncodedString(), reason: reason)
  }

  private static let tracePath = ProcessInfo.processInfo.environment["STK_FUZZ_TRACE"]

  private static func trace(_ bytes: [UInt8]) {
    guard let tracePath else { return }
    _ = FileManager.default.createFile(atPath: tracePath, contents: Data(bytes))
  }
}
