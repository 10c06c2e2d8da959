import Foundation
import SharedStore

/// What a ``ShieldController`` remembers between an extension's callbacks, so that a callback
/// whose inputs did not change decodes and derives nothing.
///
/// Every entry is keyed by what it was computed from: the intents' derivation by the log's
/// change token, the applied record by its key's change token, and the targets by the interval
/// `[from, until)` in which ``ShieldDerivation/nextChange(after:)`` proved them constant. A
/// stale entry is never used; a process that starts afresh recomputes everything.
final class ShieldMemory<Token: ShieldToken>: Sendable {
  struct Intents {
    let token: ChangeToken?
    let derivation: ShieldDerivation<Token>
    let evicted: UInt64
  }

  struct Applied {
    let token: ChangeToken?
    let record: ShieldAppliedRecord<Token>?
  }

  /// Targets that hold from `from` until just before `until` (forever when `nil`).
  struct Targets {
    let token: ChangeToken?
    let from: Date
    let until: Date?
    let targets: [ShieldedTarget<Token>]

    func covers(_ instant: Date, token current: ChangeToken?) -> Bool {
      token == current && from <= instant && until.map { instant < $0 } ?? true
    }
  }

  /// The last decision, and what it was made from.
  ///
  /// Made from the keys' change tokens and the start of the targets' constant interval: the
  /// same inputs give the same decision at any instant of that interval, but for the state's
  /// instant.
  struct Decided {
    let applied: ChangeToken?
    let intents: ChangeToken?
    let from: Date
    let decision: ShieldDecision<Token>
  }

  struct Value {
    var intents: Intents?
    var applied: Applied?
    var targets: Targets?
    var decided: Decided?
  }

  private let value = LockedValue(Value())

  var current: Value { value.withLock { $0 } }

  func update(_ body: (inout Value) -> Void) { value.withLock { body(&$0) } }
}
