import Foundation
import SharedStore
import UsageModel

/// One past local day's usage, kept so that a month's budget reads one summary per past day
/// instead of the day's facts, and still after the facts expire.
///
/// A summary is written once its day is closed: no interval that overlaps it can gain another
/// event (`now` is past ``through``). A fact drained later that a derivation of the day would
/// read (dated up to ``through``) marks the summary stale, in the same log, before the cursor
/// commits; the next wake derives the day again. A summary made under another configuration
/// (``configuration`` differs) is derived again while the day's facts are kept, and used as it
/// is once they are gone: an expired day keeps the totals it had.
///
/// JSON form, one record of the log `<appStateKey>.days` each: `{"day": "2026-03-08",
/// "configuration": "9f1c…", "through": "2026-03-09T00:59:00Z", "upper": DailyUsage, "lower":
/// DailyUsage, "uncategorized": ["com.example", …]}`, or `{"day": "2026-03-08", "stale": true}`.
struct DaySummary: Sendable, Hashable, Codable {
  /// The local day, in the configuration's day boundary.
  var day: LocalDay
  /// The digest of the configuration it was derived with (``PipelineConfiguration/digest``);
  /// `nil` for a stale mark.
  var configuration: String?
  /// The last instant a derivation of the day reads; `nil` for a stale mark.
  var through: Date?
  /// The day's usage within the upper bound.
  var upper: DailyUsage?
  /// The day's usage within the lower bound.
  var lower: DailyUsage?
  /// The day's apps that no category rule matched.
  var uncategorized: [AppID]?
  /// Whether this record marks the day's last summary stale.
  var stale: Bool?

  /// A summary of `day`.
  init(
    day: LocalDay, configuration: String, through: Date, upper: DailyUsage, lower: DailyUsage,
    uncategorized: [AppID]
  ) {
    self.day = day
    self.configuration = configuration
    self.through = through
    self.upper = upper
    self.lower = lower
    self.uncategorized = uncategorized
  }

  /// A mark that `day`'s last summary is stale.
  init(staleDay day: LocalDay) {
    self.day = day
    stale = true
  }

  /// The latest summary of each day in `records`, stale marks dropping the summary before them.
  static func latest(_ records: [DaySummary]) -> [LocalDay: DaySummary] {
    var latest: [LocalDay: DaySummary] = [:]
    for record in records {
      latest[record.day] = record.stale == true ? nil : record
    }
    return latest
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
