import Foundation
import UsageModel

extension LedgerTransaction {
  /// The transaction in `bytes` when they hold its JSON form as the package writes it — plain
  /// ASCII strings, integers, no unknown member — read without `JSONDecoder`; `nil` otherwise.
  ///
  /// An app folds its whole reward ledger at launch, thousands of these records, and the
  /// decoder's cost per object is most of that. `nil` does not mean the bytes are wrong: decode
  /// them with `JSONDecoder` then, which accepts every form this does not take (escapes,
  /// non-ASCII text) and explains what is wrong with the rest. For the bytes this accepts, the
  /// result is the decoder's.
  ///
  /// - Parameter bytes: A stored record.
  /// - Complexity: O(*n*) in the length of `bytes`.
  package init?(flatJSON bytes: Data) {
    guard let members = FlatJSON.members(of: bytes, keys: Self.memberNames) else { return nil }
    func string(_ key: Member) -> String? {
      guard case .string(let text)? = members[key.rawValue] else { return nil }
      return text
    }
    func integer(_ key: Member) -> Int64? {
      guard case .integer(let number)? = members[key.rawValue] else { return nil }
      return number
    }
    guard let id = string(.id), let at = string(.at), let type = string(.type),
      case .success(let instant) = ISO8601Instant.parse(at)
    else { return nil }
    let xp = integer(.xp).flatMap { Int(exactly: $0) }
    /// A whole, non-negative number of milliseconds, as the decoder requires of a duration.
    func milliseconds(_ key: Member) -> Duration? {
      integer(key).flatMap { $0 >= 0 ? Duration.milliseconds($0) : nil }
    }
    let kind: Kind
    switch type {
    case "earn":
      guard let xp else { return nil }
      kind = .earn(xp: xp)
    case "redeem":
      guard let xp else { return nil }
      kind = .redeem(xp: xp)
    case "startSpending":
      guard let session = string(.session), let reserve = milliseconds(.reserveMs) else {
        return nil
      }
      kind = .startSpending(session: session, reserve: reserve)
    case "endSpending":
      guard let session = string(.session), let used = milliseconds(.usedMs) else {
        return nil
      }
      kind = .endSpending(session: session, used: used)
    case "adjust":
      guard let xp, let time = integer(.timeMs), let reason = string(.reason) else {
        return nil
      }
      kind = .adjust(xp: xp, time: .milliseconds(time), reason: reason)
    case "expire":
      guard let xp, let time = milliseconds(.timeMs) else { return nil }
      kind = .expire(xp: xp, time: time)
    default:
      return nil
    }
    self.init(id: id, at: Milliseconds.date(instant), kind: kind)
  }

  /// The members of the JSON form, in the order of ``memberNames``.
  private enum Member: Int, CaseIterable {
    case id, at, type, xp, session, reserveMs, usedMs, timeMs, reason
  }

  /// The members' names, as UTF-8.
  private static let memberNames = Member.allCases.map { Array("\($0)".utf8) }
}
