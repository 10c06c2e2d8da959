import Foundation

/// What the monitor extension recorded of the shields it applies: the state last marked
/// applied, and the decision being applied since, if any.
///
/// ``ShieldController/decide(now:)`` writes a decision ahead, as ``pending``, before returning
/// one that changes a store, and ``ShieldController/markApplied(_:)`` makes its state
/// ``applied`` and drops ``pending``. A process killed between the two leaves the record
/// pending: each store the pending decision writes or clears may then hold its old content, its
/// new one or, after several such kills, an earlier decision's, and the next decision writes or
/// clears it whatever it holds. The stores the pending decision does not touch hold what
/// ``applied`` says.
///
/// JSON form, stored under `SharedFolderLayout.shieldAppliedKey`: `{"applied": ShieldState,
/// "pending": {"state": ShieldState, "changedStores": [0, 2], "changesAllCategories": false}}`;
/// `applied` is omitted before the first decision is marked applied, `pending` when none is
/// being applied.
public struct ShieldAppliedRecord<Token: ShieldToken>: Sendable, Hashable, Codable {
  /// The state last marked applied, or `nil` before the first: the device then holds nothing
  /// in the stores named by ``ShieldController/storeName(_:)``.
  public let applied: ShieldState<Token>?
  /// The decision written ahead and not yet marked applied, if any.
  public let pending: Pending?

  /// A decision written ahead of being applied.
  ///
  /// JSON form: `{"state": ShieldState, "changedStores": [index, …], "changesAllCategories":
  /// Bool}`.
  public struct Pending: Sendable, Hashable, Codable {
    /// The state the decision applies.
    public let state: ShieldState<Token>
    /// The indices of the stores it writes or clears, ascending: until it is marked applied,
    /// each may hold anything this controller wrote to it.
    ///
    /// They include every store a pending decision before it touched, so that a second kill
    /// leaves no store the record calls known that the device may hold otherwise.
    public let changedStores: [Int]
    /// Whether it sets `shield.applicationCategories`, which may then be either value.
    public let changesAllCategories: Bool

    /// Creates a pending decision.
    ///
    /// - Parameters:
    ///   - state: The state the decision applies.
    ///   - changedStores: The indices of the stores it writes or clears.
    ///   - changesAllCategories: Whether it sets `shield.applicationCategories`.
    public init(state: ShieldState<Token>, changedStores: [Int], changesAllCategories: Bool) {
      self.state = state
      self.changedStores = changedStores
      self.changesAllCategories = changesAllCategories
    }

    /// Whether `decision` makes this change: the same stores and categories, written or
    /// cleared in the same stores, whatever its instant and reasons.
    func isSameChange(as decision: ShieldDecision<Token>) -> Bool {
      state.stores == decision.state.stores
        && state.shieldsAllCategories == decision.state.shieldsAllCategories
        && changedStores == decision.changedStores
        && changesAllCategories == decision.allCategoriesChanged
    }
  }

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - applied: The state last marked applied, if any.
  ///   - pending: The decision being applied, if any.
  public init(applied: ShieldState<Token>?, pending: Pending? = nil) {
    self.applied = applied
    self.pending = pending
  }

  private enum CodingKeys: String, CodingKey {
    case applied, pending
  }

  /// Decodes the documented JSON form.
  ///
  /// A record holds at least one of its fields: bytes with neither (a bare ``ShieldState``, say)
  /// are not read as "nothing applied", which would let stores applied earlier go unnoticed.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    applied = try container.decodeIfPresent(ShieldState<Token>.self, forKey: .applied)
    pending = try container.decodeIfPresent(Pending.self, forKey: .pending)
    guard applied != nil || pending != nil else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "A shield record holds \"applied\", \"pending\" or both."))
    }
  }

  // MARK: - What the next decision starts from

  /// The stores' contents where they are known; a store in ``unsureStores`` may hold anything.
  var knownStores: [ShieldStore<Token>] { applied?.stores ?? [] }

  /// The stores a pending decision may or may not have written or cleared.
  var unsureStores: Set<Int> { Set(pending?.changedStores ?? []) }

  /// Whether every category is shielded, where ``unsureAllCategories`` is `false`.
  var knownAllCategories: Bool { applied?.shieldsAllCategories ?? false }

  /// Whether `shield.applicationCategories` may be either value.
  var unsureAllCategories: Bool { pending?.changesAllCategories ?? false }

  /// The most recent state decided: the pending one, else the applied one.
  ///
  /// Targets keep the stores it gives them, so that a decision repeated after a kill changes no
  /// other store.
  var latest: ShieldState<Token>? { pending?.state ?? applied }

  /// Everything the device may shield, with the latest instant of either state: what an error
  /// holds.
  var held: ShieldState<Token>? {
    guard let pending else { return applied }
    guard let applied else { return pending.state }
    return ShieldState(
      instant: max(applied.instant, pending.state.instant),
      targets: ShieldDerivation.union(pending.state.targets, applied.targets),
      stores: pending.state.stores,
      shieldsAllCategories: applied.shieldsAllCategories || pending.state.shieldsAllCategories,
      diagnostics: [])
  }
}
