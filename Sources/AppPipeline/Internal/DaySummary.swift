import Foundation
import SharedStore
import UsageModel

/// One past local day's usage, kept so that a month's budget reads one summary per past day
/// instead of the day's facts, and still after the facts expire.
///
/// A summary is written once its day is closed: no interval that overlaps it can gain another
/// event (`now` is past its `through`). A fact drained later that a derivation of the day would
/// read (dated up to `through`) marks the summary stale, in the same log, before the cursor
/// commits; the next wake derives the day again. A summary made under another configuration
/// (its `configuration` differs) is derived again while the day's facts are kept, and used as
/// it is once they are gone: an expired day keeps the totals it had.
///
/// **Record**, one of the log `<appStateKey>.days` each: three JSON texts, each on its own line
/// (JSON written without a line break inside), so that a reader parses only the part it needs —
/// every wake reads the headers, a dashboard one bound's usage of its month's days:
///
/// ```text
/// {"configuration":"9f1c…","day":"2026-03-08","through":"2026-03-09T00:59:00Z","uncategorized":["com.example"]}
/// DailyUsage within the upper bound
/// DailyUsage within the lower bound
/// ```
///
/// or a stale mark, one line: `{"day":"2026-03-08","stale":true}`.
struct DaySummary: Sendable, Hashable {
  /// The day, how and through when it was derived, or the stale mark.
  var header: Header
  /// The day's usage within the upper bound; `nil` for a stale mark.
  var upper: DailyUsage?
  /// The day's usage within the lower bound; `nil` for a stale mark.
  var lower: DailyUsage?

  /// A summary of `day`.
  init(
    day: LocalDay, configuration: String, through: Int64, upper: DailyUsage, lower: DailyUsage,
    uncategorized: [AppID]
  ) {
    header = Header(
      day: day, configuration: configuration, through: through, uncategorized: uncategorized)
    self.upper = upper
    self.lower = lower
  }

  /// A mark that `day`'s last summary is stale.
  init(staleDay day: LocalDay) {
    header = Header(day: day, stale: true)
  }

  /// The record's bytes: the header's line, then, for a summary, the two bounds' lines.
  ///
  /// - Throws: `EncodingError` from the encoder.
  func record() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var record = try encoder.encode(header)
    for usage in [upper, lower] {
      guard let usage else { continue }
      record.append(UInt8(ascii: "\n"))
      record.append(try encoder.encode(usage))
    }
    return record
  }

  /// The record's `index`th line (0: the header, 1: the upper bound, 2: the lower bound);
  /// empty when the record has fewer.
  static func line(_ index: Int, of record: Data) -> Data {
    let bounds = record.withUnsafeBytes { bytes -> Range<Int>? in
      var start = 0
      for _ in 0..<index {
        guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
          return nil
        }
        start = newline + 1
      }
      return start..<(bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count)
    }
    guard let bounds else { return Data() }
    return record.subdata(
      in: (record.startIndex + bounds.lowerBound)..<(record.startIndex + bounds.upperBound))
  }

  /// One bound's usage of a summary, with the day's uncategorized apps: what a dashboard reads
  /// of its month's past days, within the bound its budgets restrict by.
  struct BoundUsage: Sendable, Hashable {
    var usage: DailyUsage
    var uncategorized: [AppID]
  }

  /// What every reader needs of a record: its day, and how and through when it was made, or
  /// that it is a stale mark.
  struct Header: Sendable, Hashable, Codable {
    /// The local day, in the configuration's day boundary.
    var day: LocalDay
    /// The digest of the configuration it was derived with (``PipelineConfiguration/digest``);
    /// `nil` for a stale mark.
    var configuration: String?
    /// The last instant a derivation of the day reads, in milliseconds since 1970; `nil` for a
    /// stale mark.
    var through: Int64?
    /// The day's apps that no category rule matched, within the upper bound.
    var uncategorized: [AppID]?
    /// Whether this record marks the day's last summary stale.
    var stale: Bool?

    init(
      day: LocalDay, configuration: String? = nil, through: Int64? = nil,
      uncategorized: [AppID]? = nil, stale: Bool? = nil
    ) {
      self.day = day
      self.configuration = configuration
      self.through = through
      self.uncategorized = uncategorized
      self.stale = stale
    }

    /// Whether the record is a summary rather than a stale mark.
    var isSummary: Bool { stale != true && configuration != nil && through != nil }

    private enum CodingKeys: String, CodingKey {
      case day, configuration, through, uncategorized, stale
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      day = try container.decode(LocalDay.self, forKey: .day)
      configuration = try container.decodeIfPresent(String.self, forKey: .configuration)
      through =
        try container.contains(.through) ? container.decodeInstant(forKey: .through) : nil
      uncategorized = try container.decodeIfPresent([AppID].self, forKey: .uncategorized)
      stale = try container.decodeIfPresent(Bool.self, forKey: .stale)
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(day, forKey: .day)
      try container.encodeIfPresent(configuration, forKey: .configuration)
      if let through { try container.encodeInstant(through, forKey: .through) }
      try container.encodeIfPresent(uncategorized, forKey: .uncategorized)
      try container.encodeIfPresent(stale, forKey: .stale)
    }
  }
}

extension PipelineConfiguration {
  /// A digest of the configuration's JSON form.
  ///
  /// Two configurations with the same digest derive the same usage from the same facts.
  /// 64-bit FNV-1a, in hexadecimal; not a security measure. `nil` when the configuration does
  /// not encode (it always does): then no summary matches it, and every day is derived from its
  /// facts.
  var digest: String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let bytes: Data
    do {
      bytes = try encoder.encode(self)
    } catch {
      return nil
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
