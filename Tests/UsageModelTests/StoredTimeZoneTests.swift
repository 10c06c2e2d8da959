import Foundation
import TestSupport
import Testing
import UsageModel

/// The one rule for a zone as it is stored (``StoredTimeZone``): the same identifier on Apple
/// platforms and on Linux, or a typed error naming the one that has none.
@Suite struct StoredTimeZoneTests {
  /// A day boundary's JSON in `identifier`, keys sorted as `json(_:)` writes them.
  static func boundaryJSON(_ identifier: String) -> String {
    #"{"dayStart":"04:00","timeZone":"\#(identifier)"}"#
  }

  @Test(
    "a canonical identifier decodes and encodes byte-identically",
    arguments: [
      "Europe/Paris", "America/New_York", "America/Argentina/Buenos_Aires",
      "America/Port-au-Prince", "Australia/Lord_Howe", "Asia/Kolkata", "Asia/Calcutta",
      "Pacific/Chatham", "Etc/GMT+5", "Etc/GMT-14", "GMT", "GMT+0100", "GMT-0530", "GMT+1400",
    ])
  func canonicalRoundTrip(identifier: String) throws {
    let text = Self.boundaryJSON(identifier)
    let boundary = try decode(DayBoundary.self, text)
    #expect(try json(boundary) == text)
    #expect(try StoredTimeZone.identifier(of: boundary.timeZone) == identifier)
    #expect(try StoredTimeZone.timeZone(identifier: identifier) == boundary.timeZone)
  }

