import Foundation
import Testing
import UsageModel

@Suite("Usage records")
struct UsageRecordTests {
  let instagram: AppID
  let start: Date

  init() throws {
    instagram = try app("com.instagram.instagram")
    start = try instant("2026-01-02T10:00:00Z")
  }

  @Test("a reversed interval is rejected at construction")
  func reversedInterval() throws {
    let end = start.addingTimeInterval(-1)
    #expect(throws: UsageModelError.reversedInterval(start: start, end: end)) {
      try UsageRecord(app: instagram, start: start, end: end, source: .manual)
    }
  }

  @Test(
    "negative and NaN durations are rejected at construction",
    arguments: [
      -1.0, -.infinity, .nan, .infinity,
    ])
  func invalidDurations(seconds: Double) {
    #expect(throws: UsageModelError.self) {
      try UsageRecord(app: instagram, start: start, duration: seconds, source: .manual)
    }
  }

  @Test("a negative Duration and a non-finite instant are rejected")
  func negativeDurationAndNaNInstant() throws {
    #expect(throws: UsageModelError.self) {
      try UsageRecord(app: instagram, start: start, duration: .seconds(-1), source: .manual)
    }
    #expect(throws: UsageModelError.self) {
      try UsageRecord(
        app: instagram, start: Date(timeIntervalSinceReferenceDate: .nan), end: start,
        source: .manual)
    }
  }

  @Test("instants are kept to the millisecond so that the JSON form round-trips exactly")
  func millisecondInstants() throws {
    let record = try UsageRecord(
      app: instagram, category: .socialMedia, start: start.addingTimeInterval(0.000_4),
      duration: .milliseconds(1500), source: .thresholdEvent)
    #expect(record.start == start)
    #expect(record.duration == .milliseconds(1500))
    let text = try json(record)
    #expect(
      text == """
        {"app":"com.instagram.instagram","category":"social_media",\
        "end":"2026-01-02T10:00:01.500Z","source":"threshold_event","start":"2026-01-02T10:00:00Z"}
        """)
    #expect(try decode(UsageRecord.self, text) == record)
  }

  @Test("decoding accepts ISO 8601 offsets and fractions and rejects reversed records")
  func decodingVariants() throws {
    let record = try decode(
      UsageRecord.self,
      #"{"app":"a.b","start":"2026-01-02T05:00:00-05:00","end":"2026-01-02T10:00:00.1234+00:00","source":"manual"}"#
    )
    #expect(record.start == start)
    #expect(record.duration == .milliseconds(123))
    #expect(record.category == nil)
    #expect(throws: DecodingError.self) {
      try decode(
        UsageRecord.self,
        #"{"app":"a.b","start":"2026-01-02T10:00:00Z","end":"2026-01-02T09:00:00Z","source":"manual"}"#
      )
    }
    #expect(throws: DecodingError.self) {
      try decode(
        UsageRecord.self,
        #"{"app":"a.b","start":"2026-01-02 10:00:00","end":"2026-01-02T11:00:00Z","source":"manual"}"#
      )
    }
  }

  @Test("every error describes itself in a sentence that names the problem")
  func errorDescriptions() throws {
    let errors: [UsageModelError] = [
      .invalidDate(year: 2026, month: 2, day: 30),
      .monitoringIntervalTooShort(activity: "a", length: .seconds(60), minimum: .seconds(900)),
      .invalidEventName(name: "x", reason: "it does not start with \"stk:\""),
    ]
    #expect(errors[0].description.contains("2026-2-30"))
    #expect(errors[1].description.contains("minimum"))
    #expect(errors[2].description.contains("stk:15m:com.example.app"))
  }
}

@Suite("Supported instants")
struct SupportedInstantTests {
  @Test("the first and last supported instants have a local day in the most extreme zones")
  func extremeInstantsHaveADay() throws {
    // 0001-01-03T00:00:00Z and 9999-12-29T23:59:59.999Z, proleptic Gregorian (Foundation's
    // formatter would read the first as a Julian date).
    let first = Date(timeIntervalSince1970: -62_135_424_000)
    let last = Date(timeIntervalSince1970: 253_402_127_999.999)
    for identifier in ["Pacific/Kiritimati", "Etc/GMT+12", "UTC"] {
      let boundary = DayBoundary(timeZone: try zone(identifier), dayStart: try time("23:59"))
      #expect(try boundary.day(containing: first) >= day("0001-01-01"))
      #expect(try boundary.day(containing: last) <= day("9999-12-31"))
    }
    #expect(throws: UsageModelError.self) {
      try DayBoundary(timeZone: try zone("UTC")).day(containing: first.addingTimeInterval(-1))
    }
  }
}
