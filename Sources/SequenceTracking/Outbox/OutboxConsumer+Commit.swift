import SharedStore
import SignalValues

extension OutboxConsumer {
  /// How often a drain reads again after losing a race with another drain.
  static var maximumAttempts: Int { 16 }

  /// Drains, passing over `number` when it is given (``skip(through:_:)``), or stopping after
  /// `limit` (``drain(through:_:)``).
  ///
  /// - Returns: The batch applied.
  /// - Throws: The outbox's and the store's errors.
  func consume(
    passingOver number: SequenceNumber?,
    through limit: SequenceNumber? = nil,
    applying apply: (inout State, SequencedEntry<Payload>) -> Void
  ) throws(SequenceTrackingError) -> OutboxBatch<Payload> {
    var attempts = 0
    while true {
      attempts += 1
      // The record first, then the outbox: the outbox is then at least as new as anything the
      // stored cursor was derived from. Under the lock, an unchanged revision proves that no
      // other drain wrote since, so the plan made there is not based on a stale outbox.
      let stored = try record()
      let layout = try outbox.snapshot(after: stored.cursor)
      guard
        Self.plan(cursor: stored.cursor, layout: layout, passingOver: number, through: limit)
          != nil
      else {
        return Self.unchanged(stored.cursor, layout)
      }
      let applied = try commit(
        layout, passingOver: number, through: limit, ifRevisionIs: stored.revision,
        applying: apply)
      if let applied { return applied }
      // Another drain wrote in between and made progress. Read both again; if drains keep
      // racing this one, they are applying the entries, and there is nothing left to report.
      guard attempts < Self.maximumAttempts else {
        return Self.unchanged(try record().cursor, layout)
      }
    }
  }

  /// The plan for a consumer at `cursor`, or `nil` when it would change nothing: nothing after
  /// the cursor and no cursor to realign, or, for a skip or a drain through a limit, `number` or
  /// `limit` not among the planned entries.
  private static func plan(
    cursor: OutboxCursor,
    layout: OutboxLayout?,
    passingOver number: SequenceNumber?,
    through limit: SequenceNumber?
  ) -> DeliveryPlan? {
    let plan = DeliveryPlan(cursor: cursor, layout: layout)
    if let number {
      return layout.flatMap { plan.passingOver(number, in: $0) }
    }
    if let limit {
      return layout.flatMap { plan.through(limit, in: $0) }
    }
    return plan.values == nil && plan.cursor == cursor ? nil : plan
  }

  /// An empty batch at `cursor`: nothing applied, nothing to report.
  private static func unchanged(_ cursor: OutboxCursor, _ layout: OutboxLayout?)
    -> OutboxBatch<Payload>
  {
    OutboxBatch(
      entries: [], lost: nil, reset: nil, cursor: cursor,
      head: layout.map { SequenceNumber(epoch: $0.header.epoch, value: $0.header.head) })
  }

  /// Applies the plan for `layout` under the record's lock, unless the record is no longer at
  /// `revision`; returns `nil` in that case, having written nothing.
  private func commit(
    _ layout: OutboxLayout?,
    passingOver number: SequenceNumber?,
    through limit: SequenceNumber?,
    ifRevisionIs revision: UInt64,
    applying apply: (inout State, SequencedEntry<Payload>) -> Void
  ) throws(SequenceTrackingError) -> OutboxBatch<Payload>? {
    let outboxKey = outbox.key
    var committed: CommittedChange?
    let outcome: Swift.Result<OutboxBatch<Payload>?, SequenceTrackingError>
    do throws(SharedStoreError) {
      outcome = try store.updateCapturingFailure(storeKey) {
        record throws(SequenceTrackingError) -> OutboxBatch<Payload>? in
        // What the store writes if this body changes nothing: only an absent record is written
        // (as its initial value).
        committed = .drained(applied: nil, lost: nil, reset: nil, cursor: record.cursor)
        guard record.revision == revision,
          let plan = Self.plan(
            cursor: record.cursor, layout: layout, passingOver: number, through: limit)
        else { return nil }
        let entries =
          try layout.map { layout throws(SequenceTrackingError) in
            try plan.entries(from: layout, as: Payload.self, key: outboxKey)
          } ?? []
        for entry in entries {
          apply(&record.state, entry)
        }
        record.cursor = plan.cursor
        // Wrapping: only equality is compared, and it must keep changing at UInt64.max.
        record.revision &+= 1
        committed = plan.committed
        return plan.batch(entries, from: layout)
      }
    } catch {
      throw SequenceTrackingError(error, committed: committed)
    }
    return try outcome.get()
  }
}
