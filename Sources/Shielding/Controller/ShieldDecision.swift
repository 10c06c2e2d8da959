import Foundation

/// What a monitor extension's callback must apply: the stores to write and to clear, and when
/// to wake up next.
///
/// Apply ``writes`` and ``clears`` to the `ManagedSettingsStore`s named by
/// ``ShieldController/storeName(_:)``, set `shield.applicationCategories = .all()` in store 0
/// while ``ShieldState/shieldsAllCategories``, then call ``ShieldController/markApplied(_:)``.
/// A decision derived right after that one is applied writes and clears nothing.
///
/// A decision that changes anything was recorded as pending before it was returned (see
/// ``ShieldController/decide(now:)``), so that applying it and never marking it applied — the
/// process killed in between, or ``ShieldController/markApplied(_:)`` throwing — lifts nothing:
/// the next decision writes or clears every store this one changes.
public struct ShieldDecision<Token: ShieldToken>: Sendable, Hashable {
  /// The state to have applied once this decision is.
  public let state: ShieldState<Token>
  /// The stores whose contents changed, by index, ascending, with each store a decision not
  /// marked applied may have changed.
  public let writes: [ShieldStoreWrite<Token>]
  /// The indices of stores that must now shield nothing, ascending.
  public let clears: [Int]
  /// Whether to set `shield.applicationCategories` in store 0 as
  /// ``ShieldState/shieldsAllCategories`` says: it differs from what was applied, or a decision
  /// not marked applied may have changed it.
  public let allCategoriesChanged: Bool
  /// When the state next changes, to start the next DeviceActivity interval then.
  ///
  /// `nil` when nothing the intents say changes it again.
  public let nextChange: Date?
  /// Whether ``ShieldController/markApplied(_:)`` records this decision; `false` when the
  /// intents could not be read, so that the next callback tries again.
  public let isRecordable: Bool
  /// Whether the applied state could not be read, so that ``ShieldController/markApplied(_:)``
  /// must write it even when nothing changes.
  let replacesUnreadableState: Bool

  /// What went wrong, each worked around without lifting a shield.
  public var diagnostics: [ShieldDiagnostic] { state.diagnostics }

  /// Whether applying the decision changes nothing.
  public var changesNothing: Bool { writes.isEmpty && clears.isEmpty && !allCategoriesChanged }

  /// The indices of the stores it writes or clears, ascending.
  var changedStores: [Int] { (writes.map(\.index) + clears).sorted() }

  /// The same decision with its state at `instant`.
  func at(_ instant: Date) -> ShieldDecision {
    ShieldDecision(
      state: ShieldState(
        instant: instant, targets: state.targets, stores: state.stores,
        shieldsAllCategories: state.shieldsAllCategories, diagnostics: state.diagnostics),
      writes: writes, clears: clears, allCategoriesChanged: allCategoriesChanged,
      nextChange: nextChange, isRecordable: isRecordable,
      replacesUnreadableState: replacesUnreadableState)
  }
}

/// One store to write: its index and its whole contents.
public struct ShieldStoreWrite<Token: ShieldToken>: Sendable, Hashable {
  /// The store's index; its name is ``ShieldController/storeName(_:)``.
  public let index: Int
  /// What it must shield, replacing what it shielded.
  public let store: ShieldStore<Token>
}
