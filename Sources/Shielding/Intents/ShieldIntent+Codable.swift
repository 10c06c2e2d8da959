import BudgetMath
import Foundation
import UsageModel

extension ShieldIntent {
  private enum CodingKeys: String, CodingKey {
    case id, at, type, profile, profileID, session, profiles, focusMs, event, breakLengthMs
    case durationMs, mode, until, name, status
  }

  /// Decodes the documented JSON form and checks it as ``init(id:at:action:)`` does.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field or an unknown type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let id = try container.decode(String.self, forKey: .id)
    let at = Milliseconds.date(try container.decodeInstant(forKey: .at))
    func until() throws -> Date { Milliseconds.date(try container.decodeInstant(forKey: .until)) }
    let action: Action
    switch try container.decode(String.self, forKey: .type) {
    case "setProfile":
      action = .setProfile(try container.decode(ShieldProfile<Token>.self, forKey: .profile))
    case "removeProfile":
      action = .removeProfile(id: try container.decode(String.self, forKey: .profileID))
    case "startFocus":
      action = .startFocus(
        session: try container.decode(String.self, forKey: .session),
        profiles: try container.decode([String].self, forKey: .profiles),
        focus: try container.decodeMilliseconds(forKey: .focusMs))
    case "focus":
      action = .focus(
        session: try container.decode(String.self, forKey: .session),
        event: try container.decode(FocusEventKind.self, forKey: .event),
        breakLength: container.contains(.breakLengthMs)
          ? try container.decodeMilliseconds(forKey: .breakLengthMs) : nil)
    case "earnedTime":
      action = .earnedTime(
        session: try container.decode(String.self, forKey: .session),
        duration: try container.decodeMilliseconds(forKey: .durationMs),
        profiles: try container.decodeIfPresent([String].self, forKey: .profiles))
    case "override":
      action = .override(
        profileID: try container.decode(String.self, forKey: .profileID),
        mode: try container.decode(ShieldOverrideMode.self, forKey: .mode), until: try until())
    case "budget":
      action = .budget(
        name: try container.decode(String.self, forKey: .name),
        status: try container.decode(BudgetStatus.self, forKey: .status), until: try until())
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "unknown intent type \(other)")
    }
    do {
      try self.init(id: id, at: at, action: action)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: error.description)
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encodeInstant(Milliseconds.instant(at) ?? 0, forKey: .at)
    func until(_ date: Date) throws {
      try container.encodeInstant(Milliseconds.instant(date) ?? Milliseconds.latest, forKey: .until)
    }
    switch action {
    case .setProfile(let profile):
      try container.encode("setProfile", forKey: .type)
      try container.encode(profile, forKey: .profile)
    case .removeProfile(let profileID):
      try container.encode("removeProfile", forKey: .type)
      try container.encode(profileID, forKey: .profileID)
    case .startFocus(let session, let profiles, let focus):
      try container.encode("startFocus", forKey: .type)
      try container.encode(session, forKey: .session)
      try container.encode(profiles, forKey: .profiles)
      try container.encodeMilliseconds(focus, forKey: .focusMs)
    case .focus(let session, let event, let breakLength):
      try container.encode("focus", forKey: .type)
      try container.encode(session, forKey: .session)
      try container.encode(event, forKey: .event)
      if let breakLength { try container.encodeMilliseconds(breakLength, forKey: .breakLengthMs) }
    case .earnedTime(let session, let duration, let profiles):
      try container.encode("earnedTime", forKey: .type)
      try container.encode(session, forKey: .session)
      try container.encodeMilliseconds(duration, forKey: .durationMs)
      try container.encodeIfPresent(profiles, forKey: .profiles)
    case .override(let profileID, let mode, let date):
      try container.encode("override", forKey: .type)
      try container.encode(profileID, forKey: .profileID)
      try container.encode(mode, forKey: .mode)
      try until(date)
    case .budget(let name, let status, let date):
      try container.encode("budget", forKey: .type)
      try container.encode(name, forKey: .name)
      try container.encode(status, forKey: .status)
      try until(date)
    }
  }
}
