import Foundation
import UsageModel

/// One fact for a reward ledger: an identifier, an instant, and what happened.
///
/// Every transaction carries an ``id`` chosen by the caller — a UUID, or the identifier of the
/// task that earned the XP — so that applying it again (a retry, a re-sync, a re-delivered
/// notification) is recognised and changes nothing.
///
/// JSON form: `{"id": "task-42", "at": "2026-01-02T10:30:00Z", "type": "earn", "xp": 50}`, with
/// the fields of each type:
///
/// | type | fields |
/// |---|---|
/// | `earn` | `xp` |
/// | `redeem` | `xp` |
/// | `startSpending` | `session`, `reserveMs` |
/// | `endSpending` | `session`, `usedMs` |
/// | `adjust` | `xp`, `timeMs` (both signed), `reason` |
/// | `expire` | `xp`, `timeMs` |
public struct LedgerTransaction: Sendable, Hashable, Codable, Identifiable {
  /// What a transaction does.
  public enum Kind: Sendable, Hashable {
    /// Earn experience points (subject to the ledger's daily cap, if any).
    case earn(xp: Int)
    /// Convert XP into time at the ledger's rate; XP short of a whole unit stays as credit.
    case redeem(xp: Int)
    /// Open a spending session, moving `reserve` from available to reserved time.
    case startSpending(session: String, reserve: Duration)
    /// Close a spending session: charge `used`, refund the rest of the reservation.
    case endSpending(session: String, used: Duration)
    /// Correct the balance by signed amounts, with a reason for the audit trail.
    case adjust(xp: Int, time: Duration, reason: String)
    /// Remove XP and time that expired.
    case expire(xp: Int, time: Duration)
  }

  /// The caller's identifier; applying a transaction with a known identifier again is a no-op.
  public let id: String
  /// When it happened; rounded to the millisecond when the ledger records it.
  public let at: Date
  /// What it does.
  public let kind: Kind

  /// Creates a transaction.
  ///
  /// - Parameters:
  ///   - id: The caller's identifier, not empty.
  ///   - at: When it happened.
  ///   - kind: What it does.
  public init(id: String, at: Date, kind: Kind) {
    self.id = id
    self.at = at
    self.kind = kind
  }

  private enum CodingKeys: String, CodingKey {
    case id, at, type, xp, session, reserveMs, usedMs, timeMs, reason
  }

  /// Decodes the documented JSON form.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field, or an unknown type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    at = Milliseconds.date(try container.decodeInstant(forKey: .at))
    switch try container.decode(String.self, forKey: .type) {
    case "earn":
      kind = .earn(xp: try container.decode(Int.self, forKey: .xp))
    case "redeem":
      kind = .redeem(xp: try container.decode(Int.self, forKey: .xp))
    case "startSpending":
      kind = .startSpending(
        session: try container.decode(String.self, forKey: .session),
        reserve: try container.decodeMilliseconds(forKey: .reserveMs))
    case "endSpending":
      kind = .endSpending(
        session: try container.decode(String.self, forKey: .session),
        used: try container.decodeMilliseconds(forKey: .usedMs))
    case "adjust":
      kind = .adjust(
        xp: try container.decode(Int.self, forKey: .xp),
        time: .milliseconds(try container.decode(Int64.self, forKey: .timeMs)),
        reason: try container.decode(String.self, forKey: .reason))
    case "expire":
      kind = .expire(
        xp: try container.decode(Int.self, forKey: .xp),
        time: try container.decodeMilliseconds(forKey: .timeMs))
    case let other:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container,
        debugDescription: "unknown transaction type \(other.debugDescription)")
    }
  }

  /// Encodes the documented JSON form.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError` for an instant out of range or a time that is not a whole number
  ///   of milliseconds.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    guard let instant = Milliseconds.instant(at) else {
      throw EncodingError.invalidValue(
        at,
        .init(codingPath: container.codingPath + [CodingKeys.at], debugDescription: "out of range"))
    }
    try container.encodeInstant(instant, forKey: .at)
    switch kind {
    case .earn(let xp):
      try container.encode("earn", forKey: .type)
      try container.encode(xp, forKey: .xp)
    case .redeem(let xp):
      try container.encode("redeem", forKey: .type)
      try container.encode(xp, forKey: .xp)
    case .startSpending(let session, let reserve):
      try container.encode("startSpending", forKey: .type)
      try container.encode(session, forKey: .session)
      try container.encodeMilliseconds(reserve, forKey: .reserveMs)
    case .endSpending(let session, let used):
      try container.encode("endSpending", forKey: .type)
      try container.encode(session, forKey: .session)
      try container.encodeMilliseconds(used, forKey: .usedMs)
    case .adjust(let xp, let time, let reason):
      try container.encode("adjust", forKey: .type)
      try container.encode(xp, forKey: .xp)
      guard Milliseconds.isWhole(time), let milliseconds = Milliseconds.amount(time) else {
        throw EncodingError.invalidValue(
          time,
          .init(
            codingPath: container.codingPath + [CodingKeys.timeMs],
            debugDescription: "not a whole number of milliseconds"))
      }
      try container.encode(milliseconds, forKey: .timeMs)
      try container.encode(reason, forKey: .reason)
    case .expire(let xp, let time):
      try container.encode("expire", forKey: .type)
      try container.encode(xp, forKey: .xp)
      try container.encodeMilliseconds(time, forKey: .timeMs)
    }
  }
}
