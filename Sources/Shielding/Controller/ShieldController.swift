import Foundation
import SharedStore
import TrackerSignals
import UsageModel

/// The shared folder's shield intents and applied state: the app records intents, the monitor
/// extension decides and applies.
///
/// Only the extension applies shields. The app calls ``record(_:)`` (start a focus session,
/// take a break, redeem earned time, change a profile) and may show ``derivation()``'s state;
/// each extension callback calls ``decide(now:)``, applies the decision, then
/// ``markApplied(_:)``.
///
/// ```swift
/// // In the DeviceActivityMonitor subclass:
/// let shields = ShieldController<String>(folder: folder, timeZone: zone)
/// let decision = shields.decide(now: Date())
/// for write in decision.writes {
///   apply(write.store, to: ShieldController<String>.storeName(write.index))
/// }
/// for index in decision.clears { clear(ShieldController<String>.storeName(index)) }
/// try shields.markApplied(decision)
/// ```
///
/// **Never fail open.** An error never removes a shield: unreadable intents change nothing;
/// an undecodable record lets later intents add shields but not lift them; a clock that went
/// backwards or an intent log that evicted records keeps every shield last applied, with
/// anything newly required; more targets than the stores hold shield every category. Each is
/// reported in ``ShieldDecision/diagnostics``.
///
/// **A kill between applying and recording lifts nothing.** A decision that changes a store is
/// written ahead, as pending, before ``decide(now:)`` returns it; until ``markApplied(_:)``
/// records it, the stores it changes count as unknown, and the next decision writes or clears
/// each of them, so that applying it leaves exactly what it wants whatever a killed process
/// had applied. A write-ahead that fails gives a decision that only adds shields.
public struct ShieldController<Token: ShieldToken>: Sendable {
  /// The store of the shared folder.
  public let store: any SharedStore
  /// The folder's layout, which names the keys (`SharedFolderLayout.shieldIntentsKey` and
  /// `shieldAppliedKey`).
  public let layout: SharedFolderLayout
  /// The zone of the schedules' wall clock.
  public let timeZone: TimeZone
  /// What the controller remembers between an extension's callbacks.
  let memory = ShieldMemory<Token>()
  /// The most intents the log keeps: 4,096.
  ///
  /// An eviction is reported and holds every shield.
  public static var intentCapacity: Int { 4_096 }

  /// A controller on a shared folder.
  ///
  /// - Parameters:
  ///   - folder: The shared folder, as the extension and the app open it.
  ///   - timeZone: The zone of the schedules' wall clock.
  public init(folder: SharedFolder, timeZone: TimeZone) {
    self.init(store: folder.store, layout: folder.layout, timeZone: timeZone)
  }

  /// A controller on a store.
  ///
  /// - Parameters:
  ///   - store: The shared store.
  ///   - layout: The folder's layout; the library's unless you say.
  ///   - timeZone: The zone of the schedules' wall clock.
  public init(store: any SharedStore, layout: SharedFolderLayout = .standard, timeZone: TimeZone) {
    self.store = store
    self.layout = layout
    self.timeZone = timeZone
  }

  /// The name of the store at `index`: `stk.shield.<index>`, for `ManagedSettingsStore.Name`.
  ///
  /// - Parameter index: A store's index.
  /// - Returns: Its name.
  public static func storeName(_ index: Int) -> String { "stk.shield.\(index)" }

  // MARK: - The app's side

  /// Records an intent for the extension, once.
  ///
  /// - Parameter intent: What the app wants.
  /// - Returns: `true` when recorded, `false` when an identical intent was already recorded.
  /// - Throws: ``ShieldingError/conflictingIntent(id:)`` when another intent has the
  ///   identifier, ``ShieldingError/encoding(_:)`` or ``ShieldingError/store(_:)``. Nothing is
  ///   recorded when it throws.
  /// - Complexity: O(*n*) in the intents kept.
  @discardableResult
  public func record(_ intent: ShieldIntent<Token>) throws(ShieldingError) -> Bool {
    let bytes = try Self.encode(intent)
    var conflict = false
    let appended: LogAppend?
    do {
      appended = try store.appendToLog(
        layout.shieldIntentsKey, capacity: Self.intentCapacity,
        examiningNewest: Self.intentCapacity
      ) { snapshot in
        for record in snapshot.records where Self.identifier(of: record.bytes) == intent.id {
          conflict = record.bytes != bytes
          return []
        }
        return [bytes]
      }
    } catch {
      throw .store(error)
    }
    if conflict { throw .conflictingIntent(id: intent.id) }
    return appended != nil
  }

