import Foundation
import Testing
import UsageModel

/// Every number UsageModel decodes and later computes with, at the ends of its type.
///
/// Decoding rejects it with a `DecodingError` naming the field, or every operation on the value
/// gives a defined result. A trap would stop the test process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  /// Integers at and around the ends of `Int64`.
  static let extremes = [
    "9223372036854775807", "-9223372036854775808", "-1", "0", "1", "315537551999999",
  ]

  /// Decodes `text`, returning `nil` when decoding rejects it with a `DecodingError` that names
  /// one of `fields`; any other failure fails the test.
  func decodeOrReject<T: Decodable>(_ type: T.Type, _ text: String, field: String...) -> T? {
    do {
      return try decode(type, text)
    } catch let error as DecodingError {
      #expect(
        field.contains { "\(error)".contains($0) }, "the error should name \(field): \(error)")
      return nil
    } catch {
      Issue.record("not a DecodingError: \(error)")
      return nil
    }
  }

  static let accountantJSON =
    #"{"timeZone":"America/New_York","toleranceMs":$X,"intervals":[{"start":"2026-03-08T14:00:00Z","#
    + #""apps":[{"app":"com.a","highestMs":900000,"reachedAt":"2026-03-08T15:00:00Z"}],"#
    + #""implausibleEvents":[]}]}"#

  @Test("an accountant's tolerance decodes up to Int64.max ms and then makes events plausible")
  func accountantTolerance() throws {
    let start = try instant("2026-03-08T14:00:00Z")
    let week = try ThresholdEvent(
      name: try ThresholdEventName(app: try app("com.b"), threshold: .seconds(7 * 86_400)),
      intervalStart: start, receivedAt: start.addingTimeInterval(60))
    let early = try ThresholdEvent(
      name: try ThresholdEventName(app: try app("com.b"), threshold: .seconds(60)),
      intervalStart: start, receivedAt: start.addingTimeInterval(-86_400))
    for value in Self.extremes {
      let text = Self.accountantJSON.replacingOccurrences(of: "$X", with: value)
      guard var accountant = decodeOrReject(ThresholdAccountant.self, text, field: "toleranceMs")
      else {
        #expect(value.hasPrefix("-"), "only a negative tolerance is refused, not \(value)")
        continue
      }
      let outcome = accountant.record(week)
      let huge = value == "9223372036854775807" || value == "315537551999999"
      #expect((outcome.added == .seconds(7 * 86_400)) == huge, "tolerance \(value)")
      _ = accountant.record(early)
      _ = accountant.usage(inIntervalStartingAt: start)
      _ = accountant.implausibleEvents.map(\.description)
      _ = accountant.pastActivityAllowance(intervalStart: .distantFuture)
      accountant.removeIntervals(startingBefore: .distantFuture)
      #expect(accountant.intervals.isEmpty)
    }
    // The initialiser accepts the same tolerances, and refuses what has no milliseconds.
    var made = try ThresholdAccountant(
      timeZone: try zone("UTC"), tolerance: .milliseconds(Int64.max))
    #expect(made.record(week).added == .seconds(7 * 86_400))
    #expect(throws: UsageModelError.self) {
      try ThresholdAccountant(timeZone: try zone("UTC"), tolerance: .seconds(Int64.max))
    }
  }

  @Test("a recorded highest threshold must be one that a threshold event can carry")
  func highestThreshold() throws {
    for value in Self.extremes + ["1500", "604800000", "604801000", "1000"] {
      let text =
        #"{"app":"com.a","highestMs":\#(value),"reachedAt":"2026-03-08T15:00:00Z"}"#
      let decoded = decodeOrReject(
        MonitoringIntervalUsage.AppThreshold.self, text, field: "highestMs")
      #expect((decoded != nil) == ["604800000", "1000"].contains(value), "highestMs \(value)")
    }
    // 20,000 apps at the largest threshold add up without overflowing.
    let apps = (0..<20_000).map {
      #"{"app":"com.a\#($0)","highestMs":604800000,"reachedAt":"2026-03-08T15:00:00Z"}"#
    }
    let interval = try decode(
      MonitoringIntervalUsage.self,
      #"{"start":"2026-03-08T14:00:00Z","apps":["# + apps.joined(separator: ",")
        + #"],"implausibleEvents":[]}"#)
    #expect(interval.total == .seconds(20_000 * 7 * 86_400))
  }

  @Test("an implausible event's elapsed time and allowance stay within what can be measured")
  func implausibleEvent() {
    for value in Self.extremes + ["3600000", "3599999"] {
      for field in ["elapsedMs", "allowanceMs"] {
        let elapsed = field == "elapsedMs" ? value : "0"
        let allowance = field == "allowanceMs" ? value : "0"
        let text =
          #"{"event":{"name":"stk:15m:com.a","intervalStart":"2026-03-08T14:00:00Z","#
          + #""receivedAt":"2026-03-08T14:01:00Z"},"elapsedMs":\#(elapsed),"#
          + #""allowanceMs":\#(allowance)}"#
        guard let event = decodeOrReject(ImplausibleThresholdEvent.self, text, field: field)
        else { continue }
        #expect(!event.description.isEmpty)
        #expect(event.elapsed.components.seconds.magnitude <= 315_537_552_000)
        #expect(event.allowance < .seconds(3_600))
      }
    }
  }

  @Test("a day's totals stay within the day, down to each app of each category")
  func dailyUsage() throws {
    for value in Self.extremes {
      for place in ["total", "category", "app", "categoryApp"] {
        let numbers = [
          "total": place == "total" ? value : "3600000",
          "category": place == "category" ? value : "1800000",
          "app": place == "app" ? value : "1800000",
          "categoryApp": place == "categoryApp" ? value : "1800000",
        ]
        let text =
          #"{"day":"2026-03-08","start":"2026-03-08T05:00:00Z","end":"2026-03-09T04:00:00Z","#
          + #""totalMs":\#(numbers["total"] ?? ""),"categories":[{"category":"gaming","#
          + #""totalMs":\#(numbers["category"] ?? ""),"apps":[{"app":"com.a","#
          + #""totalMs":\#(numbers["categoryApp"] ?? "")}]}],"apps":[{"app":"com.a","#
          + #""totalMs":\#(numbers["app"] ?? "")}]}"#
        guard
          let usage = decodeOrReject(
            DailyUsage.self, text, field: "totalMs", "categories", "apps")
        else { continue }
        #expect(usage.total <= usage.length)
        #expect(usage.categories.allSatisfy { $0.apps.allSatisfy { $0.total <= usage.total } })
        let payload = UsageSyncPayload(userId: "u", usage: usage) { $0.rawValue }
        #expect(payload.apps.allSatisfy { $0.totalMinutes <= 23 * 60 })
      }
    }
  }

  @Test("an app's or a category's total alone decodes to any whole milliseconds, zero or more")
  func standaloneTotals() throws {
    for value in Self.extremes {
      let app = decodeOrReject(
        AppUsage.self, #"{"app":"com.a","totalMs":\#(value)}"#, field: "totalMs")
      #expect((app == nil) == value.hasPrefix("-"))
      let category = decodeOrReject(
        CategoryUsage.self,
        #"{"category":"gaming","totalMs":\#(value),"apps":[{"app":"com.a","totalMs":\#(value)}]}"#,
        field: "totalMs")
      _ = category?.total(of: try AppID("com.a"))
    }
  }

  @Test("a timer's duration must end by 9999-12-29, a record's end must not precede its start")
  func windowsAndRecords() throws {
    for value in Self.extremes {
      let timer = decodeOrReject(
        TimerWindow.self, #"{"start":"2026-03-08T14:00:00Z","durationMs":\#(value)}"#,
        field: "durationMs")
      if let timer {
        _ = (timer.duration, timer.contains(.distantFuture), timer.localEnd(in: try zone("UTC")))
      } else {
        #expect(value != "1", "a 1 ms timer is valid")
      }
    }
    let record = try decode(
      UsageRecord.self,
      #"{"app":"com.a","start":"0001-01-03T00:00:00Z","end":"9999-12-29T23:59:59.999Z","#
        + #""source":"manual"}"#)
    #expect(record.duration == .milliseconds(315_537_551_999_999))
    let boundary = DayBoundary(timeZone: try zone("Pacific/Kiritimati"))
    let week = try day("2026-03-08")...day("2026-03-14")
    let report = UsageAggregator(boundary: boundary).aggregate([record], over: week)
    #expect(report.days.count == 7)
    #expect(report.total == .hours(7 * 24))
  }

  @Test("a warning time decodes whatever its sign, and the plan reports it out of range")
  func warningTime() throws {
    for value in Self.extremes {
      let activity = try decode(
        MonitoredActivity.self,
        #"{"name":"a","schedule":{"daily":{"start":"22:00","end":"06:00"}},"#
          + #""warningTimeMs":\#(value)}"#)
      let violations = MonitoringPlan.violations(in: [activity])
      let inRange = ["0", "1"].contains(value)
      #expect(violations.isEmpty == inRange, "warning time \(value) ms")
    }
  }

  @Test("minutes on the wire decode from zero to Int.max and no further")
  func wireMinutes() throws {
    for value in Self.extremes {
      let app = decodeOrReject(
        UsageSyncPayload.App.self,
        #"{"bundleId":"com.a","appName":"A","totalMinutes":\#(value)}"#, field: "totalMinutes")
      #expect((app == nil) == value.hasPrefix("-"))
      let row = decodeOrReject(
        DailyUsageResponse.CategoryRow.self,
        #"{"categoryType":"gaming","categoryName":"G","totalMinutes":\#(value),"#
          + #""budgetMinutes":\#(value),"isOverBudget":false,"apps":[]}"#,
        field: "Minutes")
      #expect((row == nil) == value.hasPrefix("-"))
    }
  }

  @Test("a timeline of the earliest and latest instants answers every question")
  func timelineExtremes() throws {
    let log = try decode(
      TimelineLog.self,
      #"{"events":[{"at":"0001-01-03T00:00:00Z","kind":"notification_fired"},"#
        + #"{"at":"9999-12-29T23:59:59.999Z","kind":"user_action"}]}"#)
    var copy = log
    let responses = copy.responses(within: .seconds(Int64.max))
    #expect(responses.first?.latency == .milliseconds(315_537_551_999_999))
    let statistics = ResponseLatencyStatistics(responses + responses)
    #expect(statistics.mean == .milliseconds(315_537_551_999_999))
    #expect(copy.responses(within: .seconds(Int64.min)).first?.response == nil)
    let boundary = DayBoundary(timeZone: try zone("Pacific/Kiritimati"))
    #expect(
      try copy.applyRetention(.days(.max), now: instant("9999-12-29T00:00:00Z"), boundary: boundary)
        == 0)
    #expect(
      try copy.applyRetention(.days(1), now: instant("9999-12-29T00:00:00Z"), boundary: boundary)
        == 1)
  }
}
