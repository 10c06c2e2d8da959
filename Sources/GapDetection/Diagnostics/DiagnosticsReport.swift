import Foundation
import SignalValues
import UsageModel

/// Everything a person needs to judge a day's tracking: health, gaps, accounting and errors,
/// rendered as plain text, JSON or an SVG timeline.
///
/// ```swift
/// let report = DiagnosticsReport(
///   day: today, now: now, detector: detector, heartbeats: history.heartbeats,
///   usage: records, rules: rules, diagnostics: try log.entries())
/// share(report.text)              // the "Export Diagnostics" button
/// upload(report.json())           // for support tooling
/// try report.svg.write(to: url, atomically: true, encoding: .utf8)
/// ```
///
/// JSON form: `{"title": "Tracking Diagnostics", "generatedAt": "…", "day": "2026-03-08",
/// "boundary": DayBoundary, "health": HeartbeatHealth, "gaps": GapReport, "alerts":
/// [TrackerDownAlert, …], "usage": [UsageBlock, …], "heartbeats": ["…", …], "errors":
/// [DiagnosticEntry, …], "todaysFailureCount": 2}`.
public struct DiagnosticsReport: Sendable, Hashable, Codable {
  /// The report's title, first line of the text and the SVG.
  public let title: String
  /// The day reported on.
  public let day: LocalDay
  /// Where local days begin; its time zone is used for every time shown.
  public let boundary: DayBoundary
  /// The tracker's health at ``generatedAt``, from its latest recorded heartbeat.
  public let health: HeartbeatHealth
  /// The day's gaps and accounting up to ``generatedAt``.
  public let gaps: GapReport
  /// The tracker-down alerts the day raised.
  public let alerts: [TrackerDownAlert]
  /// The day's usage per category.
  public let usage: [UsageBlock]
  /// The failed diagnostic entries, newest first, at most 20, so the report stays short.
  public let errors: [DiagnosticEntry]
  /// How many diagnostic entries of the day failed.
  public let todaysFailureCount: Int
  let heartbeatInstants: [Int64]

  /// The most errors listed.
  public static let maximumErrorsListed = 20

  /// Builds the report of `day` as of `now`.
  ///
  /// - Parameters:
  ///   - title: The title; `Tracking Diagnostics` unless you choose otherwise.
  ///   - day: The day to report on.
  ///   - now: The instant of the report.
  ///   - detector: The gap detector, with the day boundary, expectation, policy and source.
  ///   - heartbeats: The tracker's heartbeats in the order they were recorded, as a
  /// ``/TrackerSignals/HeartbeatHistory`` lists them (those of other sources than the detector's
  ///     are ignored). Health is judged from the last of them — the recorder's latest — even when
  ///     an earlier one is dated later (the device clock was set back); the gaps are found
  ///     whatever the order.
  ///   - usage: The usage records.
  ///   - rules: How apps map to categories when a record has none.
  ///   - missedSequences: Lost notification numbers and when.
  ///   - diagnostics: The diagnostic log's entries.
  /// - Complexity: O(*n* log *n*) in the number of heartbeats, records and entries.
  public init(
    title: String = "Tracking Diagnostics", day: LocalDay, now: Date, detector: GapDetector,
    heartbeats: [Heartbeat], usage: [UsageRecord], rules: CategoryRules = CategoryRules(),
    missedSequences: [SequenceLoss] = [], diagnostics: [DiagnosticEntry] = []
  ) {
    self.title = title
    self.day = day
    boundary = detector.boundary
    let source = detector.source
    let tracker = heartbeats.filter { $0.source == source }
    health = detector.policy.health(of: tracker.last, at: now)
    gaps = detector.report(
      for: day, now: now, heartbeats: tracker, usage: usage, missedSequences: missedSequences)
    alerts = TrackerDownAlert.evaluate(gaps, policy: detector.policy)
    let (dayStart, dayEnd) = TimeValues.bounds(of: boundary.interval(of: day))
    self.usage = UsageBlock.blocks(
      of: usage, rules: rules, from: dayStart, to: min(dayEnd, gaps.endInstant))
    heartbeatInstants = tracker.map(\.instant).filter { $0 >= dayStart && $0 < dayEnd }.sorted()
    var seen = Set<UUID>()
    let unique = diagnostics.filter { seen.insert($0.id).inserted }
    errors = Array(
      unique.filter { !$0.success }.sorted { $0.instant > $1.instant }.prefix(
        Self.maximumErrorsListed))
    todaysFailureCount = DiagnosticEntry.failures(in: unique, on: day, boundary: boundary).count
  }

