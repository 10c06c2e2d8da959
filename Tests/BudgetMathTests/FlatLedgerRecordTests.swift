import BudgetMath
import Foundation
import TestSupport
import Testing

/// The quick reader of ledger records takes the records the package writes, gives the decoder's
/// values for them, and never accepts what the decoder would refuse or read differently.
@Suite("Flat ledger records")
struct FlatLedgerRecordTests {
  static func encoded(_ transaction: LedgerTransaction) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try encoder.encode(transaction)
  }

  static func word(_ random: inout SplitMix64) -> String {
    // What ids and reasons hold; JSONEncoder escapes "/", which the quick reader leaves to it.
    let letters = Array("abcxyz-_:|0123456789 .")
    return String(
      (0..<Int.random(in: 1...24, using: &random)).map { _ in
        letters[Int.random(in: letters.indices, using: &random)]
      })
  }

  static func transaction(_ random: inout SplitMix64) -> LedgerTransaction {
    let xp = Int.random(in: -1_000_000...1_000_000, using: &random)
    let milliseconds = Duration.milliseconds(Int64.random(in: 0...86_400_000, using: &random))
    let kinds: [LedgerTransaction.Kind] = [
      .earn(xp: xp), .redeem(xp: xp),
      .startSpending(session: word(&random), reserve: milliseconds),
      .endSpending(session: word(&random), used: milliseconds),
      .adjust(
        xp: xp, time: .milliseconds(Int64.random(in: -9_000...9_000, using: &random)),
        reason: word(&random)),
      .expire(xp: xp, time: milliseconds),
    ]
    return LedgerTransaction(
      id: word(&random),
      at: Date(
        timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000_000, using: &random))
          / 1000),
      kind: kinds[Int.random(in: kinds.indices, using: &random)])
  }

  @Test("every record the package writes is read quickly, as the decoder reads it")
  func writtenRecordsAreReadAsTheDecoderReadsThem() throws {
    var random = SplitMix64(seed: 0x1ED6E7)
    for _ in 0..<3_000 {
      let bytes = try Self.encoded(Self.transaction(&random))
      let quick = try #require(
        LedgerTransaction(flatJSON: bytes), "\(String(decoding: bytes, as: UTF8.self))")
      #expect(try quick == JSONDecoder().decode(LedgerTransaction.self, from: bytes))
    }
  }

  @Test("damaged records are refused by the quick reader or read as the decoder reads them")
  func damagedRecordsNeverDisagreeWithTheDecoder() throws {
    var random = SplitMix64(seed: 0xDA3A6E)
    var quicklyRead = 0
    for _ in 0..<20_000 {
      let bytes = JSONByteDamage.damaged(
        Array(try Self.encoded(Self.transaction(&random))), using: &random)
      let data = Data(bytes)
      guard let quick = LedgerTransaction(flatJSON: data) else { continue }
      quicklyRead += 1
      let decoded = try? JSONDecoder().decode(LedgerTransaction.self, from: data)
      #expect(decoded == quick, "\(String(decoding: data, as: UTF8.self))")
    }
    // The control: damage the reader still takes (a changed digit, a changed letter) was met.
    #expect(quicklyRead > 300)
  }

  @Test(
    "forms the quick reader leaves to the decoder",
    arguments: [
      #"{"at":"2026-01-02T10:30:00Z","id":"caf\u00e9","type":"earn","xp":5}"#,
      #"{"at":"2026-01-02T10:30:00Z","id":"café","type":"earn","xp":5}"#,
      #"{"at":"2026-01-02T10:30:00Z","id":"a","type":"earn","xp":5.0}"#,
      #"{"at":"2026-01-02T10:30:00Z","id":"a","type":"earn","xp":5,"note":{"x":1}}"#,
      #"{"at":"2026-01-02T10:30:00Z","id":"a","id":"b","type":"earn","xp":5}"#,
      #"{"at":"2026-01-02T10:30:00Z","id":"a","type":"earn","xp":-0}"#,
    ])
  func formsLeftToTheDecoder(_ text: String) {
    #expect(LedgerTransaction(flatJSON: Data(text.utf8)) == nil)
  }

  @Test("the quick form itself: whitespace between tokens, and a negative adjustment")
  func plainFormIsRead() throws {
    let text =
      #" { "at" : "2026-01-02T10:30:00.250Z" , "id":"fix-1","reason":"typo","timeMs":-60000,"type":"adjust","xp":-5 } "#
    let quick = try #require(LedgerTransaction(flatJSON: Data(text.utf8)))
    #expect(try quick == JSONDecoder().decode(LedgerTransaction.self, from: Data(text.utf8)))
    #expect(quick.kind == .adjust(xp: -5, time: .milliseconds(-60_000), reason: "typo"))
  }
}
