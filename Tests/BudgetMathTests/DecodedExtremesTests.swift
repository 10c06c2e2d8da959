import BudgetMath
import Foundation
import Testing
import UsageModel

/// Every number BudgetMath decodes and later computes with, at the ends of its type.
///
/// Decoding rejects it with a `DecodingError` naming the field, or every operation on the value
/// gives a defined result or a typed error. A trap would stop the test process.
@Suite("Decoded numbers are checked before they take part in arithmetic")
struct DecodedExtremesTests {
  static let extremes = [
    "9223372036854775807", "-9223372036854775808", "-1", "0", "1", "315537551999999",
  ]

  static let now = "2026-03-08T12:00:00Z"

  func decoded<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
    do {
      return try JSONDecoder().decode(type, from: Data(text.utf8))
    } catch is DecodingError {
      return nil
    } catch {
      Issue.record("not a DecodingError: \(error)")
      return nil
    }
  }

  @Test("an exchange rate of any decoded size converts any XP without trapping")
  func exchangeRate() throws {
    let at = try instant(Self.now)
    for xp in Self.extremes {
      for time in Self.extremes {
        guard let rate = decoded(ExchangeRate.self, #"{"xp":\#(xp),"timeMs":\#(time)}"#) else {
          continue
        }
        for amount in [Int.max, Int.min, 0, 95] { _ = rate.convert(amount) }
        var ledger = RewardLedger(rate: rate)
        try ledger.apply(LedgerTransaction(id: "e", at: at, kind: .earn(xp: .max)))
        // Either the time bought fits in Int64 milliseconds, or the redemption is refused.
        do {
          try ledger.apply(LedgerTransaction(id: "r", at: at, kind: .redeem(xp: .max)))
          #expect(ledger.balance.available <= .milliseconds(Int64.max))
        } catch {
          #expect(ledger.balance.xp == .max)
        }
        _ = try? ledger.redeemAll(id: "all", at: at)
      }
    }
    // The rate of 1 XP per minute bought 9.2e18 minutes with Int.max XP, and trapped.
    let perMinute = try ExchangeRate(experiencePoints: 1, time: .seconds(60))
    #expect(perMinute.convert(.max).time == .milliseconds(Int64.max))
  }

  @Test("a decoded ledger replays transactions of any size into a balance or a DecodingError")
  func ledgerTransactions() throws {
    let kinds = [
      #""type":"earn","xp":$X"#, #""type":"redeem","xp":$X"#,
      #""type":"adjust","xp":$X,"timeMs":$X,"reason":"r""#, #""type":"expire","xp":0,"timeMs":$X"#,
      #""type":"startSpending","session":"s","reserveMs":$X"#,
    ]
    for value in Self.extremes {
      for kind in kinds {
        let transaction = kind.replacingOccurrences(of: "$X", with: value)
        let text =
          #"{"rate":{"xp":10,"timeMs":60000},"transactions":["#
          + #"{"id":"a","at":"2026-03-08T12:00:00Z","type":"earn","xp":9223372036854775807},"#
          + #"{"id":"b","at":"2026-03-08T12:00:00Z",\#(transaction)}]}"#
        guard var ledger = decoded(RewardLedger.self, text) else { continue }
        #expect(ledger.balance.xp >= 0)
        #expect(ledger.balance.available >= .zero)
        _ = try? ledger.redeemAll(id: "all", at: try instant(Self.now))
        _ = ledger.expiryOfEverything(id: "x", at: try instant(Self.now))
      }
    }
  }

  @Test("a balance, a cap and an alert decode only with counts a ledger or a state can hold")
  func counts() {
    for value in Self.extremes {
      let balance = decoded(
        RewardBalance.self, #"{"xp":\#(value),"availableMs":0,"reservedMs":0}"#)
      #expect((balance == nil) == value.hasPrefix("-"), "xp \(value)")
      let cap = decoded(
        DailyEarningCap.self, #"{"xp":\#(value),"dayBoundary":{"timeZone":"UTC"}}"#)
      #expect((cap == nil) == value.hasPrefix("-"), "cap \(value)")
      let alert = decoded(
        BudgetAlert.self,
        #"{"category":"gaming","first":"2026-03-08","last":"2026-03-08","#
          + #""thresholdPercent":\#(value),"usedMs":\#(value),"allowanceMs":0}"#)
      #expect((alert == nil) == (value != "1"), "threshold \(value)")
      let state = decoded(
        BudgetAlertState.self,
        #"{"thresholds":[50],"reported":[{"category":"gaming","first":"2026-03-08","#
          + #""last":"2026-03-08","thresholds":[\#(value)]}]}"#)
      #expect((state == nil) == (value != "1"), "reported threshold \(value)")
    }
  }

  @Test("a focus session's lengths are checked, so every instant it derives can be computed")
  func focusSession() throws {
    let at = try instant(Self.now)
    for focus in Self.extremes {
      for length in Self.extremes {
        let text =
          #"{"id":"f","scheduledStart":"2026-03-08T12:00:00Z","focusDurationMs":\#(focus),"#
          + #""events":[{"kind":"start","at":"2026-03-08T12:00:00Z"},"#
          + #"{"kind":"beginBreak","at":"2026-03-08T12:01:00Z","breakLengthMs":\#(length)}]}"#
        guard var session = decoded(FocusSession.self, text) else { continue }
        #expect(focus == "315537551999999" && ["1", "315537551999999"].contains(length))
        for date in [at, at.addingTimeInterval(90), .distantFuture, .distantPast] {
          let state = session.state(at: date)
          if let end = state.endsAt { #expect(try end <= instant("9999-12-29T23:59:59.999Z")) }
        }
        _ = try? session.apply(.endBreak(at: at.addingTimeInterval(120)))
        _ = try? session.apply(.complete(at: .distantFuture))
        _ = session.state(at: .distantFuture)
        _ = try JSONDecoder().decode(FocusSession.self, from: try JSONEncoder().encode(session))
      }
    }
  }

  @Test("a session of 20,000 stored events decodes in linear time")
  func manyEvents() throws {
    let formatter = ISO8601DateFormatter()
    let start = try instant(Self.now)
    var events = [#"{"kind":"start","at":"2026-03-08T12:00:00Z"}"#]
    for index in 0..<10_000 {
      let begin = formatter.string(from: start.addingTimeInterval(Double(2 * index + 1)))
      let end = formatter.string(from: start.addingTimeInterval(Double(2 * index + 2)))
      events.append(#"{"kind":"beginBreak","at":"\#(begin)"}"#)
      events.append(#"{"kind":"endBreak","at":"\#(end)"}"#)
    }
    let text =
      #"{"id":"f","scheduledStart":"2026-03-08T13:00:00Z","focusDurationMs":86400000,"events":["#
      + events.joined(separator: ",") + "]}"
    let clock = ContinuousClock.now
    let session = try JSONDecoder().decode(FocusSession.self, from: Data(text.utf8))
    // Replaying every event for each event took minutes; once is well under a second.
    #expect(ContinuousClock.now - clock < .seconds(10))
    #expect(session.events.count == 20_001)
    #expect(session.state(at: .distantFuture).breakTime == .seconds(10_000))
  }

  @Test("budgets, allowances and statuses of any decoded size give defined results")
  func budgetsAndStatuses() throws {
    let today = try day("2026-03-08")
    for value in Self.extremes {
      let budget = decoded(
        Budget.self,
        #"{"category":"gaming","period":{"kind":"month"},"amountMs":\#(value),"#
          + #""granularity":"seconds","rollover":{"capMs":\#(value)}}"#)
      if let budget {
        let usage = [today: Duration.milliseconds(Int64.max), today.advanced(by: -1): .zero]
        _ = budget.baseAllowances(forPeriodContaining: today)
        _ = budget.proratedAmount(forPeriodContaining: today, planStart: today)
        let allowances = budget.allowances(forPeriodContaining: today, usage: usage)
        _ = allowances.map(\.total)
        _ = try budget.report(on: today, usage: usage)
      }
      let status = decoded(
        BudgetStatus.self,
        #"{"usedMs":\#(value),"allowanceMs":\#(value),"warningPercent":80,"level":"under"}"#)
      if let status { _ = (status.remaining, status.overage, status.fraction) }
      let allowance = decoded(
        DayAllowance.self, #"{"day":"2026-03-08","baseMs":\#(value),"carriedInMs":\#(value)}"#)
      if let allowance { #expect(allowance.total >= .zero) }
      _ = decoded(
        PaceProjection.self,
        #"{"usedMs":\#(value),"allowanceMs":\#(value),"elapsedMs":\#(value),"#
          + #""periodLengthMs":\#(value),"outlook":"onTrack"}"#)
      _ = decoded(
        FocusSessionState.self,
        #"{"phase":"active","focusElapsedMs":\#(value),"focusRemainingMs":\#(value),"#
          + #""breakTimeMs":\#(value)}"#)
    }
  }
}
