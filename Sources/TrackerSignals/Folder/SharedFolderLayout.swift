import SharedStore
import SignalValues
import UsageModel

/// Where everything the library keeps in the shared folder lives: the keys, the capacities, the
/// durabilities and the format versions, in one value.
///
/// The monitor extension's ``MonitorRecorder``, the app side (AppPipeline's
/// ``/AppPipeline/UsagePipeline``) and tools that inspect the folder all open it through a
/// ``SharedFolder`` with one layout, so they cannot disagree on a key or a capacity. Change a field
/// only if you must (two pipelines in one folder, a longer outbox), and give the extension and the
/// app the same layout.
///
/// ```swift
/// var layout = SharedFolderLayout.standard
/// layout.outboxCapacity = 4_096  // the app may stay closed for several busy days
/// let folder = try SharedFolder(directory: groupFolder, layout: layout)
/// ```
///
/// JSON form: `{"outboxKey": "stk.monitor.facts", "outboxCapacity": 1024, "diagnosticsKey":
/// "stk.diagnostics", "diagnosticsCapacity": 100, "heartbeatCapacity": 2880, "appStateKey":
/// "stk.pipeline.state"}`.
public struct SharedFolderLayout: Sendable, Hashable, Codable {
  /// The format version of every value the library stores in the folder: 1.
  ///
  /// Each stored file also carries the store's own file-format version
  /// (<doc:/ScreenTimeKit/FileFormat>); a reader refuses a newer version with a typed error rather
  /// than misreading it.
  public static let formatVersion = 1

  /// The key of the monitor extension's facts: a sequenced outbox of
  /// ``/SignalValues/MonitorFact``s.
  public var outboxKey: String
  /// The most facts the outbox keeps.
  ///
  /// Facts the app has not drained when they are evicted are reported to it as lost. Choose it
  /// to cover the longest time the app may stay closed.
  public var outboxCapacity: Int
  /// The key of the extension's diagnostic log.
  public var diagnosticsKey: String
  /// The most diagnostic entries kept.
  public var diagnosticsCapacity: Int
  /// The most heartbeats kept per source: a day at a 30-second cadence by default.
  ///
  /// A source's key is ``heartbeatKey(of:)``.
  public var heartbeatCapacity: Int
  /// The key of the app side's state and its cursor in the outbox.
  public var appStateKey: String

  /// The library's layout: `stk.monitor.facts` (1,024 facts), `stk.diagnostics` (100 entries),
  /// `stk.heartbeats.<source>` (2,880 heartbeats each) and `stk.pipeline.state`.
  public static let standard = SharedFolderLayout(
    outboxKey: "stk.monitor.facts", outboxCapacity: 1_024, diagnosticsKey: "stk.diagnostics",
    diagnosticsCapacity: 100, heartbeatCapacity: HeartbeatRecorder.defaultCapacity,
    appStateKey: "stk.pipeline.state")

  /// The library's layout with an outbox of `outboxCapacity` facts.
  ///
  /// - Parameter outboxCapacity: The most facts kept, at least 1.
  /// - Returns: The layout; ``SharedFolder`` checks the capacity when it opens.
  public static func standard(outboxCapacity: Int) -> SharedFolderLayout {
    var layout = standard
    layout.outboxCapacity = outboxCapacity
    return layout
  }

  /// Creates a layout; ``standard`` is the library's.
  ///
  /// The values are checked when a ``SharedFolder`` is opened with the layout.
  ///
  /// - Parameters:
  ///   - outboxKey: The key of the facts' outbox.
  ///   - outboxCapacity: The most facts kept, at least 1.
  ///   - diagnosticsKey: The key of the diagnostic log.
  ///   - diagnosticsCapacity: The most diagnostic entries kept, at least 1.
  ///   - heartbeatCapacity: The most heartbeats kept per source,
  ///     1...`HeartbeatRecorder.maximumCapacity`.
  ///   - appStateKey: The key of the app side's state.
  public init(
    outboxKey: String, outboxCapacity: Int, diagnosticsKey: String, diagnosticsCapacity: Int,
    heartbeatCapacity: Int, appStateKey: String
  ) {
    self.outboxKey = outboxKey
    self.outboxCapacity = outboxCapacity
    self.diagnosticsKey = diagnosticsKey
    self.diagnosticsCapacity = diagnosticsCapacity
    self.heartbeatCapacity = heartbeatCapacity
    self.appStateKey = appStateKey
  }

