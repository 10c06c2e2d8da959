import Foundation
import SignalValues
import UsageModel

/// A file of the app side's state that could not be read, moved aside and rebuilt, with what the
/// rebuild could not bring back.
///
/// The app side keeps five kinds of file in the shared folder (``File``). When one of them is
/// damaged — its bytes corrupted, written in a newer format, or holding values that do not decode
/// — ``UsagePipeline/wake(_:now:)`` and ``UsagePipeline/dashboard(for:now:)`` quarantine it
/// (the bytes are kept, `SharedStore.quarantine(_:)`), rebuild it from the facts still in the
/// outbox and in the surviving per-day logs, record this value in the state
/// (``PipelineState/recoveries``), and go on. What no fact can tell again is listed in
/// ``unrebuilt``, with its range. A failure the store reports as transient — an I/O error, a full
/// disk, protected data not available yet — is never damage: it is thrown, and nothing is
/// quarantined.
///
/// Fail safe: a rebuilt reward ledger starts from a balance of zero, whatever was earned before,
/// because the redemptions it held cannot be derived again — a reward never pays twice for a
/// minute. A rebuilt day of facts has only the facts the outbox still holds: what it lost is
/// listed, and the day's summary, if it had one, keeps the day's totals.
///
/// JSON form: `{"file": "facts", "key": "stk.pipeline.state.facts.2026-03-08", "damage": "…",
/// "keptAt": "…/.quarantined.stk.pipeline.state.facts.2026-03-08.1", "at":
/// "2026-03-09T08:00:00Z", "unrebuilt": [PipelineRecovery.Loss, …]}`; `keptAt` is omitted when
/// nothing was stored under the key any more.
public struct PipelineRecovery: Sendable, Hashable, Codable {
  /// Which of the app side's files was damaged.
  ///
  /// JSON form: its name, `"state"`, `"facts"`, `"starts"`, `"summaries"` or `"ledger"`.
  public enum File: String, Sendable, Hashable, Codable, CaseIterable {
    /// The consumer's record of the outbox (`<appStateKey>`): the cursor, the numbers drained,
    /// the losses and the acknowledged alerts.
    case state
    /// One UTC day's log of facts (`<appStateKey>.facts.<day>`).
    case facts
    /// The log of the `intervalDidStart` facts (`<appStateKey>.starts`).
    case starts
    /// The summaries of past days (`<appStateKey>.days`).
    case summaries
    /// The reward ledger (`<appStateKey>.ledger`).
    case ledger
  }

  /// Something a rebuild could not bring back, with its range.
  ///
  /// JSON form, by `kind`: `{"kind": "deliveries", "range": SequenceRange}`, `{"kind":
  /// "acknowledgedAlerts"}`, `{"kind": "facts", "from": "…", "to": "…"}`, `{"kind":
  /// "intervalStarts", "before": "…"}`, `{"kind": "daySummaries", "before": "2026-02-01"}`,
  /// `{"kind": "ledgerTransactions", "before": "…"}`; instants in ISO 8601, in UTC.
  public enum Loss: Sendable, Hashable, Codable {
    /// Whether the numbers of `range` were delivered and drained is no longer known: they were
    /// evicted from the outbox before the state was rebuilt. Their facts are in the per-day logs
    /// if they were drained; they are not counted as lost (``PipelineState/losses``).
    case deliveries(SequenceRange)
    /// The alerts acknowledged before the recovery are forgotten: a dashboard may show them
    /// again, once.
    case acknowledgedAlerts
    /// The facts dated from `from` (included) to `to` (excluded) are lost: neither what still
    /// read of the damaged log nor the outbox held them. A day's summary, if it has one, keeps
    /// the day's totals.
    case facts(from: Date, to: Date)
    /// The interval starts dated before `before` are lost: an event of an interval that began
    /// then may be attributed to the activity's scheduled start instead.
    case intervalStarts(before: Date)
    /// The summaries of the days before `before` are lost; a day whose facts are kept is derived
    /// again from them.
    case daySummaries(before: LocalDay)
    /// Every transaction of the reward ledger before `before` is lost — earnings, redemptions,
    /// spending sessions. The rebuilt ledger holds the usage credited from the facts kept, and
    /// expires it at once, so its balance starts at zero: nothing is paid twice.
    case ledgerTransactions(before: Date)

