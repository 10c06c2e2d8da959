import Foundation
import SharedStore
import TrackerSignals

extension ShieldController {

  /// What to apply at `now`, against what was last applied.
  ///
  /// Keep one controller for the extension's process (a property of the
  /// `DeviceActivityMonitor` subclass): it remembers the decoded intents, the applied state and
  /// the targets between callbacks, keyed by the keys' change tokens and by the interval in
  /// which the targets cannot change, so that a callback whose inputs did not change reads two
  /// change tokens and derives nothing.
  ///
  /// - Parameter now: The current instant (the outermost caller reads the clock).
  /// - Returns: The decision; errors are reported in it, never thrown, and never lift a shield.
  /// - Complexity: O(1) when nothing changed since the last decision; otherwise O(*n* log *n*)
  ///   in the intents, plus ``ShieldDerivation/nextChange(after:)``.
  public func decide(now: Date) -> ShieldDecision<Token> {
    var diagnostics: [ShieldDiagnostic] = []
    var previous: ShieldState<Token>?
    var appliedToken: ChangeToken?
    var previousKnown = true
    do {
      (appliedToken, previous) = try appliedState()
    } catch {
      previousKnown = false
      diagnostics.append(.unreadable(key: layout.shieldAppliedKey, reason: error.description))
    }
    let intents: ShieldMemory<Token>.Intents
    do {
      intents = try currentIntents()
    } catch {
      diagnostics.append(.unreadable(key: layout.shieldIntentsKey, reason: error.description))
      let kept =
        previous
        ?? ShieldState(
          instant: now, targets: [], stores: [], shieldsAllCategories: false, diagnostics: [])
      let state = ShieldState(
        instant: kept.instant, targets: kept.targets, stores: kept.stores,
        shieldsAllCategories: kept.shieldsAllCategories, diagnostics: diagnostics)
      return ShieldDecision(
        state: state, writes: [], clears: [], allCategoriesChanged: false, nextChange: nil,
        isRecordable: false, replacesUnreadableState: false)
    }
    let derivation = intents.derivation
    let derived = targets(at: now, of: intents)
    let clockWentBack = previous.map { now < $0.instant } ?? false
    if previousKnown, intents.evicted == 0, !clockWentBack, let decided = memory.current.decided,
      decided.applied == appliedToken, decided.intents == intents.token,
      decided.from == derived.from
    {
      return decided.decision.at(now)
    }
    var targets = derived.targets
    var instant = now
    var nextChange = derived.until
    if intents.evicted > 0 {
      diagnostics.append(.intentsEvicted(count: intents.evicted))
      if let previous { targets = Self.holding(previous, in: targets, because: "intentsEvicted") }
    }
    if let previous, now < previous.instant {
      diagnostics.append(.clockWentBackwards(lastApplied: previous.instant, now: now))
      targets = Self.holding(previous, in: targets, because: "clockWentBackwards")
      instant = previous.instant
      nextChange = min(nextChange ?? previous.instant, previous.instant)
    }
    let state: ShieldState<Token>
    if let previous, !previous.shieldsAllCategories, previous.targets == targets {
      // The same targets as applied: the partition keeps each in its store, so the stores are
      // the applied ones.
      state = ShieldState(
        instant: instant, targets: targets, stores: previous.stores, shieldsAllCategories: false,
        diagnostics: diagnostics + derivation.diagnostics)
    } else {
      state = ShieldDerivation.state(
        instant: instant, targets: targets, previous: previous,
        diagnostics: diagnostics + derivation.diagnostics)
    }
    let decision = Self.decision(
      state, against: previousKnown ? previous : nil, clearing: previousKnown,
      nextChange: nextChange)
    if previousKnown, intents.evicted == 0, !clockWentBack {
      memory.update {
        $0.decided = ShieldMemory.Decided(
          applied: appliedToken, intents: intents.token, from: derived.from, decision: decision)
      }
    }
    return decision
  }