  @Test(
    "UTC's names and every spelling of a fixed offset decode to one stable form",
    arguments: [
      ("UTC", "GMT", 0), ("Etc/UTC", "GMT", 0), ("Etc/GMT", "GMT", 0), ("Zulu", "GMT", 0),
      ("Universal", "GMT", 0), ("GMT0", "GMT", 0), ("GMT+0", "GMT", 0), ("UTC-00:00", "GMT", 0),
      ("GMT+1", "GMT+0100", 3_600), ("UTC+1", "GMT+0100", 3_600), ("GMT+01:00", "GMT+0100", 3_600),
      ("GMT-5", "GMT-0500", -18_000), ("UTC-05:30", "GMT-0530", -19_800),
      ("GMT+14", "GMT+1400", 50_400), ("GMT+0545", "GMT+0545", 20_700),
    ])
  func stableForms(identifier: String, stored: String, offset: Int) throws {
    let zone = try StoredTimeZone.timeZone(identifier: identifier)
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_783_000_000)) == offset)
    #expect(try StoredTimeZone.identifier(of: zone) == stored)
    let boundary = try decode(DayBoundary.self, Self.boundaryJSON(identifier))
    #expect(try json(boundary) == Self.boundaryJSON(stored))
  }

  @Test(
    "an abbreviation or a legacy name is refused by name on decode and on encode",
    arguments: [
      "PST", "EST", "CET", "MST", "BST", "IST", "EST5EDT", "PST8PDT", "Japan", "US/Pacific",
    ])
  func abbreviationsAreRefused(identifier: String) throws {
    #expect(throws: UsageModelError.unportableTimeZone(identifier: identifier)) {
      try StoredTimeZone.timeZone(identifier: identifier)
    }
    #expect(throws: UsageModelError.unportableTimeZone(identifier: identifier)) {
      try DayBoundary(timeZoneIdentifier: identifier)
    }
    let error = try decodingError(DayBoundary.self, Self.boundaryJSON(identifier))
    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected dataCorrupted, got \(error)")
      return
    }
    #expect(
      context.underlyingError as? UsageModelError == .unportableTimeZone(identifier: identifier))
    #expect(context.debugDescription.contains(identifier.debugDescription))
    // Linux keeps the abbreviation as the zone's identifier, and then it must not be written;
    // Apple's Foundation resolves it to a region, which is written as that region.
    let zone = try #require(
      TimeZone(identifier: identifier) ?? TimeZone(abbreviation: identifier))
    if zone.identifier == identifier {
      #expect(throws: UsageModelError.unportableTimeZone(identifier: identifier)) {
        try StoredTimeZone.identifier(of: zone)
      }
      #expect(throws: EncodingError.self) { try json(DayBoundary(timeZone: zone)) }
    } else {
      #expect(try StoredTimeZone.identifier(of: zone).contains("/"))
    }
  }

  @Test(
    "an identifier no platform knows, or an offset beyond 18 hours, is unknown",
    arguments: ["Mars/Olympus", "Europe/Atlantis", "GMT+19", "UTC+25", "GMT+0160", "", " GMT"])
  func unknownIdentifiers(identifier: String) {
    #expect(throws: UsageModelError.unknownTimeZone(identifier: identifier)) {
      try StoredTimeZone.timeZone(identifier: identifier)
    }
  }

  @Test("a fixed offset of seconds has no stable form and is refused on encode")
  func offsetOfSeconds() throws {
    let zone = try #require(TimeZone(secondsFromGMT: 3_601))
    #expect(zone.secondsFromGMT() == 3_601)
    #expect(throws: UsageModelError.unportableTimeZone(identifier: zone.identifier)) {
      try StoredTimeZone.identifier(of: zone)
    }
    #expect(
      try StoredTimeZone.identifier(of: #require(TimeZone(secondsFromGMT: 19_800))) == "GMT+0530")
    #expect(try StoredTimeZone.identifier(of: #require(TimeZone(secondsFromGMT: 0))) == "GMT")
  }

  @Test("every zone this platform knows is stored as its own identifier, with the same rules")
  func everyKnownZone() throws {
    let instants = stride(from: 1_577_836_800.0, to: 1_924_992_000, by: 86_400 * 91).map {
      Date(timeIntervalSince1970: $0)
    }
    var problems: [String] = []
    for identifier in TimeZone.knownTimeZoneIdentifiers {
      let zone = try #require(TimeZone(identifier: identifier))
      let stored = try StoredTimeZone.identifier(of: zone)
      let expected = ["UTC", "Etc/UTC"].contains(identifier) ? "GMT" : identifier
      if stored != expected { problems.append("\(identifier) stored as \(stored)") }
      let read = try StoredTimeZone.timeZone(identifier: stored)
      for instant in instants
      where read.secondsFromGMT(for: instant) != zone.secondsFromGMT(for: instant) {
        problems.append("\(identifier) read back with another offset at \(instant)")
      }
    }
    #expect(problems == [])
    #expect(TimeZone.knownTimeZoneIdentifiers.count > 300)
  }

  @Test("control: the identifier Foundation gives an abbreviation is what the rule refuses")
  func control() throws {
    // What the encoders wrote before the rule: `zone.identifier`. On Linux that is "EST", the
    // tz database's fixed UTC−5, which `TimeZone(abbreviation:)` reads as New York with
    // daylight saving. The rule's check catches exactly that identifier; a region passes it.
    let naive = { (zone: TimeZone) in zone.identifier }
    let est = try #require(TimeZone(identifier: "EST") ?? TimeZone(abbreviation: "EST"))
    let written = naive(est)
    if written == "EST" {
      #expect(throws: UsageModelError.unportableTimeZone(identifier: "EST")) {
        try StoredTimeZone.timeZone(identifier: written)
      }
    }
    #expect(throws: Never.self) {
      try StoredTimeZone.timeZone(
        identifier: naive(try #require(TimeZone(identifier: "Europe/Paris"))))
    }
  }

  /// The region rule spelled out on `Character`s: an area, then one or more parts of ASCII
  /// letters, digits, `_`, `-` and `+`, none empty or starting with `-`.
  static func referenceIsRegion(_ identifier: String) -> Bool {
    let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count >= 2, StoredTimeZone.areas.contains(String(parts[0])) else { return false }
    return parts.dropFirst().allSatisfy { part in
      guard let first = part.first, first != "-" else { return false }
      return part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-+".contains($0)) }
    }
  }

  @Test("the region form read as bytes agrees with the rule read as characters")
  func regionFormAgreesWithReference() {
    let starts = ["America/", "Etc/", "Asia/", "Europe", "Americas/", "america/", "/", ""]
    let pieces = [
      "Port", "au", "GMT", "x", "5", "0", "/", "/", "-", "+", "_", ".", "é", "ß", "٣", "Ⅻ", " ",
      "\u{301}", "",
    ]
    var random = SplitMix64(seed: 0x2E61_0B5E)
    var regions = 0
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...6, using: &random)
      let identifier =
        starts.randomElement(using: &random)!
        + (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
      let expected = Self.referenceIsRegion(identifier)
      if expected { regions += 1 }
      #expect(StoredTimeZone.isRegion(identifier) == expected, "\(identifier)")
    }
    for identifier in TimeZone.knownTimeZoneIdentifiers {
      #expect(StoredTimeZone.isRegion(identifier) == Self.referenceIsRegion(identifier))
    }
    // Control: the strings drawn hold both forms, so the comparison can fail either way.
    #expect(regions > 500 && regions < 19_500)
  }
}
