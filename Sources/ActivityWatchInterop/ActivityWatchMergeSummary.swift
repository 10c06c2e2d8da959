/// What a merge of an ActivityWatch JSON Lines file read, wrote and rejected.
///
/// JSON form: `{"linesRead": 1000000, "heartbeatsRead": 999998, "eventsWritten": 3120,
/// "malformedLineCount": 2, "malformedLines": [MalformedLine, …]}`.
public struct ActivityWatchMergeSummary: Sendable, Hashable, Codable {
  /// Lines read, malformed ones included.
  public var linesRead = 0
  /// Lines that were valid events and took part in the merge.
  public var heartbeatsRead = 0
  /// Merged events written.
  public var eventsWritten = 0
  /// Every malformed line counted, even beyond those listed.
  public var malformedLineCount = 0
  /// The first malformed lines, up to the limit the caller chose, in file order.
  public var malformedLines: [MalformedLine] = []

  /// Creates an empty summary.
  public init() {}

  private enum CodingKeys: String, CodingKey {
    case linesRead, heartbeatsRead, eventsWritten, malformedLineCount, malformedLines
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing field or a negative count.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    func count(_ key: CodingKeys) throws -> Int {
      let count = try container.decode(Int.self, forKey: key)
      guard count >= 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "\(count) is a negative count")
      }
      return count
    }
    linesRead = try count(.linesRead)
    heartbeatsRead = try count(.heartbeatsRead)
    eventsWritten = try count(.eventsWritten)
    malformedLineCount = try count(.malformedLineCount)
    malformedLines = try container.decode([MalformedLine].self, forKey: .malformedLines)
  }

  /// Whether every line was a valid event.
  public var isClean: Bool { malformedLineCount == 0 }
}

/// The events of an ActivityWatch JSON Lines text and the lines that were not events.
///
/// JSON form is not defined: ``ActivityWatchEvent`` has ActivityWatch's own line form.
public struct ActivityWatchReadResult: Sendable, Hashable {
  /// The valid events, in file order.
  public var events: [ActivityWatchEvent]
  /// Every malformed line counted, even beyond those listed.
  public var malformedLineCount: Int
  /// The first malformed lines, up to the limit the caller chose, in file order.
  public var malformedLines: [MalformedLine]
  /// Lines read, malformed ones included.
  public var linesRead: Int
}