  /// Removes the intents that can no longer change what is shielded at or after `cutoff`.
  ///
  /// The log keeps ``intentCapacity`` intents, and an eviction holds every shield; the app
  /// compacts it from time to time (on coming to the foreground, say) to stay far below. Pass an
  /// instant a day before the clock's (`now - 86_400`), so that a clock set a day ahead cannot
  /// remove an intent still in force. What is kept: the latest profile, override and budget
  /// reading of each, everything later than `cutoff`, earned time not yet over, and every focus
  /// session that may still shield (see <doc:DecidingWhatToShield>). Intents recorded meanwhile
  /// by another process are kept.
  ///
  /// A log with an undecodable record is left as it is: which intents the record supersedes is
  /// unknown, and removing its neighbours could lift a shield.
  ///
  /// - Parameter cutoff: The earliest instant whose state must not change.
  /// - Returns: How many intents were removed.
  /// - Throws: ``ShieldingError/store(_:)``.
  /// - Complexity: O(*n* log *n*) in the intents kept.
  @discardableResult
  public func compactIntents(before cutoff: Date) throws(ShieldingError) -> Int {
    let snapshot: LogSnapshot?
    do {
      snapshot = try store.readLog(layout.shieldIntentsKey)
    } catch {
      throw .store(error)
    }
    guard let snapshot, let last = snapshot.records.last?.position else { return 0 }
    var intents: [ShieldIntent<Token>] = []
    let decoder = JSONDecoder()
    for record in snapshot.records {
      do {
        intents.append(try decoder.decodeStored(ShieldIntent<Token>.self, from: record.bytes))
      } catch {
        return 0
      }
    }
    let kept = IntentCompaction.kept(intents, cutoff: cutoff)
    guard kept.count < intents.count else { return 0 }
    do {
      return try store.compactLog(layout.shieldIntentsKey) { record in
        guard record.position <= last, let id = Self.identifier(of: record.bytes) else {
          return true
        }
        return kept.contains(id)
      }
    } catch {
      throw .store(error)
    }
  }

  /// The records of the intent log, decoded where they decode.
  ///
  /// - Returns: The records, oldest first, and how many the log evicted.
  /// - Throws: ``ShieldingError/store(_:)`` when the log cannot be read.
  public func intentRecords() throws(ShieldingError) -> (
    records: [ShieldIntentRecord<Token>], evicted: UInt64
  ) {
    let snapshot: LogSnapshot?
    do {
      snapshot = try store.readLog(layout.shieldIntentsKey)
    } catch {
      throw .store(error)
    }
    guard let snapshot else { return ([], 0) }
    let decoder = JSONDecoder()
    let records = snapshot.records.map { record -> ShieldIntentRecord<Token> in
      do {
        return .intent(try decoder.decodeStored(ShieldIntent<Token>.self, from: record.bytes))
      } catch {
        return .undecodable(position: record.position, reason: "\(error)")
      }
    }
    return (records, snapshot.evictedCount)
  }

  /// The derivation of the recorded intents, for the app to show what is shielded and why.
  ///
  /// - Returns: The derivation.
  /// - Throws: ``ShieldingError/store(_:)`` when the log cannot be read.
  public func derivation() throws(ShieldingError) -> ShieldDerivation<Token> {
    ShieldDerivation(records: try intentRecords().records, timeZone: timeZone)
  }

  /// What the extension recorded of the shields it applies: the state last marked applied, and
  /// the decision being applied since, if any.
  ///
  /// A record with a ``ShieldAppliedRecord/pending`` decision says that the extension was
  /// applying it when it last stopped (or is applying it now): the device shields the applied
  /// state, the pending one or a mix of both until the next decision is applied.
  ///
  /// - Returns: The record, without diagnostics, or `nil` before the first decision that
  ///   changed a store.
  /// - Throws: ``ShieldingError/store(_:)`` when it cannot be read or decoded.
  public func appliedRecord() throws(ShieldingError) -> ShieldAppliedRecord<Token>? {
    let key = layout.shieldAppliedKey
    do {
      guard let data = try store.read(key) else { return nil }
      return try StoreCodec<ShieldAppliedRecord<Token>>.json.decode(data, key: key)
    } catch {
      throw .store(error)
    }
  }

  // MARK: - Helpers

  private struct IntentIdentifier: Decodable {
    let id: String
  }

  /// The identifier of a recorded intent, or `nil` for a record that does not decode: such a
  /// record is reported by every derivation, and holds no identifier to compare.
  static func identifier(of bytes: Data) -> String? {
    do {
      return try JSONDecoder().decodeStored(IntentIdentifier.self, from: bytes).id
    } catch {
      return nil
    }
  }

  private static func encode(_ intent: ShieldIntent<Token>) throws(ShieldingError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(intent)
    } catch {
      throw .encoding("\(error)")
    }
  }
}
