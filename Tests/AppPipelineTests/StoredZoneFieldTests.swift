import ActivityPlanning
import AppPipeline
import Foundation
import GapDetection
import SignalValues
import TestSupport
import Testing
import UsageModel

/// Every stored or wire value with a `timeZone` field writes and reads it by the one rule of
/// `StoredTimeZone`: a region as itself, UTC and fixed offsets in one stable form, and an
/// abbreviation refused by name, on encode and on decode.
@Suite struct StoredZoneFieldTests {
  /// One type that stores a zone: a value of it encoded in a zone, and a decode-and-re-encode.
  struct Field {
    let name: String
    let encode: (TimeZone) throws -> String
    let reencode: (String) throws -> String
  }

  /// Decodes `text` as `type` and encodes it again.
  static func reencoded<Value: Codable>(_ type: Value.Type) -> (String) throws -> String {
    { text in try json(try decode(type, text)) }
  }

  static func fields() throws -> [Field] {
    let now = Date(timeIntervalSince1970: 1_783_000_000)
    let ladder = try UsageLadder(
      target: .app(try AppID("com.a")), step: .seconds(600), top: .seconds(3600))
    func goals(_ zone: TimeZone) -> MonitoringGoals {
      var goals = MonitoringGoals(timeZone: zone)
      goals.ladders = [ladder]
      return goals
    }
    return [
      Field(
        name: "DayBoundary", encode: { try json(DayBoundary(timeZone: $0)) },
        reencode: reencoded(DayBoundary.self)),
      Field(
        name: "ThresholdAccountant", encode: { try json(ThresholdAccountant(timeZone: $0)) },
        reencode: reencoded(ThresholdAccountant.self)),
      Field(
        name: "MonitorFact",
        encode: { try json(MonitorFact(.intervalDidStart, activity: "a", at: now, timeZone: $0)) },
        reencode: reencoded(MonitorFact.self)),
      Field(
        name: "TrackingExpectation",
        encode: { try json(TrackingExpectation.schedules([], in: $0)) },
        reencode: reencoded(TrackingExpectation.self)),
      Field(
        name: "PipelineConfiguration",
        encode: { try json(PipelineConfiguration(userId: "u", timeZone: $0)) },
        reencode: reencoded(PipelineConfiguration.self)),
      Field(
        name: "MonitoringGoals", encode: { try json(goals($0)) },
        reencode: reencoded(MonitoringGoals.self)),
      Field(
        name: "PlannedMonitoring",
        encode: { try json(MonitoringPlanner.arm(goals($0), now: now, previous: nil).plan) },
        reencode: reencoded(PlannedMonitoring.self)),
    ]
  }

  /// `text` with its `"timeZone":"Europe/Paris"` field naming `identifier` instead.
  static func planting(_ identifier: String, in text: String) -> String {
    text.replacingOccurrences(
      of: #""timeZone":"Europe/Paris""#, with: #""timeZone":"\#(identifier)""#)
  }

  /// What is wrong with how `field` reads `written` and writes it again: not `stored`.
  static func formProblems(_ field: Field, written: String, stored: String) throws -> [String] {
    let text = try field.encode(try TestSupport.zone("Europe/Paris"))
    guard text.contains(#""timeZone":"Europe/Paris""#) else { return ["\(field.name): \(text)"] }
    let again = try field.reencode(planting(written, in: text))
    return again == planting(stored, in: text) ? [] : ["\(field.name) wrote \(again)"]
  }

  /// What is wrong with how `field` treats the abbreviation `identifier`: decoded, not named,
  /// or written.
  static func abbreviationProblems(_ field: Field, identifier: String) throws -> [String] {
    let paris = try TestSupport.zone("Europe/Paris")
    var problems: [String] = []
    do {
      _ = try field.reencode(planting(identifier, in: try field.encode(paris)))
      problems.append("\(field.name) decoded \(identifier)")
    } catch let error as DecodingError {
      if !String(describing: error).contains(identifier.debugDescription) {
        problems.append("\(field.name)'s error does not name \(identifier): \(error)")
      }
    }
    // Linux keeps the abbreviation as the identifier: such a zone must not be written.
    // (Apple's Foundation resolves it to a region, which is written as that region.)
    if let zone = TimeZone(identifier: identifier), zone.identifier == identifier,
      (try? field.encode(zone)) != nil
    {
      problems.append("\(field.name) wrote \(identifier)")
    }
    return problems
  }

  @Test(
    "every zone field keeps a region, and writes UTC and fixed offsets in the stable form",
    arguments: [
      ("Europe/Paris", "Europe/Paris"), ("Asia/Kolkata", "Asia/Kolkata"), ("UTC", "GMT"),
      ("Etc/UTC", "GMT"), ("GMT+1", "GMT+0100"), ("UTC-05:30", "GMT-0530"),
    ])
  func canonicalForms(written: String, stored: String) throws {
    let problems = try Self.fields().flatMap {
      try Self.formProblems($0, written: written, stored: stored)
    }
    #expect(problems == [])
  }

  @Test(
    "every zone field refuses an abbreviation by name, on decode and on encode",
    arguments: ["PST", "EST", "CET", "Japan"])
  func abbreviations(identifier: String) throws {
    let problems = try Self.fields().flatMap {
      try Self.abbreviationProblems($0, identifier: identifier)
    }
    #expect(problems == [])
  }

  /// The form every encoder had before the rule: the zone's identifier, as Foundation gives it.
  struct NaiveBoundary: Codable {
    let timeZone: TimeZone
    init(timeZone: TimeZone) { self.timeZone = timeZone }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let identifier = try container.decode(String.self, forKey: .timeZone)
      guard let zone = TimeZone(identifier: identifier) else {
        throw DecodingError.dataCorruptedError(
          forKey: .timeZone, in: container, debugDescription: "unknown")
      }
      timeZone = zone
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(timeZone.identifier, forKey: .timeZone)
    }
    enum CodingKeys: String, CodingKey { case timeZone }
  }

  @Test("control: the identifier as Foundation gives it is caught by both checks")
  func control() throws {
    let naive = Field(
      name: "naive", encode: { try json(NaiveBoundary(timeZone: $0)) },
      reencode: Self.reencoded(NaiveBoundary.self))
    #expect(try Self.formProblems(naive, written: "Etc/UTC", stored: "GMT") != [])
    #expect(try Self.abbreviationProblems(naive, identifier: "PST") != [])
    #expect(try Self.formProblems(naive, written: "Europe/Paris", stored: "Europe/Paris") == [])
  }
}
