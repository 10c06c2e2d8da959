import Foundation
import UsageModel

/// Why a target is shielded: which source of which profile requires it, and until when.
///
/// For the app's UI: "blocked by Focus until 14:30", "Social Media budget used up today".
///
/// JSON form: `{"source": "focus", "profile": "social", "name": "deep-work", "until":
/// "2026-03-09T14:30:00Z"}`, `until` absent when unknown (an open-ended break, a lock held after
/// an error).
public struct ShieldReason: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// The kind of source that requires a shield.
  ///
  /// JSON form: the raw value, for example `"budget"`.
  public enum Source: String, Sendable, Hashable, Codable, CaseIterable {
    /// A daily window or timer of the profile; `name` is the schedule's.
    case schedule
    /// An active focus session naming the profile; `name` is the session's.
    case focus
    /// A budget of the profile with no time left; `name` is the budget's.
    case budget
    /// A manual lock of the profile; `name` is the override intent's identifier.
    case lock
    /// A shield kept because of an error (see ``ShieldDiagnostic``); `name` says which.
    case heldAfterError
  }

  /// The kind of source.
  public let source: Source
  /// The profile whose source it is.
  public let profile: String
  /// The schedule, session, budget or intent.
  public let name: String
  /// When this source stops requiring the shield if nothing else happens; `nil` when unknown.
  public let until: Date?

  /// Creates a reason.
  ///
  /// - Parameters:
  ///   - source: The kind of source.
  ///   - profile: The profile whose source it is.
  ///   - name: The schedule, session, budget or intent.
  ///   - until: When it stops requiring the shield, if known.
  public init(source: Source, profile: String, name: String, until: Date?) {
    self.source = source
    self.profile = profile
    self.name = name
    self.until = until
  }

  /// A short English sentence.
  ///
  /// For example `focus deep-work (profile social) until 2026-03-09T14:30:00Z`.
  public var description: String {
    let end = until.flatMap(Milliseconds.instant).map { " until \(ISO8601Instant.format($0))" }
    return "\(source.rawValue) \(name) (profile \(profile))\(end ?? "")"
  }

  /// Orders reasons by source, profile, name, then end.
  ///
  /// - Parameters:
  ///   - lhs: A reason.
  ///   - rhs: Another reason.
  /// - Returns: Whether `lhs` sorts first.
  public static func < (lhs: ShieldReason, rhs: ShieldReason) -> Bool {
    let left = (Source.allCases.firstIndex(of: lhs.source) ?? 0, lhs.profile, lhs.name)
    let right = (Source.allCases.firstIndex(of: rhs.source) ?? 0, rhs.profile, rhs.name)
    if left != right { return left < right }
    return (lhs.until ?? .distantFuture) < (rhs.until ?? .distantFuture)
  }

  private enum CodingKeys: String, CodingKey {
    case source, profile, name, until
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    source = try container.decode(Source.self, forKey: .source)
    profile = try container.decode(String.self, forKey: .profile)
    name = try container.decode(String.self, forKey: .name)
    until =
      container.contains(.until)
      ? Milliseconds.date(try container.decodeInstant(forKey: .until)) : nil
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(source, forKey: .source)
    try container.encode(profile, forKey: .profile)
    try container.encode(name, forKey: .name)
    if let until, let instant = Milliseconds.instant(until) {
      try container.encodeInstant(instant, forKey: .until)
    }
  }
}
