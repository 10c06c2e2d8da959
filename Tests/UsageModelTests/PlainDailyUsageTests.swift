import Foundation
import TestSupport
import Testing
import UsageModel

/// The quick reader of a day's usage takes what the package writes, gives the decoder's value
/// for it, and never accepts what the decoder would refuse or read differently.
@Suite("Plain daily usage")
struct PlainDailyUsageTests {
  static func encoded(_ usage: DailyUsage) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(usage)
  }

  static func milliseconds(upTo bound: Int64, _ random: inout SplitMix64) -> Duration {
    .milliseconds(Int64.random(in: 0...max(0, bound), using: &random))
  }

  /// A valid day's usage: up to 4 categories and 7 apps, each within what contains it.
  static func usage(_ random: inout SplitMix64) throws -> DailyUsage {
    let day = try LocalDay(year: 2026, month: 3, day: 1).advanced(
      by: Int.random(in: 0..<400, using: &random))
    let start = Date(
      timeIntervalSince1970: Double(
        1_772_323_200 + 86_400 * Int.random(in: 0..<400, using: &random)))
    let length = Int64.random(in: 82_800_000...90_000_000, using: &random)
    let total = milliseconds(upTo: length, &random)
    let totalMs =
      Int64(total.components.seconds * 1_000)
      + Int64(total.components.attoseconds / 1_000_000_000_000_000)
    let apps = try (0..<Int.random(in: 0...7, using: &random)).map { index in
      AppUsage(
        app: try AppID("com.example.app\(index)"), total: milliseconds(upTo: totalMs, &random))
    }
    let categories = AppCategory.wellKnown.shuffled(using: &random)
      .prefix(Int.random(in: 0...4, using: &random))
      .map { category in
        let categoryTotal = milliseconds(upTo: totalMs, &random)
        let bound = Int64(categoryTotal.components.seconds * 1_000)
        return CategoryUsage(
          category: category, total: categoryTotal,
          apps: apps.prefix(Int.random(in: 0...apps.count, using: &random)).map {
            AppUsage(app: $0.app, total: milliseconds(upTo: bound, &random))
          })
      }
    return try DailyUsage(
      day: day,
      interval: DateInterval(start: start, duration: Double(length) / 1_000),
      total: total, categories: categories, apps: apps)
  }

  @Test("every day's usage the package writes is read quickly, as the decoder reads it")
  func writtenUsageIsReadAsTheDecoderReadsIt() throws {
    var random = SplitMix64(seed: 0xDA11)
    for _ in 0..<2_000 {
      let bytes = try Self.encoded(Self.usage(&random))
      let quick = try #require(
        DailyUsage(plainJSON: bytes), "\(String(decoding: bytes, as: UTF8.self))")
      #expect(try quick == JSONDecoder().decode(DailyUsage.self, from: bytes))
    }
  }

  @Test("damaged usage is refused by the quick reader or read as the decoder reads it")
  func damagedUsageNeverDisagreesWithTheDecoder() throws {
    var random = SplitMix64(seed: 0xDA3A6F)
    var quicklyRead = 0
    for _ in 0..<10_000 {
      let bytes = JSONByteDamage.damaged(
        Array(try Self.encoded(Self.usage(&random))), using: &random)
      let data = Data(bytes)
      guard let quick = DailyUsage(plainJSON: data) else { continue }
      quicklyRead += 1
      let decoded = try? JSONDecoder().decode(DailyUsage.self, from: data)
      #expect(decoded == quick, "\(String(decoding: data, as: UTF8.self))")
    }
    // The control: damage the reader still takes (a changed digit, say) was met.
    #expect(quicklyRead > 300)
  }

  static let plain =
    #"{"apps":[{"app":"com.a","totalMs":60000}],"categories":[{"apps":[{"app":"com.a","totalMs":60000}],"category":"other","totalMs":60000}],"day":"2026-03-08","end":"2026-03-09T05:00:00Z","start":"2026-03-08T05:00:00Z","totalMs":60000}"#

  @Test(
    "forms the quick reader leaves to the decoder",
    arguments: [
      // An escape, an unknown member, a fraction, a repeated member, a missing one.
      plain.replacingOccurrences(of: #""category":"other""#, with: #""category":"oth\u0065r""#),
      plain.replacingOccurrences(of: #""day":"#, with: #""note":1,"day":"#),
      plain.replacingOccurrences(of: #""totalMs":60000}"#, with: #""totalMs":60000.0}"#),
      plain.replacingOccurrences(of: #""day":"#, with: #""totalMs":1,"day":"#),
      plain.replacingOccurrences(of: #","totalMs":60000}"#, with: "}"),
      // Values the decoder refuses: an app over the day's total, a day that ends first.
      plain.replacingOccurrences(
        of: #"[{"app":"com.a","totalMs":60000}],"categories""#,
        with: #"[{"app":"com.a","totalMs":60001}],"categories""#),
      plain.replacingOccurrences(of: "2026-03-09T05", with: "2026-03-07T05"),
    ])
  func formsLeftToTheDecoder(_ text: String) {
    #expect(text != Self.plain)
    #expect(DailyUsage(plainJSON: Data(text.utf8)) == nil)
  }

  @Test("the plain form itself is read, with whitespace between tokens")
  func plainFormIsRead() throws {
    let spaced = Self.plain.replacingOccurrences(of: ",", with: " , ")
    for text in [Self.plain, spaced] {
      let quick = try #require(DailyUsage(plainJSON: Data(text.utf8)))
      #expect(try quick == JSONDecoder().decode(DailyUsage.self, from: Data(text.utf8)))
      #expect(quick.total == .seconds(60))
    }
  }
}