  /// The key of `source`'s heartbeat history: `stk.heartbeats.<source>`.
  ///
  /// - Parameter source: Whose heartbeats.
  /// - Returns: The key.
  public func heartbeatKey(of source: HeartbeatSource) -> String {
    HeartbeatRecorder.key(of: source)
  }

  /// The key of the app side's facts whose instants fall on `day`, in UTC:
  /// `<appStateKey>.facts.<yyyy-mm-dd>`.
  ///
  /// The app side keeps the facts it drained in one append-only log per UTC day, so that a
  /// drain appends only what it drained and a dashboard reads only the days it shows.
  ///
  /// - Parameter day: The day, in UTC.
  /// - Returns: The key.
  public func appFactsKey(of day: LocalDay) -> String {
    appFactsKeyPrefix + day.description
  }

  /// What every ``appFactsKey(of:)`` starts with: `<appStateKey>.facts.`.
  public var appFactsKeyPrefix: String { appStateKey + ".facts." }

  /// The key of the app side's copy of the `intervalDidStart` facts it drained:
  /// `<appStateKey>.starts`.
  ///
  /// Attributing an event to its monitoring interval needs the starts of the week before it;
  /// this small log holds them, so that the days of facts before a dashboard's are not read.
  public var appStartsKey: String { appStateKey + ".starts" }

  /// The key of the app side's summaries of past days: `<appStateKey>.days`.
  ///
  /// Each summary keeps a day's usage, so that a month's budget is read from one summary per
  /// past day, and still after the day's facts expire.
  public var appSummariesKey: String { appStateKey + ".days" }

  /// The key of the app side's reward ledger: `<appStateKey>.ledger`, an append-only log of its
  /// transactions.
  public var appLedgerKey: String { appStateKey + ".ledger" }

  /// The key of the app's shield intents: `<appStateKey>.shields`, an append-only log of
  /// Shielding's `ShieldIntent`s that the app writes and the monitor extension reads.
  public var shieldIntentsKey: String { appStateKey + ".shields" }

  /// The key of the shields the monitor extension applies: `<appStateKey>.shields.applied`, one
  /// Shielding `ShieldAppliedRecord` in its JSON form — the `ShieldState` last marked applied
  /// and the decision being applied, written ahead of it: `{"applied": ShieldState,
  /// "pending": {"state": ShieldState, "changedStores": [0], "changesAllCategories": false}}`.
  public var shieldAppliedKey: String { appStateKey + ".shields.applied" }

  /// The key of the outbox's high-water mark (in the heartbeats' store, without flushes):
  /// `<outboxKey>.mark`, an append-only log of 16-byte records.
  public var outboxMarkKey: String { outboxKey + ".mark" }

  /// The key of the outbox's recovery log: `<outboxKey>.recoveries`, a bounded log of
  /// `OutboxRecovery` (SequenceTracking) in its JSON form, written durably.
  public var outboxRecoveriesKey: String { outboxKey + ".recoveries" }

  /// The longest ``outboxKey``: the outbox's other keys add at most 11 characters to it.
  public static let maximumOutboxKeyLength = StoreKeyRules.maximumLength - 11

  /// The longest ``appStateKey``: the app side's other keys add at most 17 characters to it.
  public static let maximumAppStateKeyLength = StoreKeyRules.maximumLength - 17

  /// What a key of the folder holds, if it is one of the layout's.
  ///
  /// - Parameter key: A store key.
  /// - Returns: Its content, or `nil` for a key the library does not write.
  public func content(of key: String) -> SharedFolderContent? {
    switch key {
    case outboxKey: return .facts
    case outboxMarkKey: return .factsMark
    case outboxRecoveriesKey: return .factsRecoveries
    case diagnosticsKey: return .diagnostics
    case appStateKey: return .appState
    case appStartsKey: return .appStarts
    case appSummariesKey: return .appSummaries
    case appLedgerKey: return .appLedger
    case shieldIntentsKey: return .shieldIntents
    case shieldAppliedKey: return .shieldApplied
    default:
      if key.hasPrefix(appFactsKeyPrefix) {
        do throws(UsageModelError) {
          return .appFacts(try LocalDay(parsing: String(key.dropFirst(appFactsKeyPrefix.count))))
        } catch {
          return nil  // not a day: not a key this library writes
        }
      }
      guard key.hasPrefix(HeartbeatRecorder.keyPrefix),
        let source = HeartbeatSource(
          rawValue: String(key.dropFirst(HeartbeatRecorder.keyPrefix.count)))
      else { return nil }
      return .heartbeats(source)
    }
  }