    private enum CodingKeys: String, CodingKey {
      case kind, range, from, to, before
    }

    /// Decodes the documented JSON form.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming an unknown kind or a missing or invalid field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let kind = try container.decode(String.self, forKey: .kind)
      switch kind {
      case "deliveries":
        self = .deliveries(try container.decode(SequenceRange.self, forKey: .range))
      case "acknowledgedAlerts":
        self = .acknowledgedAlerts
      case "facts":
        let from = try container.decodeInstant(forKey: .from)
        let to = try container.decodeInstant(forKey: .to)
        guard from <= to else {
          throw DecodingError.dataCorruptedError(
            forKey: .to, in: container, debugDescription: "the end is before the start")
        }
        self = .facts(from: Milliseconds.date(from), to: Milliseconds.date(to))
      case "intervalStarts":
        self = .intervalStarts(
          before: Milliseconds.date(try container.decodeInstant(forKey: .before)))
      case "daySummaries":
        self = .daySummaries(before: try container.decode(LocalDay.self, forKey: .before))
      case "ledgerTransactions":
        self = .ledgerTransactions(
          before: Milliseconds.date(try container.decodeInstant(forKey: .before)))
      default:
        throw DecodingError.dataCorruptedError(
          forKey: .kind, in: container, debugDescription: "unknown kind \(kind.debugDescription)")
      }
    }

    /// Encodes the documented JSON form.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .deliveries(let range):
        try container.encode("deliveries", forKey: .kind)
        try container.encode(range, forKey: .range)
      case .acknowledgedAlerts:
        try container.encode("acknowledgedAlerts", forKey: .kind)
      case .facts(let from, let to):
        try container.encode("facts", forKey: .kind)
        try container.encodeInstant(Milliseconds.clampedInstant(from), forKey: .from)
        try container.encodeInstant(Milliseconds.clampedInstant(to), forKey: .to)
      case .intervalStarts(let before):
        try container.encode("intervalStarts", forKey: .kind)
        try container.encodeInstant(Milliseconds.clampedInstant(before), forKey: .before)
      case .daySummaries(let before):
        try container.encode("daySummaries", forKey: .kind)
        try container.encode(before, forKey: .before)
      case .ledgerTransactions(let before):
        try container.encode("ledgerTransactions", forKey: .kind)
        try container.encodeInstant(Milliseconds.clampedInstant(before), forKey: .before)
      }
    }
  }

  /// Which file was damaged.
  public let file: File
  /// Its store key.
  public let key: String
  /// What was wrong with it: the store's description of the error.
  public let damage: String
  /// Where its bytes were kept (for a `FileStore`, the quarantined file's path); `nil` when
  /// nothing was stored under the key any more.
  public let keptAt: String?
  let instant: Int64
  /// What the rebuild could not bring back; empty when it brought back everything.
  public let unrebuilt: [Loss]

  /// When the damage was found: the `now` of the wake or dashboard that found it.
  public var at: Date { Milliseconds.date(instant) }

  init(
    file: File, key: String, damage: String, keptAt: String?, at instant: Int64, unrebuilt: [Loss]
  ) {
    self.file = file
    self.key = key
    self.damage = damage
    self.keptAt = keptAt
    self.instant = instant
    self.unrebuilt = unrebuilt
  }

  private enum CodingKeys: String, CodingKey {
    case file, key, damage, keptAt, at, unrebuilt
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    file = try container.decode(File.self, forKey: .file)
    key = try container.decode(String.self, forKey: .key)
    damage = try container.decode(String.self, forKey: .damage)
    keptAt = try container.decodeIfPresent(String.self, forKey: .keptAt)
    instant = try container.decodeInstant(forKey: .at)
    unrebuilt = try container.decode([Loss].self, forKey: .unrebuilt)
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(file, forKey: .file)
    try container.encode(key, forKey: .key)
    try container.encode(damage, forKey: .damage)
    try container.encodeIfPresent(keptAt, forKey: .keptAt)
    try container.encodeInstant(instant, forKey: .at)
    try container.encode(unrebuilt, forKey: .unrebuilt)
  }
}