  /// Records that `decision` was applied, so that the next decision is against it.
  ///
  /// A decision that changes nothing writes nothing, so that a callback whose shields do not
  /// change adds no durable write: the recorded state keeps the instant of the last change, and
  /// a clock earlier than that is a clock that went backwards.
  ///
  /// - Parameter decision: A decision this controller made, once applied.
  /// - Throws: ``ShieldingError/store(_:)``. A decision that is not
  ///   ``ShieldDecision/isRecordable`` is not recorded.
  public func markApplied(_ decision: ShieldDecision<Token>) throws(ShieldingError) {
    guard decision.isRecordable, !decision.changesNothing || decision.replacesUnreadableState
    else { return }
    do {
      let key = layout.shieldAppliedKey
      try store.write(
        try StoreCodec<ShieldState<Token>>.json.encode(decision.state, key: key), for: key)
    } catch {
      throw .store(error)
    }
  }

  // MARK: - Remembered inputs

  /// The applied state, decoded again only when its key's change token changed.
  private func appliedState() throws(ShieldingError) -> (ChangeToken?, ShieldState<Token>?) {
    let token: ChangeToken?
    do {
      token = try store.changeToken(for: layout.shieldAppliedKey)
    } catch {
      throw .store(error)
    }
    if let applied = memory.current.applied, applied.token == token {
      return (token, applied.state)
    }
    let state = try lastApplied()
    memory.update { $0.applied = ShieldMemory.Applied(token: token, state: state) }
    return (token, state)
  }

  /// The intents' derivation, read and built again only when the log's change token changed.
  private func currentIntents() throws(ShieldingError) -> ShieldMemory<Token>.Intents {
    let token: ChangeToken?
    do {
      token = try store.changeToken(for: layout.shieldIntentsKey)
    } catch {
      throw .store(error)
    }
    if let intents = memory.current.intents, intents.token == token { return intents }
    let read = try intentRecords()
    let intents = ShieldMemory<Token>.Intents(
      token: token, derivation: ShieldDerivation(records: read.records, timeZone: timeZone),
      evicted: read.evicted)
    memory.update { $0.intents = intents }
    return intents
  }

  /// The targets at `instant` and the next change after it, derived again only outside the
  /// interval in which the last derivation proved them constant.
  private func targets(at instant: Date, of intents: ShieldMemory<Token>.Intents)
    -> (targets: [ShieldedTarget<Token>], from: Date, until: Date?)
  {
    if let known = memory.current.targets, known.covers(instant, token: intents.token) {
      return (known.targets, known.from, known.until)
    }
    let targets = intents.derivation.targets(at: instant)
    let until = intents.derivation.nextChange(after: instant)
    memory.update {
      $0.targets = ShieldMemory.Targets(
        token: intents.token, from: instant, until: until, targets: targets)
    }
    return (targets, instant, until)
  }

  // MARK: - Helpers

  /// `targets` with every target of `previous` kept, its reasons marked as held after an error.
  static func holding(
    _ previous: ShieldState<Token>, in targets: [ShieldedTarget<Token>], because name: String
  ) -> [ShieldedTarget<Token>] {
    let held = previous.targets.map { entry in
      ShieldedTarget(
        target: entry.target,
        reasons: Array(
          Set(
            entry.reasons.map {
              ShieldReason(source: .heldAfterError, profile: $0.profile, name: name, until: nil)
            })
        ).sorted())
    }
    return ShieldDerivation.union(targets, held)
  }

  /// The stores to write and clear to go from `previous` to `state`; without `clearing`, no
  /// store is cleared (what was applied is unknown, so nothing is lifted).
  static func decision(
    _ state: ShieldState<Token>, against previous: ShieldState<Token>?, clearing: Bool,
    nextChange: Date?
  ) -> ShieldDecision<Token> {
    let old = previous?.stores ?? []
    var writes: [ShieldStoreWrite<Token>] = []
    var clears: [Int] = []
    for index in 0..<max(state.stores.count, old.count) {
      let new = index < state.stores.count ? state.stores[index] : ShieldStore()
      let before = index < old.count ? old[index] : ShieldStore()
      guard new != before else { continue }
      if !new.isEmpty {
        writes.append(ShieldStoreWrite(index: index, store: new))
      } else if clearing {
        clears.append(index)
      }
    }
    let allChanged = state.shieldsAllCategories != (previous?.shieldsAllCategories ?? false)
    return ShieldDecision(
      state: state, writes: writes, clears: clears, allCategoriesChanged: allChanged,
      nextChange: nextChange, isRecordable: true, replacesUnreadableState: !clearing)
  }
}
