import Foundation
import SignalValues
import TestSupport
import Testing

/// A fact writes its own JSON on every callback: the bytes must be the encoder's, whatever the
/// names hold, so that what is stored does not depend on which of the two wrote it.
@Suite("Canonical JSON")
struct CanonicalJSONTests {
  /// The reference: what the outbox wrote before facts wrote their own JSON.
  static func encoderBytes(of fact: MonitorFact, escapingSlashes: Bool = false) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(fact))
  }

  static func canonicalBytes(of fact: MonitorFact) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try fact.appendCanonicalJSON(to: &bytes)
    return bytes
  }

  /// A name of 1 to 40 characters drawn from the ones JSON escapes, ASCII, and beyond.
  static func name(_ random: inout SplitMix64) -> String {
    let pool: [Unicode.Scalar] =
      (0x00...0x21).compactMap(Unicode.Scalar.init) + [
        "\\", "/", "\"", "a", "Z", ":", "\u{7F}", "é",
        "\u{2028}", "\u{FEFF}", "😀", "中",
      ]
    var text = ""
    for _ in 0..<Int.random(in: 1...40, using: &random) {
      text.unicodeScalars.append(pool[Int.random(in: pool.indices, using: &random)])
    }
    return text
  }

  static let callbacks = MonitorCallback.allCases

  static let zones: [TimeZone?] = [
    nil, TimeZone(identifier: "Europe/Paris"),
    TimeZone(identifier: "America/Argentina/Buenos_Aires"),
    TimeZone(secondsFromGMT: 19_800), TimeZone(secondsFromGMT: 0),
  ]

  @Test("a fact's own JSON is the encoder's bytes, for every callback, name, instant and zone")
  func factJSONIsTheEncoders() throws {
    var random = SplitMix64(seed: 0x5EED_CA11)
    for _ in 0..<2_000 {
      let callback = Self.callbacks[Int.random(in: Self.callbacks.indices, using: &random)]
      let fact = try MonitorFact(
        callback, activity: Self.name(&random),
        event: callback.concernsEvent ? Self.name(&random) : nil,
        at: Date(
          timeIntervalSince1970: Double(
            Int64.random(in: -1_000_000_000_000...4_000_000_000_000, using: &random))
            / 1000),
        timeZone: Self.zones[Int.random(in: Self.zones.indices, using: &random)])
      let canonical = try Self.canonicalBytes(of: fact)
      #expect(try canonical == Self.encoderBytes(of: fact), "\(fact)")
      #expect(try JSONDecoder().decode(MonitorFact.self, from: Data(canonical)) == fact)
    }
  }

  @Test("the comparison sees one byte of difference: the encoder escaping slashes differs")
  func comparisonCanFail() throws {
    let fact = try MonitorFact(
      .eventDidReachThreshold, activity: "daily", event: "stk:5m:a/b",
      at: Date(timeIntervalSince1970: 0))
    #expect(
      try Self.canonicalBytes(of: fact) != Self.encoderBytes(of: fact, escapingSlashes: true))
  }

  @Test("a zone that has no portable name is refused as the encoder refuses it, writing nothing")
  func unportableZoneIsRefused() throws {
    let zone = try #require(TimeZone(identifier: "EST5EDT"))
    let fact = try MonitorFact(
      .intervalDidStart, activity: "daily", at: Date(timeIntervalSince1970: 0), timeZone: zone)
    var bytes: [UInt8] = [1]
    #expect(throws: EncodingError.self) { try fact.appendCanonicalJSON(to: &bytes) }
    #expect(bytes == [1])
    #expect(throws: EncodingError.self) { try Self.encoderBytes(of: fact) }
  }
}
