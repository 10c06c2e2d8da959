import Foundation
import UsageModel

/// Where a period's use is heading at its current average rate.
///
/// From the use so far and the time elapsed in the period, ``projectedTotal`` is the use the
/// period ends with if the average rate holds, and ``runsOutAt`` the instant at which the
/// allowance would be used up — if that happens before the period ends. Elapsed time is real
/// time: a month with a spring-forward day is an hour shorter, and its pace is measured so.
///
/// ```swift
/// let january = BudgetPeriod.month.interval(containing: today, boundary: boundary)
/// let pace = try PaceProjection(used: .seconds(20 * 3600), allowance: .seconds(30 * 3600),
///                               period: january, now: now)
/// pace.outlook      // .willRunOut when 20 h were used in the first 15 days
/// pace.runsOutAt    // about January 23
/// ```
///
/// JSON form: `{"usedMs": …, "allowanceMs": …, "elapsedMs": …, "periodLengthMs": …,
/// "projectedTotalMs": …, "runsOutAt": "…Z", "outlook": "willRunOut"}`, `projectedTotalMs`
/// and `runsOutAt` absent when `nil`.
public struct PaceProjection: Sendable, Hashable, Codable {
  /// The use so far.
  public let used: Duration
  /// The allowance of the whole period.
  public let allowance: Duration
  /// The time elapsed in the period (zero before it starts, its length after it ends).
  public let elapsed: Duration
  /// The period's real length.
  public let periodLength: Duration
  /// The use the period ends with at the current average rate, rounded down to the
  /// millisecond; `nil` before any time has elapsed, or when it is too large to represent.
  public let projectedTotal: Duration?
  /// When the allowance runs out at the current average rate, rounded up to the millisecond;
  /// `nil` unless ``outlook`` is ``PaceOutlook/willRunOut``.
  public let runsOutAt: Date?
  /// The verdict.
  public let outlook: PaceOutlook

  /// Projects the period's use from the use so far.
  ///
  /// - Parameters:
  ///   - used: The use so far in the period, zero or more.
  ///   - allowance: The allowance of the whole period, zero or more.
  ///   - period: The period's instants, for example from
  ///     ``BudgetPeriod/interval(containing:boundary:)``.
  ///   - now: The instant of the projection.
  /// - Throws: ``BudgetMathError/invalidValue(field:value:requirement:)`` for a negative or
  ///   fractional-millisecond amount, or instants out of range.
  public init(used: Duration, allowance: Duration, period: DateInterval, now: Date)
    throws(BudgetMathError)
  {
    let usedMs = try Self.milliseconds(used, "used")
    let allowanceMs = try Self.milliseconds(allowance, "allowance")
    guard let start = Milliseconds.instant(period.start),
      let end = Milliseconds.instant(period.end),
      let instant = Milliseconds.instant(now)
    else {
      throw .invalidValue(
        field: "period",
        value: "\(describe(period.start)) to \(describe(period.end)) at \(describe(now))",
        requirement: "representable instants")
    }
    let length = end - start
    let elapsedMs = min(max(instant - start, 0), length)
    self.used = used
    self.allowance = allowance
    self.elapsed = .milliseconds(elapsedMs)
    self.periodLength = .milliseconds(length)
    self.projectedTotal = multiplyDivide(usedMs, length, elapsedMs).map { .milliseconds($0) }

    if usedMs >= allowanceMs && (usedMs > 0 || allowanceMs == 0) {
      outlook = .exhausted
      runsOutAt = nil
    } else if usedMs == 0 || elapsedMs == 0 {
      outlook = .noUsageYet
      runsOutAt = nil
    } else if let toGo = multiplyDivideWithRemainder(allowanceMs - usedMs, elapsedMs, usedMs),
      let rest = checkedSum(toGo.quotient, toGo.remainder > 0 ? 1 : 0),
      let runOut = checkedSum(start + elapsedMs, rest),
      runOut < end
    {
      // At the average rate used / elapsed, the rest of the allowance lasts
      // (allowance − used) × elapsed / used, rounded up to the millisecond. A quotient too large
      // to represent runs out long after the period: on track.
      outlook = .willRunOut
      runsOutAt = Milliseconds.date(runOut)
    } else {
      outlook = .onTrack
      runsOutAt = nil
    }
  }

  private static func milliseconds(_ duration: Duration, _ field: String) throws(BudgetMathError)
    -> Int64
  {
    guard duration >= .zero, Milliseconds.isWhole(duration),
      let value = Milliseconds.amount(duration)
    else {
      throw .invalidValue(
        field: field, value: "\(duration)", requirement: "zero or more, in whole milliseconds")
    }
    return value
  }

  private enum CodingKeys: String, CodingKey {
    case usedMs, allowanceMs, elapsedMs, periodLengthMs, projectedTotalMs, runsOutAt, outlook
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    used = try container.decodeMilliseconds(forKey: .usedMs)
    allowance = try container.decodeMilliseconds(forKey: .allowanceMs)
    elapsed = try container.decodeMilliseconds(forKey: .elapsedMs)
    periodLength = try container.decodeMilliseconds(forKey: .periodLengthMs)
    projectedTotal =
      container.contains(.projectedTotalMs)
      ? try container.decodeMilliseconds(forKey: .projectedTotalMs) : nil
    runsOutAt =
      container.contains(.runsOutAt)
      ? Milliseconds.date(try container.decodeInstant(forKey: .runsOutAt)) : nil
    outlook = try container.decode(PaceOutlook.self, forKey: .outlook)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeMilliseconds(used, forKey: .usedMs)
    try container.encodeMilliseconds(allowance, forKey: .allowanceMs)
    try container.encodeMilliseconds(elapsed, forKey: .elapsedMs)
    try container.encodeMilliseconds(periodLength, forKey: .periodLengthMs)
    if let projectedTotal {
      try container.encodeMilliseconds(projectedTotal, forKey: .projectedTotalMs)
    }
    if let runsOutAt, let instant = Milliseconds.instant(runsOutAt) {
      try container.encodeInstant(instant, forKey: .runsOutAt)
    }
    try container.encode(outlook, forKey: .outlook)
  }
}

/// The verdict of a ``PaceProjection``.
///
/// JSON form: the raw value, for example `"onTrack"`.
public enum PaceOutlook: String, Sendable, Hashable, Codable, CaseIterable {
  /// Nothing used yet, or no time elapsed: there is no rate to project.
  case noUsageYet
  /// At the current rate the allowance lasts the whole period.
  case onTrack
  /// At the current rate the allowance runs out before the period ends.
  case willRunOut
  /// The allowance is already used up.
  case exhausted
}
