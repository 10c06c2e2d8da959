/// A line of a JSON Lines file that is not an ActivityWatch event, and why.
///
/// Readers report every malformed line instead of skipping it silently; the line takes no part
/// in a merge.
///
/// JSON form: `{"lineNumber": 12, "reason": "missing field \"duration\""}`.
public struct MalformedLine: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The line's number, counting from 1.
  public let lineNumber: Int
  /// What is wrong with it.
  public let reason: String

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - lineNumber: The line's number, counting from 1.
  ///   - reason: What is wrong with it.
  public init(lineNumber: Int, reason: String) {
    self.lineNumber = lineNumber
    self.reason = reason
  }

  /// The report of a line longer than ``ActivityWatchJSONLines/maximumLineLength``.
  static func tooLong(lineNumber: Int, length: Int) -> MalformedLine {
    MalformedLine(
      lineNumber: lineNumber,
      reason: "\(length) bytes, longer than the limit of "
        + "\(ActivityWatchJSONLines.maximumLineLength); an event is one JSON object per line")
  }

  /// `line 12: missing field "duration"`.
  public var description: String { "line \(lineNumber): \(reason)" }

  private enum CodingKeys: String, CodingKey {
    case lineNumber, reason
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming a missing field or a line number under 1.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    lineNumber = try container.decode(Int.self, forKey: .lineNumber)
    guard lineNumber >= 1 else {
      throw DecodingError.dataCorruptedError(
        forKey: .lineNumber, in: container,
        debugDescription: "line \(lineNumber) does not exist; lines count from 1")
    }
    reason = try container.decode(String.self, forKey: .reason)
  }
}
