import BudgetMath
import SequenceTracking
import SharedStore
import TrackerSignals
import UsageModel

/// Everything the app side of the pipeline can fail at, with the module error that says why.
///
/// A call that throws changes nothing: a drain applies nothing and leaves the cursor where it
/// was, a dashboard reports no alert as raised — with two exceptions, inherited from the store,
/// after which something was changed but may not survive a power cut:
/// - ``sequence(_:)`` carrying `SequenceTrackingError.notDurable(committed:key:path:errno:)`:
///   what its `committed` says was done (a drain applied, the state changed, a damaged outbox
///   moved aside and its recovery recorded — after which a wake also drained, if a drain was
///   due, and recorded the ended epoch in the state);
/// - ``store(_:)`` carrying `SharedStoreError.notDurable(key:path:errno:)`: the change to `key`
///   is in place — facts appended to a day log, a transaction appended to the ledger, or a
///   damaged file of the app side moved to `path`, rebuilt and its recovery recorded — and the
///   call stopped there. Do not make that change again yourself; the next call that needs it
///   goes on from it (a wake drains what is left, a transaction's identifier keeps it from
///   applying twice, a healed file is read as it is).
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The shared store failed.
  case store(SharedStoreError)
  /// Draining the outbox failed.
  case sequence(SequenceTrackingError)
  /// Reading heartbeats or the diagnostic log failed.
  case signals(TrackerSignalsError)
  /// A budget, alert or ledger computation rejected its input (for example a plan that does not
  /// cover the day, or an overdraft).
  case budget(BudgetMathError)
  /// A usage value was out of range (for example a day outside the supported range).
  case usage(UsageModelError)
  /// A setting of the ``PipelineConfiguration`` is outside its allowed range.
  case invalidConfiguration(field: String, value: String, requirement: String)

  /// The underlying store error, when the failure comes from the shared store.
  public var storeError: SharedStoreError? {
    switch self {
    case .store(let error): return error
    case .sequence(let error): return error.storeError
    case .signals(let error): return error.storeError
    case .budget, .usage, .invalidConfiguration: return nil
    }
  }

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .store(let error): return error.description
    case .sequence(let error): return error.description
    case .signals(let error): return error.description
    case .budget(let error): return error.description
    case .usage(let error): return error.description
    case .invalidConfiguration(let field, let value, let requirement):
      return "Invalid pipeline setting \(field) \(value): \(requirement)."
    }
  }
}
