import Foundation

/// Which entries of an outbox a drain delivers to a cursor, and what it reports: the rules of
/// ``SequencedOutbox/drain(after:)`` as a pure function of the cursor and the outbox header.
struct DeliveryPlan: Equatable {
  /// The values to deliver, or `nil` for none.
  var values: ClosedRange<UInt64>?
  var lost: SequenceRange?
  var reset: SequenceResetReason?
  var cursor: OutboxCursor
  var head: SequenceNumber?

  /// Plans a drain of an outbox whose header is `header` (`nil`: the outbox does not exist) for a
  /// consumer at `cursor`.
  init(cursor: OutboxCursor, header: OutboxLayout.Header?) {
    guard let header else {
      // Nothing published, or the outbox was removed: the next publish starts a new epoch,
      // which the drain after it reports.
      self.init(values: nil, lost: nil, reset: nil, cursor: cursor, head: nil)
      return
    }
    let head = SequenceNumber(epoch: header.epoch, value: header.head)
    let everything = header.oldest...header.head
    let evictedBeforeOldest =
      header.oldest > 1 ? SequenceRange(epoch: header.epoch, values: 1...(header.oldest - 1)) : nil

    guard let last = cursor.last else {
      self.init(
        values: everything, lost: evictedBeforeOldest, reset: nil,
        cursor: OutboxCursor(after: head), head: head)
      return
    }
    guard last.epoch == header.epoch else {
      self.init(
        values: everything, lost: evictedBeforeOldest, reset: .epochChanged(from: last.epoch),
        cursor: OutboxCursor(after: head), head: head)
      return
    }
    if last.value > header.head {
      self.init(
        values: nil, lost: nil, reset: .wentBackwards(from: last.value),
        cursor: OutboxCursor(after: head), head: head)
    } else if last.value == header.head {
      self.init(values: nil, lost: nil, reset: nil, cursor: cursor, head: head)
    } else if last.value + 1 < header.oldest {
      self.init(
        values: everything,
        lost: SequenceRange(epoch: header.epoch, values: (last.value + 1)...(header.oldest - 1)),
        reset: nil, cursor: OutboxCursor(after: head), head: head)
    } else {
      self.init(
        values: (last.value + 1)...header.head, lost: nil, reset: nil,
        cursor: OutboxCursor(after: head), head: head)
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

  /// Decodes the planned entries from `layout`, oldest first.
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
    for value in values {
      let number = SequenceNumber(epoch: layout.header.epoch, value: value)
      do {
        let payload = try decoder.decode(Payload.self, from: layout.payload(of: value))
        entries.append(SequencedEntry(number: number, payload: payload))
      } catch {
        throw .payloadDecoding(
          key: key, number: number, type: "\(Payload.self)", description: "\(error)")
      }
    }
    return entries
  }

  /// The batch this plan delivers, with `entries` decoded.
  func batch<Payload>(_ entries: [SequencedEntry<Payload>]) -> OutboxBatch<Payload> {
    OutboxBatch(entries: entries, lost: lost, reset: reset, cursor: cursor, head: head)
  }
}
