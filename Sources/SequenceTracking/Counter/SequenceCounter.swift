import SharedStore
import SignalValues

/// A producer's counter on a ``/SharedStore`` key: each call to ``next()`` hands out the next
/// number, and no two callers — threads or processes — ever receive the same one.
///
/// ``next()`` is one atomic read-modify-write (`SharedStore/update(_:_:)`), which a
/// ``/SharedStore/FileStore`` makes exclusive across every process using its directory. A counter
/// read and written back in two steps lets two extension processes both read 41 and both hand out
/// 42; that cannot happen here.
///
/// **A counter or an outbox?** Use a counter to number notifications whose payload lives
/// elsewhere, or that have none: "the shared state changed, read it", where the state is a store
/// value the producer overwrites (the latest totals, a setting), or the sign of life a
/// ``/SignalValues/Heartbeat`` carries the number of. A ``SequenceTracker`` then tells the consumer
/// exactly which notifications it missed, and the counter stays one small value whatever the
/// traffic. When the consumer must receive every *payload* — each event, each fact — publish it to
/// a ``SequencedOutbox`` instead: the entry and its number are one write, and a consumer that
/// missed notifications still drains every entry, where a counter beside a separate write of
/// the payload could be split from it by a kill.
///
/// The first call on an absent key draws a fresh ``/SignalValues/SequenceEpoch`` and returns value
/// 1. Removing the key, reinstalling the app or wiping its container therefore starts a new epoch,
/// which a consumer sees as a reset rather than as old numbers.
///
/// ```swift
/// // In the DeviceActivity monitor extension:
/// let counter = try SequenceCounter(store: store, key: "usage-sequence")
/// let number = try counter.next()
/// try recordUsage(number)
/// postDarwinNotification()
/// ```
///
/// Stored form (JSON, under ``key``): `{"epoch":"5f1c0a3be29d4471","last":41}`, where `last`
/// is the value handed out most recently.
public struct SequenceCounter: Sendable {
  /// The store key holding the counter.
  public let key: String
  private let store: any SharedStore
  private let storeKey: StoreKey<CounterRecord?>

  /// Creates a counter on `key` of `store`; nothing is written until the first ``next()``.
  ///
  /// - Parameters:
  ///   - store: The store holding the counter, shared by every producer process.
  ///   - key: A valid store key.
  /// - Throws: ``SequenceTrackingError/store(_:)`` with
  ///   `SharedStoreError/invalidKey(key:reason:)` for an invalid key.
  public init(store: any SharedStore, key: String) throws(SequenceTrackingError) {
    do {
      try StoreKeyRules.validate(key)
    } catch {
      throw .store(error)
    }
    self.store = store
    self.key = key
    self.storeKey = StoreKey(key, default: nil)
  }

  /// Hands out the next number, in one atomic, durable step.
  ///
  /// - Returns: The number, one more than the last one handed out in the same epoch, or value 1
  ///   of a fresh epoch when the key was absent.
  /// - Throws: ``SequenceTrackingError/store(_:)`` when the store fails or the stored value does
  ///   not decode (it is never replaced behind your back), and
  ///   ``SequenceTrackingError/exhausted(key:)`` when the epoch has no value left; either way no
  ///   number was handed out. ``SequenceTrackingError/notDurable(committed:key:path:errno:)``
  ///   when the number *was* handed out (``CommittedChange/issued(_:)`` names it) but the store
  ///   could not flush it: use that number, and do not call `next()` again for it.
  public func next() throws(SequenceTrackingError) -> SequenceNumber {
    try SequenceTrackingError.collecting { committed throws(SharedStoreError) in
      try store.updateCapturingFailure(storeKey) {
        record throws(SequenceTrackingError) -> SequenceNumber in
        let advanced: CounterRecord
        if let current = record {
          guard current.last < .max else { throw .exhausted(key: key) }
          advanced = CounterRecord(epoch: current.epoch, last: current.last + 1)
        } else {
          var generator = SystemRandomNumberGenerator()
          advanced = CounterRecord(epoch: .random(using: &generator), last: 1)
        }
        record = advanced
        committed = .issued(advanced.number)
        return advanced.number
      }
    }
  }

  /// Returns the number handed out most recently, without handing out a new one.
  ///
  /// A consumer can poll this to see how far the producer has got (see
  /// ``SequenceTracker/observeHead(_:)``). It reads without taking the store's lock.
  ///
  /// - Returns: The last number handed out, or `nil` when none has been in the current epoch.
  /// - Throws: ``SequenceTrackingError/store(_:)``.
  public func current() throws(SequenceTrackingError) -> SequenceNumber? {
    do {
      return try store.value(for: storeKey)?.number
    } catch {
      throw .store(error)
    }
  }
}

/// The stored form of a ``SequenceCounter``.
struct CounterRecord: Codable, Sendable, Equatable {
  var epoch: SequenceEpoch
  var last: UInt64

  var number: SequenceNumber { SequenceNumber(epoch: epoch, value: last) }
}