  /// When the report was made.
  public var generatedAt: Date { health.checkedAt }
  /// The day's heartbeats of the detector's source, in order of time.
  public var heartbeats: [Date] { heartbeatInstants.map(Milliseconds.date) }

  /// A relative time: `45s ago`, `3m ago`, `2h ago`, in whole units rounded down; a
  /// negative age (a time in the future) reads `in 5s`.
  ///
  /// - Parameter age: How long ago.
  /// - Returns: The text.
  public static func relativeTime(_ age: Duration) -> String {
    // Whole seconds toward zero; both components of a duration share its sign.
    let (seconds, attoseconds) = age.components
    return ReadableText.relative(seconds: seconds.magnitude, future: seconds < 0 || attoseconds < 0)
  }

  /// The report as indented JSON with sorted keys, in the documented form.
  ///
  /// It cannot fail: every part of a report, built by this type's initialiser or decoded,
  /// holds only values its JSON form can hold (instants and amounts in whole milliseconds,
  /// strings, integers).
  ///
  /// - Returns: UTF-8 JSON.
  public func json() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    do {
      return try encoder.encode(self)
    } catch {
      preconditionFailure("a diagnostics report always encodes: \(error)")
    }
  }

  // MARK: - Codable

  private enum CodingKeys: String, CodingKey {
    case title
    case generatedAt
    case day
    case boundary
    case health
    case gaps
    case alerts
    case usage
    case heartbeats
    case errors
    case todaysFailureCount
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    title = try container.decode(String.self, forKey: .title)
    day = try container.decode(LocalDay.self, forKey: .day)
    boundary = try container.decode(DayBoundary.self, forKey: .boundary)
    health = try container.decode(HeartbeatHealth.self, forKey: .health)
    gaps = try container.decode(GapReport.self, forKey: .gaps)
    alerts = try container.decode([TrackerDownAlert].self, forKey: .alerts)
    usage = try container.decode([UsageBlock].self, forKey: .usage)
    errors = try container.decode([DiagnosticEntry].self, forKey: .errors)
    todaysFailureCount = try container.decode(Int.self, forKey: .todaysFailureCount)
    guard todaysFailureCount >= 0 else {
      throw DecodingError.dataCorruptedError(
        forKey: .todaysFailureCount, in: container,
        debugDescription: "\(todaysFailureCount) failures is a negative count")
    }
    var list = try container.nestedUnkeyedContainer(forKey: .heartbeats)
    var instants: [Int64] = []
    while !list.isAtEnd {
      let text = try list.decode(String.self)
      guard case .success(let instant) = ISO8601Instant.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: list, debugDescription: "\(text.debugDescription) is not an ISO 8601 instant")
      }
      instants.append(instant)
    }
    heartbeatInstants = instants
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(title, forKey: .title)
    try container.encodeInstant(TimeValues.clampedInstant(generatedAt), forKey: .generatedAt)
    try container.encode(day, forKey: .day)
    try container.encode(boundary, forKey: .boundary)
    try container.encode(health, forKey: .health)
    try container.encode(gaps, forKey: .gaps)
    try container.encode(alerts, forKey: .alerts)
    try container.encode(usage, forKey: .usage)
    try container.encode(heartbeatInstants.map(ISO8601Instant.format), forKey: .heartbeats)
    try container.encode(errors, forKey: .errors)
    try container.encode(todaysFailureCount, forKey: .todaysFailureCount)
  }
}
