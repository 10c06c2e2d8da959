import Foundation
import SharedStore
import SignalValues

// Reading an outbox: its head, and the drains.
extension SequencedOutbox {
  /// Returns the outbox's newest and oldest numbers, reading as little as possible.
  ///
  /// Pass the head this method returned last time: when the store's change token is unchanged,
  /// it is returned as is after reading only the key's change token (for
  /// ``/SharedStore/FileStore``, the header of the outbox's file and its size). Otherwise the
  /// newest entry is read (for `FileStore`, the end of the file, whose checksum is verified); no
  /// entry is decoded.
  ///
  /// - Parameter cached: The head returned by the previous call, if any.
  /// - Returns: The head, or `nil` when nothing has been published (or the key was removed).
  /// - Throws: ``SequenceTrackingError/store(_:)``, `corruptedOutbox` or
  ///   `unsupportedOutboxFormat`.
  public func head(reusing cached: OutboxHead? = nil) throws(SequenceTrackingError) -> OutboxHead? {
    let token: ChangeToken?
    let log: LogSnapshot?
    do {
      // The token first: a write landing between the two reads makes the token stale, so the
      // next call reads again rather than missing the write.
      token = try store.changeToken(for: key)
      guard let token else { return nil }
      if let cached, cached.token == token { return cached }
      log = try store.readLog(key, newest: 1)
    } catch {
      throw reported(error)
    }
    guard let token, let log, let header = try OutboxLayout.header(of: log, key: key) else {
      return nil
    }
    return OutboxHead(
      number: SequenceNumber(epoch: header.epoch, value: header.head), oldest: header.oldest,
      token: token)
  }

  /// Returns every entry after `cursor`, in sequence order, with what was lost or reset; it
  /// changes nothing.
  ///
  /// Apply the entries, then persist ``OutboxBatch/cursor``. That is at-least-once: a consumer
  /// that dies in between receives the entries again. For exactly-once, drain through an
  /// ``OutboxConsumer``.
  ///
  /// - Parameter cursor: The consumer's cursor.
  /// - Returns: The batch; empty when the consumer is up to date or nothing was published.
  /// - Throws: ``SequenceTrackingError`` — `store`, `corruptedOutbox`, `unsupportedOutboxFormat`,
  ///   or `payloadDecoding` for an entry that does not decode.
  /// - Complexity: O(*n*) in the stored size to read the log, plus one decode per delivered
  ///   entry.
  public func drain(after cursor: OutboxCursor) throws(SequenceTrackingError)
    -> OutboxBatch<Payload>
  {
    let layout = try snapshot(after: cursor)
    let plan = DeliveryPlan(cursor: cursor, layout: layout)
    guard let layout else { return plan.batch([], from: nil) }
    return plan.batch(try plan.entries(from: layout, as: Payload.self, key: key), from: layout)
  }

  /// Returns the entries after `cursor` and before `number`, and a cursor just after `number`:
  /// the way past an entry that can never be decoded, for a consumer that keeps its own cursor.
  ///
  /// Call it with the number of a
  /// ``SequenceTrackingError/payloadDecoding(key:number:type:description:)`` error. Apply the
  /// entries, then persist ``OutboxBatch/cursor``, as after ``drain(after:)``: `number` is passed
  /// over and no other entry is. An ``OutboxConsumer`` does this in one atomic write with
  /// ``OutboxConsumer/skip(through:_:)``.
  ///
  /// - Parameters:
  ///   - cursor: The consumer's cursor.
  ///   - number: The entry to pass over.
  /// - Returns: The batch up to `number`, with `number` not among its entries; or, when `number`
  ///   is not among the entries after `cursor` (it was passed already, was evicted, or belongs to
  ///   another epoch than the outbox's), an empty batch at `cursor`.
  /// - Throws: Like ``drain(after:)``, including `payloadDecoding` for an entry before `number`.
  /// - Complexity: Like ``drain(after:)``.
  public func drain(after cursor: OutboxCursor, passingOver number: SequenceNumber)
    throws(SequenceTrackingError) -> OutboxBatch<Payload>
  {
    let layout = try snapshot(after: cursor)
    guard let layout,
      let plan = DeliveryPlan(cursor: cursor, layout: layout).passingOver(number, in: layout)
    else {
      return OutboxBatch(
        entries: [], lost: nil, reset: nil, cursor: cursor,
        head: layout.map { SequenceNumber(epoch: $0.header.epoch, value: $0.header.head) })
    }
    return plan.batch(try plan.entries(from: layout, as: Payload.self, key: key), from: layout)
  }

  /// Reads and checks what a consumer at `cursor` needs of the outbox — the entry at the cursor
  /// and those after it, when the cursor is within the outbox's current epoch and numbers —
  /// or the whole outbox otherwise; `nil` when it holds no entry.
  ///
  /// A drain after a cursor near the head reads the outbox's newest few records, not all of
  /// them: its cost is the news. Every plan ``DeliveryPlan`` makes for `cursor` delivers only
  /// numbers from the cursor's on, which such a layout holds.
  ///
  /// - Complexity: O(*k*) in the entries from the cursor's on; O(*n*) in the outbox when it
  ///   reads all of it.
  func snapshot(after cursor: OutboxCursor) throws(SequenceTrackingError) -> OutboxLayout? {
    guard let last = cursor.last else { return try snapshot() }
    let tail: LogSnapshot?
    do {
      tail = try store.readLog(key, newest: 1)
    } catch {
      throw reported(error)
    }
    guard let tail, let header = try OutboxLayout.header(of: tail, key: key),
      last.epoch == header.epoch, (header.oldest...header.head).contains(last.value),
      header.head - last.value < UInt64(Int.max)
    else { return try snapshot() }
    let newest: LogSnapshot?
    do {
      newest = try store.readLog(key, newest: Int(header.head - last.value) + 1)
    } catch {
      throw reported(error)
    }
    // Published between the two reads: the newest records may no longer reach back to the
    // cursor's; the whole outbox does.
    guard let newest, newest.identity == tail.identity,
      newest.records.first?.position == last.value
    else { return try snapshot() }
    return try OutboxLayout(parsingNewest: newest, key: key)
  }

  /// Reads and checks the whole outbox, as a drain from its start does, without decoding its
  /// payloads: for a consumer that found it damaged and reads it again before moving it aside,
  /// in case another process healed it since.
  ///
  /// - Throws: What a drain throws for the outbox itself — `store`, `corruptedOutbox`,
  ///   `unsupportedOutboxFormat` — and never `payloadDecoding`.
  /// - Complexity: O(*n*) in the stored size.
  package func checkWhole() throws(SequenceTrackingError) {
    _ = try snapshot()
  }

  /// Reads and checks the whole outbox, or returns `nil` when it holds no entry.
  func snapshot() throws(SequenceTrackingError) -> OutboxLayout? {
    let log: LogSnapshot?
    do {
      log = try store.readLog(key)
    } catch {
      throw reported(error)
    }
    guard let log else { return nil }
    return try OutboxLayout(parsing: log, key: key)
  }
}
