import Foundation
import Testing
import UsageModel

/// The backend's wire format.
///
/// The two examples below are pasted verbatim from the backend's API documentation.
@Suite("Wire DTOs")
struct WireTests {
  static let syncPayloadExample = """
    {
      "userId": "user-123",
      "usageDate": "2026-01-02",
      "apps": [
        {
          "bundleId": "com.instagram.instagram",
          "appName": "Instagram",
          "totalMinutes": 65
        },
        {
          "bundleId": "com.netflix.Netflix",
          "appName": "Netflix",
          "totalMinutes": 120
        }
      ]
    }
    """

  static let dailyUsageExample = """
    {
      "success": true,
      "data": {
        "usageDate": "2026-01-02",
        "categories": [
          {
            "categoryType": "social_media",
            "categoryName": "Social Media",
            "totalMinutes": 65,
            "budgetMinutes": 60,
            "isOverBudget": true,
            "apps": [
              {
                "appName": "Instagram",
                "totalMinutes": 45
              },
              {
                "appName": "Twitter",
                "totalMinutes": 20
              }
            ]
          }
        ]
      }
    }
    """

  /// Decoding, encoding and decoding again loses nothing, and the encoding is the example.
  func expectLosslessRoundTrip<T: Codable & Equatable>(_ type: T.Type, _ example: String) throws {
    let value = try decode(type, example)
    let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    #expect(try canonicalJSON(encoded) == canonicalJSON(example))
    #expect(try decode(type, encoded) == value)
  }

  @Test("the backend's sync payload example round-trips losslessly")
  func syncPayloadRoundTrip() throws {
    try expectLosslessRoundTrip(UsageSyncPayload.self, Self.syncPayloadExample)
    let payload = try decode(UsageSyncPayload.self, Self.syncPayloadExample)
    #expect(try payload.usageDate == day("2026-01-02"))
    #expect(payload.apps.map(\.totalMinutes) == [65, 120])
    #expect(try payload.apps.first?.bundleId == app("com.instagram.instagram"))
  }

  @Test("the backend's daily usage response example round-trips losslessly")
  func dailyUsageRoundTrip() throws {
    try expectLosslessRoundTrip(APIEnvelope<DailyUsageResponse>.self, Self.dailyUsageExample)
    let response = try decode(APIEnvelope<DailyUsageResponse>.self, Self.dailyUsageExample)
    #expect(response.success)
    #expect(response.data.categories.first?.categoryType == .socialMedia)
    #expect(response.data.categories.first?.apps.map(\.appName) == ["Instagram", "Twitter"])
  }

  @Test("the round-trip check notices a lost field (control)")
  func roundTripControl() throws {
    // A DTO that drops `budgetMinutes` must not pass for the real one.
    struct Lossy: Codable { var usageDate: String }
    let lossy = try decode(Lossy.self, #"{"usageDate":"2026-01-02","categories":[]}"#)
    let encoded = String(decoding: try JSONEncoder().encode(lossy), as: UTF8.self)
    #expect(
      try canonicalJSON(encoded)
        != canonicalJSON(#"{"usageDate":"2026-01-02","categories":[]}"#))
  }

  @Test("unknown fields are tolerated")
  func unknownFieldsAreTolerated() throws {
    let text = """
      {"success": true, "message": "ok", "data": {"usageDate": "2026-01-02", "timezone": "UTC",
      "categories": [{"categoryType": "study_time", "categoryName": "Study", "totalMinutes": 5,
      "budgetMinutes": 10, "isOverBudget": false, "icon": "book", "apps": []}]}}
      """
    let response = try decode(APIEnvelope<DailyUsageResponse>.self, text)
    #expect(response.data.categories.first?.categoryType.rawValue == "study_time")
  }

  @Test(
    "a missing required field is a decoding error naming it",
    arguments: [
      ("userId", "userId"), ("usageDate", "usageDate"), ("apps", "apps"),
      ("\"bundleId\": \"com.instagram.instagram\",", "bundleId"),
      ("\"totalMinutes\": 65", "totalMinutes"),
    ])
  func missingFieldIsNamed(removed: String, field: String) throws {
    var text = Self.syncPayloadExample
    if removed.hasPrefix("\"") {
      text = text.replacingOccurrences(of: removed, with: "")
      if field == "totalMinutes" {
        text = text.replacingOccurrences(of: "\"Instagram\",", with: "\"Instagram\"")
      }
    } else {
      text = text.replacingOccurrences(of: "\"\(removed)\"", with: "\"x\(removed)\"")
    }
    do {
      _ = try decode(UsageSyncPayload.self, text)
      Issue.record("decoding without \(field) succeeded")
    } catch DecodingError.keyNotFound(let key, _) {
      #expect(key.stringValue == field)
    }
  }

  @Test("negative minutes and bad dates are decoding errors naming the field")
  func invalidValues() throws {
    let negative = Self.syncPayloadExample.replacingOccurrences(of: "65", with: "-65")
    do {
      _ = try decode(UsageSyncPayload.self, negative)
      Issue.record("negative minutes decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.last?.stringValue == "totalMinutes")
    }
    let badDate = Self.syncPayloadExample.replacingOccurrences(of: "2026-01-02", with: "2026-02-30")
    #expect(throws: DecodingError.self) { try decode(UsageSyncPayload.self, badDate) }
    #expect(throws: UsageModelError.self) {
      try DailyUsageResponse.AppRow(appName: "x", totalMinutes: -1)
    }
  }

  @Test("a day's usage becomes a sync payload whose minutes add up to the rounded total")
  func payloadFromDailyUsage() throws {
    let boundary = DayBoundary(timeZone: try zone("UTC"))
    let apps = try ["com.a", "com.b", "com.c"].map(app)
    // 20.5, 20.5 and 20.5 minutes: 61.5 in all, which rounds to 62; whole minutes give 60.
    let start = try instant("2026-01-02T10:00:00Z")
    let records = try apps.enumerated().map { index, app in
      try UsageRecord(
        app: app, start: start.addingTimeInterval(Double(index) * 3600), duration: .seconds(1230),
        source: .heartbeat)
    }
    let usage = try #require(UsageAggregator(boundary: boundary).aggregate(records).days.first)
    let payload = UsageSyncPayload(userId: "user-123", usage: usage) { $0.rawValue.uppercased() }
    #expect(try payload.usageDate == day("2026-01-02"))
    #expect(payload.apps.map(\.totalMinutes) == [21, 21, 20])
    #expect(payload.apps.map(\.appName) == ["COM.A", "COM.B", "COM.C"])
    #expect(payload.apps.map(\.totalMinutes).reduce(0, +) == 62)
  }
}
