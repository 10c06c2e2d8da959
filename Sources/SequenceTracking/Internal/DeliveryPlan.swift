import Foundation
import SharedStore
import SignalValues

/// Which entries of an outbox a drain delivers to a cursor, and what it reports: the rules of
/// ``SequencedOutbox/drain(after:)`` as a pure function of the cursor and the outbox.
struct DeliveryPlan: Equatable {
  /// The values to deliver, or `nil` for none.
  var values: ClosedRange<UInt64>?
  var lost: SequenceRange?
  var reset: SequenceResetReason?
  var cursor: OutboxCursor
  var head: SequenceNumber?

  /// Plans a drain of `layout` (`nil`: the outbox does not exist) for a consumer at `cursor`.
  ///
  /// - Complexity: O(*m*) in the length of the cursor's and the head's lines, which are
  ///   checksummed; no entry is decoded.
  init(cursor: OutboxCursor, layout: OutboxLayout?) {
    guard let layout else {
      // Nothing published, or the outbox was removed: the next publish starts a new epoch,
      // which the drain after it reports.
      self.init(values: nil, lost: nil, reset: nil, cursor: cursor, head: nil)
      return
    }
    let header = layout.header
    let head = SequenceNumber(epoch: header.epoch, value: header.head)
    let atHead = layout.cursor(after: header.head)
    let everything = header.oldest...header.head
    let evictedBeforeOldest =
      header.oldest > 1 ? SequenceRange(epoch: header.epoch, values: 1...(header.oldest - 1)) : nil

    guard let last = cursor.last else {
      self.init(
        values: everything, lost: evictedBeforeOldest, reset: nil, cursor: atHead, head: head)
      return
    }
    guard last.epoch == header.epoch else {
      self.init(
        values: everything, lost: evictedBeforeOldest, reset: .epochChanged(from: last.epoch),
        cursor: atHead, head: head)
      return
    }
    if let checksum = cursor.checksum, layout.holds(last.value),
      layout.checksum(of: last.value) != checksum
    {
      // Rolled back below `last` and written past it again: `last` and everything after it are
      // new; what lies below is unknown, and is not delivered again (as after going back).
      self.init(
        values: last.value...header.head, lost: nil, reset: .rewritten(at: last.value),
        cursor: atHead, head: head)
    } else if last.value > header.head {
      self.init(
        values: nil, lost: nil, reset: .wentBackwards(from: last.value), cursor: atHead,
        head: head)
    } else if last.value == header.head {
      self.init(values: nil, lost: nil, reset: nil, cursor: cursor, head: head)
    } else if last.value + 1 < header.oldest {
      self.init(
        values: everything,
        lost: SequenceRange(epoch: header.epoch, values: (last.value + 1)...(header.oldest - 1)),
        reset: nil, cursor: atHead, head: head)
    } else {
      self.init(
        values: (last.value + 1)...header.head, lost: nil, reset: nil, cursor: atHead, head: head)
    }
  }

  private init(
    values: ClosedRange<UInt64>?,
    lost: SequenceRange?,
    reset: SequenceResetReason?,
    cursor: OutboxCursor,
    head: SequenceNumber?
  ) {
    self.values = values
    self.lost = lost
    self.reset = reset
    self.cursor = cursor
    self.head = head
  }

  /// The vanished numbers among the planned values (see ``OutboxLayout``), in runs.
  func vanished(in layout: OutboxLayout?) -> [SequenceRange] {
    guard let values, let layout else { return [] }
    return layout.vanished(in: values)
  }

  /// Decodes the planned entries from `layout`, oldest first; vanished numbers are not entries.
  ///
  /// - Complexity: O(*k*) decodes for the *k* planned entries.
  func entries<Payload: Decodable>(
    from layout: OutboxLayout,
    as _: Payload.Type,
    key: String
  ) throws(SequenceTrackingError) -> [SequencedEntry<Payload>] {
    guard let values else { return [] }
    let decoder = JSONDecoder()
    var entries: [SequencedEntry<Payload>] = []
    entries.reserveCapacity(values.count)
    for value in values where !layout.isVanished(value) {
      let number = SequenceNumber(epoch: layout.header.epoch, value: value)
      do {
        let payload = try decoder.decodeStored(Payload.self, from: layout.payload(of: value))
        entries.append(SequencedEntry(number: number, payload: payload))
      } catch {
        throw .payloadDecoding(
          key: key, number: number, type: "\(Payload.self)", description: "\(error)")
      }
    }
    return entries
  }

  /// This plan cut short to pass over `number`: the planned entries before it are delivered, it
  /// is not, and the cursor stops just after it; `nil` when `number` is not a planned entry.
  func passingOver(_ number: SequenceNumber, in layout: OutboxLayout) -> DeliveryPlan? {
    guard let values, number.epoch == layout.header.epoch, values.contains(number.value) else {
      return nil
    }
    var plan = self
    plan.values = values.lowerBound < number.value ? values.lowerBound...(number.value - 1) : nil
    plan.cursor = layout.cursor(after: number.value)
    return plan
  }

  /// This plan cut short after `number`: the planned entries up to and including it are
  /// delivered, and the cursor stops just after it; `nil` when `number` is not a planned entry.
  func through(_ number: SequenceNumber, in layout: OutboxLayout) -> DeliveryPlan? {
    guard let values, number.epoch == layout.header.epoch, values.contains(number.value) else {
      return nil
    }
    var plan = self
    plan.values = values.lowerBound...number.value
    plan.cursor = layout.cursor(after: number.value)
    return plan
  }

  /// What the plan commits once its entries are applied and its cursor stored.
  var committed: CommittedChange {
    var applied: SequenceRange?
    if let head, let values { applied = SequenceRange(epoch: head.epoch, values: values) }
    return .drained(applied: applied, lost: lost, reset: reset, cursor: cursor)
  }

  /// The batch this plan delivers from `layout`, with `entries` decoded.
  func batch<Payload>(_ entries: [SequencedEntry<Payload>], from layout: OutboxLayout?)
    -> OutboxBatch<Payload>
  {
    OutboxBatch(
      entries: entries, lost: lost, reset: reset, cursor: cursor, head: head,
      vanished: vanished(in: layout))
  }
}
