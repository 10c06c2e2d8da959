import SharedStore
import SignalValues

/// Everything that can go wrong while numbering, publishing or draining, with the context needed
/// to act on it.
///
/// An operation that throws changes nothing — a failed ``SequenceCounter/next()`` hands out no
/// number, a failed ``SequencedOutbox/publish(_:then:)`` publishes nothing and does not notify, a
/// failed drain applies nothing and leaves the cursor where it was — with one exception, said in
/// its name: ``notDurable(committed:key:path:errno:)``. After it the change *was* made; do not
/// repeat the operation.
public enum SequenceTrackingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The underlying store failed; the store's error says which key and why. Nothing was changed.
  ///
  /// The store's `SharedStoreError/notDurable(key:path:errno:)` is never reported here but as
  /// ``notDurable(committed:key:path:errno:)``, which says what was changed.
  case store(SharedStoreError)

  /// The operation took effect — `committed` says what it did — but the store could not flush
  /// the directory of `key` afterwards (`errno`), so the change may not survive a power cut.
  ///
  /// This is the only error after which something changed. A publish that throws it has stored
  /// its entries *and* called its notify closure, since readers can already see them; a
  /// ``SequenceCounter/next()`` has handed out its number; a drain or a skip has applied its
  /// entries and moved the cursor. Do not retry: a retried publish would store the entry twice.
  /// Carry on with what `committed` reports, and treat the store as failing (a full disk, a
  /// failing device). ``storeError`` returns the store's own
  /// `SharedStoreError/notDurable(key:path:errno:)` for code that handles store errors alike.
  case notDurable(committed: CommittedChange, key: String, path: String, errno: Errno)

  /// A counter or outbox has handed out `UInt64.max` in its epoch and cannot hand out another.
  ///
  /// Real producers never get there; a stored value this high was written by something else.
  /// Remove the key to start a new epoch.
  case exhausted(key: String)

  /// The outbox went back — it was truncated or restored from an older copy — and holds numbers
  /// up to `newest` of `epoch` while its producers handed out up to `handedOut`: more than a
  /// capacity beyond, or in an epoch whose end ``SequencedOutbox/recoveries()`` records (the
  /// outbox was restored from a copy older than that end); nothing was published.
  ///
  /// ``SequencedOutbox/publishHealing(_:)`` moves such an outbox aside and starts a new epoch,
  /// recording `handedOut` as the old epoch's last number, so that a consumer is told exactly
  /// which numbers it lost.
  case rolledBack(key: String, epoch: SequenceEpoch, newest: UInt64, handedOut: UInt64)

  /// An outbox was asked for a capacity it cannot have.
  case invalidCapacity(key: String, capacity: Int)

  /// An ``OutboxConsumer`` was given its outbox's key for its own record.
  ///
  /// The record and the outbox must live under different keys, or the first drain would
  /// overwrite the outbox.
  case sameKeyAsOutbox(key: String)

  /// The outbox's stored bytes are intact for the store but are not a valid outbox.
  ///
  /// Nothing was changed. `SharedStore/quarantine(_:)` moves the value aside so that the next
  /// publish starts a new epoch.
  case corruptedOutbox(key: String, reason: String)

  /// The outbox was written by a newer version of this library, in a layout this one cannot read.
  case unsupportedOutboxFormat(key: String, found: Int, supported: Int)

  /// A payload could not be encoded for publishing (for example a non-finite `Double`).
  case payloadEncoding(key: String, type: String, description: String)

  /// The stored payload of `number` does not decode as `type`.
  ///
  /// The drain stops before that entry and nothing is applied. If the entry can never be read
  /// (it was written by a newer producer), move past it deliberately: an ``OutboxConsumer``
  /// with ``OutboxConsumer/skip(through:_:)``, which applies the entries before it and passes
  /// over it in one atomic write; a consumer that keeps its own cursor with
  /// ``SequencedOutbox/drain(after:passingOver:)``, which returns the entries before it and a
  /// cursor after it. Either way no other entry is passed over.
  case payloadDecoding(key: String, number: SequenceNumber, type: String, description: String)

  /// A sentence a person can act on.
  public var description: String {
    switch self {
    case .store(let error):
      return error.description
    case .notDurable(let committed, let key, let path, let errno):
      return
        "On key '\(key)', \(committed). "
        + SharedStoreError.notDurable(key: key, path: path, errno: errno).description
    case .exhausted(let key):
      return
        "The numbering on key '\(key)' has reached its largest value; "
        + "remove the key to start a new epoch."
    case .rolledBack(let key, let epoch, let newest, let handedOut):
      return
        "The outbox on key '\(key)' went back to number \(newest) of epoch \(epoch), but "
        + "number \(handedOut) was handed out already; quarantine the key to start a new epoch."
    case .invalidCapacity(let key, let capacity):
      return "The outbox on key '\(key)' needs a capacity of at least 1, not \(capacity)."
    case .sameKeyAsOutbox(let key):
      return
        "An outbox consumer cannot keep its record under '\(key)', the key of the outbox it "
        + "drains; choose another key."
    case .corruptedOutbox(let key, let reason):
      return
        "The outbox on key '\(key)' is not valid: \(reason). It was left untouched; "
        + "quarantine the key to keep it and start a new epoch."
    case .unsupportedOutboxFormat(let key, let found, let supported):
      return
        "The outbox on key '\(key)' uses layout version \(found); "
        + "this version of ScreenTimeKit reads version \(supported) only."
    case .payloadEncoding(let key, let type, let description):
      return "A \(type) could not be encoded for the outbox on key '\(key)': \(description)"
    case .payloadDecoding(let key, let number, let type, let description):
      return
        "Entry \(number) of the outbox on key '\(key)' does not decode as \(type): "
        + "\(description). Nothing was applied; skip the entry deliberately to move past it."
    }
  }

  /// The store error underneath this error, or `nil` when the store did not fail.
  ///
  /// One call answers "was it the store?" whichever case carries the store's error, so that code
  /// handling store failures (a full disk, a misconfigured app group) need not know this enum:
  ///
  /// ```swift
  /// do {
  ///   try outbox.publish(record) { post($0) }
  /// } catch {
  ///   if case .io(_, _, .noSpace)? = error.storeError { showStorageFullBanner() }
  ///   throw error
  /// }
  /// ```
  ///
  /// For ``store(_:)`` it is the wrapped error. For ``notDurable(committed:key:path:errno:)`` it
  /// is the store's `SharedStoreError/notDurable(key:path:errno:)` with the same key, path and
  /// error number — the change was made; only ``notDurable(committed:key:path:errno:)`` itself
  /// says what it was. Every other case is this module's own error, and gives `nil`.
  public var storeError: SharedStoreError? {
    switch self {
    case .store(let error):
      return error
    case .notDurable(_, let key, let path, let errno):
      return .notDurable(key: key, path: path, errno: errno)
    case .exhausted, .rolledBack, .invalidCapacity, .sameKeyAsOutbox, .corruptedOutbox,
      .unsupportedOutboxFormat, .payloadEncoding, .payloadDecoding:
      return nil
    }
  }
}