  /// The key of `content`.
  ///
  /// - Parameter content: What the key holds.
  /// - Returns: Its key.
  public func key(of content: SharedFolderContent) -> String {
    switch content {
    case .facts: return outboxKey
    case .factsMark: return outboxMarkKey
    case .factsRecoveries: return outboxRecoveriesKey
    case .heartbeats(let source): return heartbeatKey(of: source)
    case .diagnostics: return diagnosticsKey
    case .appState: return appStateKey
    case .appFacts(let day): return appFactsKey(of: day)
    case .appStarts: return appStartsKey
    case .appSummaries: return appSummariesKey
    case .appLedger: return appLedgerKey
    case .shieldIntents: return shieldIntentsKey
    case .shieldApplied: return shieldAppliedKey
    }
  }

  /// Checks the layout: valid keys, each its own and none a heartbeat key, and capacities in
  /// range.
  ///
  /// - Throws: ``TrackerSignalsError/invalidValue(field:value:requirement:)`` naming the field.
  public func validate() throws(TrackerSignalsError) {
    var seen: Set<String> = []
    for (field, key) in [
      ("outboxKey", outboxKey), ("diagnosticsKey", diagnosticsKey), ("appStateKey", appStateKey),
      ("outboxKey", outboxMarkKey), ("outboxKey", outboxRecoveriesKey),
    ] {
      do {
        try StoreKeyRules.validate(key)
      } catch {
        throw .invalidValue(field: field, value: key, requirement: error.description)
      }
      guard !key.hasPrefix(HeartbeatRecorder.keyPrefix), !key.hasPrefix(appStateKey + "."),
        seen.insert(key).inserted
      else {
        throw .invalidValue(
          field: field, value: key,
          requirement:
            "a key of its own, not starting with \(HeartbeatRecorder.keyPrefix) or the app "
            + "state's key and a dot")
      }
    }
    guard outboxKey.count <= Self.maximumOutboxKeyLength else {
      throw .invalidValue(
        field: "outboxKey", value: outboxKey,
        requirement: "at most \(Self.maximumOutboxKeyLength) characters, so that the outbox's "
          + "mark and recovery keys are valid")
    }
    guard appStateKey.count <= Self.maximumAppStateKeyLength else {
      throw .invalidValue(
        field: "appStateKey", value: appStateKey,
        requirement: "at most \(Self.maximumAppStateKeyLength) characters, so that the app "
          + "side's day keys are valid")
    }
    for (field, value, limit) in [
      ("outboxCapacity", outboxCapacity, Int.max),
      ("diagnosticsCapacity", diagnosticsCapacity, Int.max),
      ("heartbeatCapacity", heartbeatCapacity, HeartbeatRecorder.maximumCapacity),
    ] where !(1...limit).contains(value) {
      throw .invalidValue(
        field: field, value: "\(value)",
        requirement: limit == Int.max ? "at least 1" : "1...\(limit)")
    }
  }
}

/// What one key of the shared folder holds.
public enum SharedFolderContent: Sendable, Hashable {
  /// The monitor extension's facts: a sequenced outbox of ``/SignalValues/MonitorFact``, written
  /// durably.
  case facts
  /// The outbox's high-water mark: an append-only log of 16-byte records (an epoch and a
  /// number), written without flushes.
  case factsMark
  /// The outbox's recovery log: a bounded log of SequenceTracking's `OutboxRecovery`, written
  /// durably.
  case factsRecoveries
  /// A source's heartbeats: an append-only log of binary records, written without flushes
  /// (`FileStore.Durability.processCrashSafe`): one lost to a power cut is replaced seconds
  /// later.
  case heartbeats(HeartbeatSource)
  /// The extension's diagnostic log: a bounded log of ``/SignalValues/DiagnosticEntry``, written
  /// durably.
  case diagnostics
  /// The app side's state and its cursor in the outbox, written durably.
  case appState
  /// The app side's facts of one UTC day: an append-only log of ``/SignalValues/MonitorFact``,
  /// written durably.
  case appFacts(LocalDay)
  /// The app side's `intervalDidStart` facts: an append-only log of ``/SignalValues/MonitorFact``,
  /// written durably.
  case appStarts
  /// The app side's summaries of past days: an append-only log, written durably.
  case appSummaries
  /// The app side's reward ledger: an append-only log of ``/BudgetMath/LedgerTransaction``, written
  /// durably.
  case appLedger
  /// The app's shield intents: an append-only log of Shielding's `ShieldIntent`s, written
  /// durably.
  case shieldIntents
  /// The shields the monitor extension last applied: one Shielding `ShieldState`, written
  /// durably.
  case shieldApplied
}
