import Foundation
import UsageModel

/// A stretch of one day during which apps of one category were in use, for the timeline.
///
/// JSON form: `{"category": "education", "start": "2026-03-08T09:00:00Z", "end":
/// "2026-03-08T09:03:00Z"}`.
public struct UsageBlock: Sendable, Hashable, Codable {
  /// The category in use.
  public let category: AppCategory
  let startInstant: Int64
  let endInstant: Int64

  init(category: AppCategory, start: Int64, end: Int64) {
    self.category = category
    startInstant = start
    endInstant = end
  }

  /// Where the block starts.
  public var start: Date { Milliseconds.date(startInstant) }
  /// Where it ends.
  public var end: Date { Milliseconds.date(endInstant) }
  /// How long it lasts, exactly.
  public var duration: Duration { .milliseconds(endInstant - startInstant) }
  /// The block's interval, from ``start`` to ``end``; its exact length is ``duration``.
  public var interval: DateInterval { TimeValues.interval(startInstant, endInstant) }

  /// The union of each category's records within `[low, high)`, sorted by category then start.
  static func blocks(
    of records: [UsageRecord], rules: CategoryRules, from low: Int64, to high: Int64
  ) -> [UsageBlock] {
    var spans: [AppCategory: [(Int64, Int64)]] = [:]
    for record in records {
      let (start, end) = TimeValues.bounds(of: DateInterval(start: record.start, end: record.end))
      let clippedStart = max(start, low)
      let clippedEnd = min(end, high)
      guard clippedEnd > clippedStart else { continue }
      spans[record.category ?? rules.category(for: record.app), default: []].append(
        (clippedStart, clippedEnd))
    }
    var blocks: [UsageBlock] = []
    for category in spans.keys.sorted() {
      var open: (Int64, Int64)?
      for span in (spans[category] ?? []).sorted(by: { $0.0 < $1.0 }) {
        if let current = open, span.0 <= current.1 {
          open = (current.0, max(current.1, span.1))
        } else {
          if let current = open {
            blocks.append(UsageBlock(category: category, start: current.0, end: current.1))
          }
          open = span
        }
      }
      if let current = open {
        blocks.append(UsageBlock(category: category, start: current.0, end: current.1))
      }
    }
    return blocks
  }

  private enum CodingKeys: String, CodingKey {
    case category
    case start
    case end
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    category = try container.decode(AppCategory.self, forKey: .category)
    startInstant = try container.decodeInstant(forKey: .start)
    endInstant = try container.decodeInstant(forKey: .end)
    guard endInstant >= startInstant else {
      throw DecodingError.dataCorruptedError(
        forKey: .end, in: container, debugDescription: "end is before start")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(category, forKey: .category)
    try container.encodeInstant(startInstant, forKey: .start)
    try container.encodeInstant(endInstant, forKey: .end)
  }
}
