import Foundation
import SharedStore
import TrackerSignals
import UsageModel

extension ShieldController {

  /// What to apply at `now`, against what was last applied; a decision that changes a store is
  /// first written ahead, so that a kill before ``markApplied(_:)`` cannot lift a shield.
  ///
  /// Keep one controller for the extension's process (a property of the
  /// `DeviceActivityMonitor` subclass): it remembers the decoded intents, the applied record and
  /// the targets between callbacks, keyed by the keys' change tokens and by the interval in
  /// which the targets cannot change, so that a callback whose inputs did not change reads two
  /// change tokens, derives nothing and writes nothing.
  ///
  /// **Write-ahead.** Writes are computed against the recorded state, so a process killed after
  /// applying a decision and before ``markApplied(_:)`` would leave a record that no longer
  /// says what the device shields: a cleared store recorded as shielding, which the next
  /// decision wanting it again would not write. So before returning a decision that changes
  /// anything, `decide` records it under `shieldAppliedKey` as ``ShieldAppliedRecord/pending``
  /// (one atomic, durable write, made only if the record is still the one decided against). A
  /// decision made while a record is pending writes or clears each store the pending one
  /// changes, whatever the device holds there. The write-ahead is made here rather than in a
  /// call of its own so that no integrator can apply a decision without it, and only for a
  /// decision that changes something, so that the callbacks that change nothing stay free of
  /// writes. If it fails, the decision keeps everything the record says the device may shield
  /// and adds what is newly required: it may add shields, never lift one, and reports
  /// ``ShieldDiagnostic/writeAheadFailed(key:reason:)``, with a ``ShieldDecision/nextChange``
  /// at most a minute away, so that the next callback tries again. A decision that is never
  /// applied (the app asking what the extension would do) leaves a pending record: the next
  /// decision writes or clears its stores again, and an extension whose decision was made
  /// against the record before it is refused its write-ahead, and tries again.
  ///
  /// - Parameter now: The current instant (the outermost caller reads the clock).
  /// - Returns: The decision; errors are reported in it, never thrown, and never lift a shield.
  /// - Complexity: O(1) when nothing changed since the last decision; otherwise O(*n* log *n*)
  ///   in the intents, plus ``ShieldDerivation/nextChange(after:)``, plus one durable write of
  ///   the record when the decision changes a store.
  public func decide(now: Date) -> ShieldDecision<Token> {
    var diagnostics: [ShieldDiagnostic] = []
    var record: ShieldAppliedRecord<Token>?
    var recordToken: ChangeToken?
    var recordKnown = true
    do {
      (recordToken, record) = try rememberedRecord()
    } catch {
      recordKnown = false
      diagnostics.append(.unreadable(key: layout.shieldAppliedKey, reason: error.description))
    }
    let intents: ShieldMemory<Token>.Intents
    do {
      intents = try currentIntents()
    } catch {
      diagnostics.append(.unreadable(key: layout.shieldIntentsKey, reason: error.description))
      // Everything the device may shield: a pending lift may never have been applied.
      let kept =
        record?.held
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
    let held = record?.held
    let clockWentBack = held.map { Self.isBefore(now, $0.instant) } ?? false
    if recordKnown, intents.evicted == 0, !clockWentBack, let decided = memory.current.decided,
      decided.applied == recordToken, decided.intents == intents.token,
      decided.from == derived.from
    {
      return decided.decision.at(now)
    }
    var targets = derived.targets
    var instant = now
    var nextChange = derived.until
    if intents.evicted > 0 {
      diagnostics.append(.intentsEvicted(count: intents.evicted))
      if let held { targets = Self.holding(held, in: targets, because: "intentsEvicted") }
    }
    if let held, clockWentBack {
      diagnostics.append(.clockWentBackwards(lastApplied: held.instant, now: now))
      targets = Self.holding(held, in: targets, because: "clockWentBackwards")
      instant = held.instant
      nextChange = min(nextChange ?? held.instant, held.instant)
    }
    let decision = Self.decision(
      Self.state(
        instant: instant, targets: targets, previous: record?.latest,
        diagnostics: diagnostics + derivation.diagnostics),
      against: record, known: recordKnown, nextChange: nextChange)
    // Without a readable record there is nothing to write ahead over, and nothing is cleared.
    guard recordKnown, !decision.changesNothing else {
      if recordKnown, intents.evicted == 0, !clockWentBack {
        remember(decision, applied: recordToken, intents: intents.token, from: derived.from)
      }
      return decision
    }
    if record?.pending?.isSameChange(as: decision) == true {
      // Written ahead by an earlier call whose decision was not marked applied: the record
      // already says so, and is unchanged since.
      if intents.evicted == 0, !clockWentBack {
        remember(decision, applied: recordToken, intents: intents.token, from: derived.from)
      }
      return decision
    }
    guard let failure = writeAhead(decision, over: record) else { return decision }
    // The record still says what it said: keep everything it says the device may shield, so
    // that applying this decision adds shields and lifts none. Not remembered, and the next
    // change at most a minute away: the next callback tries again, not the one at the change
    // after the one held back.
    let kept = held.map { Self.holding($0, in: targets, because: "writeAheadFailed") } ?? targets
    let failed: ShieldDiagnostic = .writeAheadFailed(
      key: layout.shieldAppliedKey, reason: failure)
    let retry = now.addingTimeInterval(Self.writeAheadRetryDelay)
    return Self.decision(
      Self.state(
        instant: instant, targets: kept, previous: record?.latest,
        diagnostics: diagnostics + [failed] + derivation.diagnostics),
      against: record, known: true, nextChange: min(nextChange ?? retry, retry))
  }

  /// How soon a decision whose write-ahead failed asks to be made again: 60 seconds.
  static var writeAheadRetryDelay: TimeInterval { 60 }

  /// Records that `decision` was applied, so that the next decision is against it.
  ///
  /// A decision that changes nothing writes nothing, so that a callback whose shields do not
  /// change adds no durable write: the recorded state keeps the instant of the last change, and
  /// a clock earlier than that is a clock that went backwards.
  ///
  /// Otherwise, when the record's ``ShieldAppliedRecord/pending`` decision is this one, it
  /// records `decision`'s state as ``ShieldAppliedRecord/applied`` and drops the pending one
  /// (one atomic, durable write). When it is not — another decision was written ahead since, or
  /// already marked applied, or this one's write-ahead failed — the device holds, in each store
  /// this decision changed, what this one or another wrote there, in whichever order they were
  /// applied: the record keeps what it says as applied, and those stores join the pending ones,
  /// which the next decision writes or clears whatever they hold. If this call throws, or never
  /// comes, the pending decision stays, and the next decision writes or clears every store it
  /// changes.
  ///
  /// - Parameter decision: A decision this controller made, once applied.
  /// - Throws: ``ShieldingError/store(_:)``; the record is then as it was. A decision that is
  ///   not ``ShieldDecision/isRecordable`` is not recorded.
  public func markApplied(_ decision: ShieldDecision<Token>) throws(ShieldingError) {
    guard decision.isRecordable, !decision.changesNothing || decision.replacesUnreadableState
    else { return }
    let key = layout.shieldAppliedKey
    let codec = StoreCodec<ShieldAppliedRecord<Token>>.json
    do {
      try store.update(key) { (data: inout Data?) throws(SharedStoreError) in
        guard let bytes = data, !decision.replacesUnreadableState else {
          data = try codec.encode(ShieldAppliedRecord(applied: decision.state), key: key)
          return
        }
        let current = try codec.decode(bytes, key: key)
        if let pending = current.pending, pending.isSameChange(as: decision) {
          data = try codec.encode(ShieldAppliedRecord(applied: decision.state), key: key)
          return
        }
        // Recorded as applied over another decision, this one's stores would be taken for
        // known: a store the other cleared after this one shielded it, say, recorded as
        // shielded, which the next decision wanting it would not write again.
        let other = current.pending
        let unsure = Set(other?.changedStores ?? []).union(decision.changedStores)
        data = try codec.encode(
          ShieldAppliedRecord(
            applied: current.applied,
            pending: ShieldAppliedRecord.Pending(
              state: other?.state ?? decision.state, changedStores: unsure.sorted(),
              changesAllCategories: (other?.changesAllCategories ?? false)
                || decision.allCategoriesChanged)),
          key: key)
      }
    } catch {
      throw .store(error)
    }
  }

  // MARK: - Remembered inputs

  /// The applied record, decoded again only when its key's change token changed.
  private func rememberedRecord() throws(ShieldingError) -> (
    ChangeToken?, ShieldAppliedRecord<Token>?
  ) {
    let token: ChangeToken?
    do {
      token = try store.changeToken(for: layout.shieldAppliedKey)
    } catch {
      throw .store(error)
    }
    if let applied = memory.current.applied, applied.token == token {
      return (token, applied.record)
    }
    let record = try appliedRecord()
    memory.update { $0.applied = ShieldMemory.Applied(token: token, record: record) }
    return (token, record)
  }

  /// Remembers `decision` as the one for these inputs, so that the next callback with the same
  /// inputs reuses it.
  private func remember(
    _ decision: ShieldDecision<Token>, applied: ChangeToken?, intents: ChangeToken?, from: Date
  ) {
    memory.update {
      $0.decided = ShieldMemory.Decided(
        applied: applied, intents: intents, from: from, decision: decision)
    }
  }

  /// Records `decision` as pending over `record`, in one atomic, durable update that writes
  /// only if the record is still `record` (another process's decision in between would have
  /// made this one's writes wrong).
  ///
  /// - Returns: `nil` when written, or why not.
  private func writeAhead(
    _ decision: ShieldDecision<Token>, over record: ShieldAppliedRecord<Token>?
  ) -> String? {
    let key = layout.shieldAppliedKey
    let codec = StoreCodec<ShieldAppliedRecord<Token>>.json
    let ahead = ShieldAppliedRecord(
      applied: record?.applied,
      pending: ShieldAppliedRecord.Pending(
        state: decision.state, changedStores: decision.changedStores,
        changesAllCategories: decision.allCategoriesChanged))
    do {
      let written = try store.update(key) { (data: inout Data?) throws(SharedStoreError) in
        let current = try data.map { (bytes) throws(SharedStoreError) in
          try codec.decode(bytes, key: key)
        }
        guard current == record else { return false }
        data = try codec.encode(ahead, key: key)
        return true
      }
      return written ? nil : "another decision was recorded since this one was made"
    } catch {
      return error.description
    }
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

  /// `targets` with every target of `held` kept, its reasons marked as held after an error.
  static func holding(
    _ held: ShieldState<Token>, in targets: [ShieldedTarget<Token>], because name: String
  ) -> [ShieldedTarget<Token>] {
    let kept = held.targets.map { entry in
      ShieldedTarget(
        target: entry.target,
        reasons: Array(
          Set(
            entry.reasons.map {
              ShieldReason(source: .heldAfterError, profile: $0.profile, name: name, until: nil)
            })
        ).sorted())
    }
    return ShieldDerivation.union(targets, kept)
  }

  /// Whether `now` is before `recorded`, an instant read back from the record, at the
  /// millisecond the record keeps: the instant of a decision recorded at `now` may be stored
  /// half a millisecond later, and is not a clock that went back.
  static func isBefore(_ now: Date, _ recorded: Date) -> Bool {
    guard let now = Milliseconds.instant(now), let recorded = Milliseconds.instant(recorded)
    else { return now < recorded }
    return now < recorded
  }

  /// The state of `targets`, each kept in its store of `previous`.
  static func state(
    instant: Date, targets: [ShieldedTarget<Token>], previous: ShieldState<Token>?,
    diagnostics: [ShieldDiagnostic]
  ) -> ShieldState<Token> {
    guard let previous, !previous.shieldsAllCategories, previous.targets == targets else {
      return ShieldDerivation.state(
        instant: instant, targets: targets, previous: previous, diagnostics: diagnostics)
    }
    // The same targets as before: the partition keeps each in its store, so the stores are the
    // previous ones.
    return ShieldState(
      instant: instant, targets: targets, stores: previous.stores, shieldsAllCategories: false,
      diagnostics: diagnostics)
  }

  /// The stores to write and clear so that the device holds exactly `state`, from what
  /// `record` says it holds.
  ///
  /// A store of the record's pending decision may hold anything: it is written, or cleared
  /// when `state` leaves it empty. Without `known` (the record could not be read) no store is
  /// cleared: what was applied is unknown, so nothing is lifted.
  static func decision(
    _ state: ShieldState<Token>, against record: ShieldAppliedRecord<Token>?, known: Bool,
    nextChange: Date?
  ) -> ShieldDecision<Token> {
    let old = known ? record?.knownStores ?? [] : []
    let unsure = known ? record?.unsureStores ?? [] : []
    var writes: [ShieldStoreWrite<Token>] = []
    var clears: [Int] = []
    let count = max(state.stores.count, old.count, (unsure.max() ?? -1) + 1)
    for index in 0..<count {
      let new = index < state.stores.count ? state.stores[index] : ShieldStore()
      let before = index < old.count ? old[index] : ShieldStore()
      guard new != before || unsure.contains(index) else { continue }
      if !new.isEmpty {
        writes.append(ShieldStoreWrite(index: index, store: new))
      } else if known {
        clears.append(index)
      }
    }
    let allBefore = known ? record?.knownAllCategories ?? false : false
    let allUnsure = known && record?.unsureAllCategories == true
    return ShieldDecision(
      state: state, writes: writes, clears: clears,
      allCategoriesChanged: allUnsure || state.shieldsAllCategories != allBefore,
      nextChange: nextChange, isRecordable: true, replacesUnreadableState: !known)
  }
}
