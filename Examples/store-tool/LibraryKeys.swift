import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import SignalValues
import TrackerSignals
import UsageModel

/// A key the library itself writes, found through the folder's layout and read with the module
/// that owns it — never by hand.
struct LibraryKey {
  /// What the key holds.
  let content: SharedFolderContent
  /// The layout the key was found in: the library's, as the extension and the app open it.
  let layout = SharedFolderLayout.standard

  /// The library's key `key`, or `nil` for a key the library does not write.
  init?(_ key: String) {
    guard let content = layout.content(of: key) else { return nil }
    self.content = content
  }

  /// The store key.
  var key: String { layout.key(of: content) }

  /// The folder's library side, through the layout.
  private func shared(_ store: FileStore) throws -> SharedFolder {
    try SharedFolder(store: store, layout: layout)
  }

  /// Decodes everything the key holds; returns what was decoded, or throws the owning module's
  /// typed error.
  func check(_ store: FileStore) throws -> String {
    let folder = try shared(store)
    switch content {
    case .facts:
      return count(try folder.outbox.drain(after: .start).entries.count, "fact") + " decode"
    case .factsMark:
      // The log alone: the heartbeats' row says what they carry.
      return try folder.outbox.loggedMark().map { "the last number handed out is \($0.value)" }
        ?? "no number handed out"
    case .factsRecoveries:
      return count(try folder.outbox.recoveries().count, "recovery", plural: "recoveries")
        + " decode"
    case .heartbeats(let source):
      let history = try folder.heartbeats(of: source).history()
      let decoded = count(history.heartbeats.count, "heartbeat") + " decode"
      // The monitor extension's heartbeats carry the outbox's high-water mark.
      guard source == .monitorExtension, folder.outbox.carriesMark,
        let mark = folder.heartbeats().carriedMark()
      else {
        return decoded
      }
      return decoded + "; the last number handed out is \(mark.value)"
    case .diagnostics:
      let entries = try folder.diagnostics.snapshot().entries
      return count(entries.count, "diagnostic entry", plural: "diagnostic entries") + " decode"
    case .appState:
      guard try pipelineRecord(store) != nil else { return "absent" }
      return "the pipeline state decodes"
    case .appFacts, .appStarts:
      return count(try appFacts(store).count, "fact") + " decode"
    case .appSummaries:
      return count(try store.readLog(key)?.records.count ?? 0, "record") + " read"
    case .appLedger:
      return count(try ledgerTransactions(store).count, "transaction") + " decode"
    case .shieldIntents, .shieldApplied:
      return try checkShields(store)
    }
  }

  /// Prints the key decoded, after `header`; with `json`, its documented JSON forms instead,
  /// one record a line.
  func show(_ folder: Folder, header: String, json: Bool = false) throws(Failure) {
    do {
      switch content {
      case .facts: try showFacts(folder, header: header, json: json)
      case .factsMark:
        let outbox = try shared(folder.store).outbox
        print(header)
        print(
          "the outbox's high-water mark log (SequencedOutbox): "
            + (try outbox.loggedMark().map { "last number handed out \($0)" } ?? "empty"))
      case .factsRecoveries:
        let recoveries = try shared(folder.store).outbox.recoveries()
        if json {
          for recovery in recoveries { print(try jsonLine(recovery)) }
        } else {
          print(header)
          print(
            "the outbox's epochs that ended early (SequencedOutbox): "
              + count(recoveries.count, "recovery", plural: "recoveries"))
          for recovery in recoveries { print("  \(recovery)") }
        }
      case .heartbeats(let source):
        try showHeartbeats(folder, source: source, header: header, json: json)
      case .diagnostics: try showDiagnostics(folder, header: header, json: json)
      case .appState: try showPipelineState(folder, header: header)
      case .appFacts, .appStarts: try showAppFacts(folder, header: header, json: json)
      case .appLedger:
        let transactions = try ledgerTransactions(folder.store)
        if json {
          for transaction in transactions { print(try jsonLine(transaction)) }
        } else {
          print(header)
          print(
            "the app's reward ledger (UsagePipeline): "
              + count(transactions.count, "transaction"))
        }
      case .shieldIntents, .shieldApplied:
        try showShields(folder, header: header, json: json)
      case .appSummaries:
        print(header)
        print(
          "the app's summaries of past days (UsagePipeline): "
            + count(try folder.store.readLog(key)?.records.count ?? 0, "record"))
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw .damaged(key, error)
    }
  }

  // MARK: - Reading

  /// The pipeline's stored record — its cursor and state — or `nil` when it has none.
  func pipelineRecord(_ store: FileStore) throws -> OutboxConsumerRecord<PipelineState>? {
    // The record's newest version: the consumer appends each change to the key's log.
    guard let data = try store.readLog(layout.appStateKey, newest: 1)?.records.last?.bytes else {
      return nil
    }
    return try StoreCodec<OutboxConsumerRecord<PipelineState>>.json.decode(
      data, key: layout.appStateKey)
  }

  /// The transactions of the app side's reward ledger, in their order.
  ///
  /// The ledger's other records are skipped: its rate, the log's first record, and the
  /// checkpoints that stand for the transactions a compaction let go.
  private func ledgerTransactions(_ store: FileStore) throws -> [LedgerTransaction] {
    let decoder = JSONDecoder()
    let others = [Data(#"{"rate":"#.utf8), Data(#"{"checkpoint":"#.utf8)]
    return try (store.readLog(key)?.records ?? []).compactMap { record in
      guard !others.contains(where: { record.bytes.starts(with: $0) }) else { return nil }
      return try decoder.decode(LedgerTransaction.self, from: record.bytes)
    }
  }

  /// The facts of an app side's log of facts, in their order.
  private func appFacts(_ store: FileStore) throws -> [MonitorFact] {
    let decoder = JSONDecoder()
    return try (store.readLog(key)?.records ?? []).map {
      try decoder.decode(MonitorFact.self, from: $0.bytes)
    }
  }

  /// Prints the facts of an app side's log of facts, one a line.
  private func showAppFacts(_ folder: Folder, header: String, json: Bool) throws {
    let facts = try appFacts(folder.store)
    if json {
      for fact in facts { print(try jsonLine(fact)) }
      return
    }
    print(header)
    let what = content == .appStarts ? "intervalDidStart facts" : "facts of one UTC day"
    print("the app's \(what) (UsagePipeline): " + count(facts.count, "fact"))
    guard !facts.isEmpty else { return }
    print("")
    let rows = facts.map(Self.cells)
    for line in table([["CALLBACK", "ACTIVITY", "EVENT", "INSTANT"]] + rows) { print(line) }
  }

  /// The log's counts, for the header line.
  private func counts(_ store: FileStore) throws -> LogSnapshot? {
    try store.readLog(key, newest: 0)
  }

  // MARK: - Facts

  private func showFacts(_ folder: Folder, header: String, json: Bool) throws {
    let entries = try shared(folder.store).outbox.drain(after: .start).entries
    if json {
      for entry in entries { print(try jsonLine(entry)) }
      return
    }
    let log = try counts(folder.store)
    let numbers =
      entries.first.map { first in
        ", numbers \(first.number.value)...\(entries.last?.number.value ?? 0) of epoch "
          + "\(first.number.epoch)"
      } ?? ""
    print(header)
    print(
      "the monitor extension's facts (MonitorRecorder's outbox): "
        + count(entries.count, "fact") + numbers
        + (log.map { ", capacity \($0.capacity), \($0.evictedCount) evicted" } ?? ""))
    if let last = entries.last?.number { print(drained(folder.store, head: last)) }
    guard !entries.isEmpty else { return }
    print("")
    let rows = entries.map { entry in
      ["\(entry.number.value)"] + Self.cells(entry.payload)
    }
    for line in table([["NUMBER", "CALLBACK", "ACTIVITY", "EVENT", "INSTANT"]] + rows) {
      print(line)
    }
  }

  /// How far the app's pipeline has drained the outbox whose newest number is `head`.
  private func drained(_ store: FileStore, head: SequenceNumber) -> String {
    let state = layout.appStateKey
    let record: OutboxConsumerRecord<PipelineState>?
    do {
      record = try pipelineRecord(store)
    } catch {
      return "the app's progress is unknown: \(state) does not read (\(error))"
    }
    guard let record else { return "the app has drained nothing yet: there is no \(state)" }
    guard let last = record.cursor.last else { return "the app (\(state)) has drained nothing yet" }
    return "the app (\(state)) has drained up to \(last): " + Self.pending(after: last, head: head)
  }

  /// What is left to drain after `last` in an outbox whose newest number is `head`.
  private static func pending(after last: SequenceNumber, head: SequenceNumber) -> String {
    guard last.epoch == head.epoch else {
      return "the outbox (now \(head)) was reset since — removed, quarantined or reinstalled — "
        + "and the next drain reports the reset"
    }
    guard head.value >= last.value else {
      return "the outbox (now \(head)) is behind the cursor — rolled back, as by a restored "
        + "backup — and the next drain reports it"
    }
    let pending = head.value - last.value
    return pending == 0 ? "nothing is pending" : count(pending, "fact") + " not yet drained"
  }

  /// Callback, activity, event and instant of a fact.
  static func cells(_ fact: MonitorFact) -> [String] {
    [fact.callback.rawValue, fact.activity, fact.event ?? "-", instant(fact.at)]
  }

  // MARK: - Heartbeats

  private func showHeartbeats(
    _ folder: Folder, source: HeartbeatSource, header: String, json: Bool
  ) throws {
    let history = try shared(folder.store).heartbeats(of: source).history()
    if json {
      for heartbeat in history.heartbeats { print(try jsonLine(heartbeat)) }
      return
    }
    print(header)
    print(
      "heartbeats of \(source) (HeartbeatRecorder): "
        + count(history.heartbeats.count, "heartbeat") + ", capacity \(history.capacity), "
        + "\(history.evictedCount) evicted")
    guard let first = history.heartbeats.first, let last = history.latest else { return }
    // The longest stretch without a heartbeat: where to look first when tracking stopped.
    var silence = (from: first.at, to: first.at)
    for (earlier, later) in zip(history.heartbeats, history.heartbeats.dropFirst()) {
      if later.at.timeIntervalSince(earlier.at) > silence.to.timeIntervalSince(silence.from) {
        silence = (earlier.at, later.at)
      }
    }
    let longest = Duration.seconds(silence.to.timeIntervalSince(silence.from))
    print(
      "from \(instant(first.at)) to \(instant(last.at))"
        + (longest == .zero
          ? ""
          : "; longest silence \(format(longest)), from \(instant(silence.from)) to "
            + instant(silence.to)))
    print("")
    let rows = history.heartbeats.map { heartbeat in
      [
        instant(heartbeat.at), heartbeat.sequence.map(String.init) ?? "-",
        heartbeat.memoryBytes.map(megabytes) ?? "-",
      ]
    }
    for line in table([["INSTANT", "SEQUENCE", "MEMORY"]] + rows) { print(line) }
  }

  // MARK: - Diagnostics

  private func showDiagnostics(_ folder: Folder, header: String, json: Bool) throws {
    let (entries, evicted) = try shared(folder.store).diagnostics.snapshot()
    if json {
      for entry in entries { print(try jsonLine(entry)) }
      return
    }
    let capacity = try counts(folder.store).map { ", capacity \($0.capacity)" } ?? ""
    let failures = entries.filter { !$0.success }.count
    print(header)
    print(
      "the extension's diagnostic log (DiagnosticLog): "
        + count(entries.count, "entry", plural: "entries") + " (\(failures) failed)"
        + capacity + ", \(evicted) evicted")
    guard !entries.isEmpty else { return }
    print("")
    let rows = entries.map { entry in
      [
        instant(entry.at), entry.success ? "ok" : "FAILED", entry.action.rawValue,
        entry.eventName, entry.memoryBytes.map(megabytes) ?? "-", entry.errorDescription ?? "",
      ]
    }
    for line in table([["INSTANT", "RESULT", "ACTION", "EVENT", "MEMORY", "ERROR"]] + rows) {
      print(line)
    }
  }

  // MARK: - Pipeline state

  private func showPipelineState(_ folder: Folder, header: String) throws {
    guard let record = try pipelineRecord(folder.store) else { return }
    let state = record.state
    print(header)
    print("the app's pipeline state (UsagePipeline), revision \(record.revision)")
    var head = ""
    do {
      if let number = try shared(folder.store).outbox.head()?.number,
        let last = record.cursor.last
      {
        head = ": " + Self.pending(after: last, head: number)
      }
    } catch {
      head = " (the outbox does not read: \(error))"
    }
    let statistics = state.sequence.statistics
    var lines = [
      ["cursor", "\(record.cursor)" + head],
      ["facts", "in the logs \(layout.appFactsKeyPrefix)<UTC day>"],
      [
        "last applied",
        state.lastApplied.map { "\($0.number), a fact of \(instant($0.at))" } ?? "none",
      ],
      [
        "delivery",
        "\(statistics.received) received, \(statistics.missed) missed, "
          + "\(statistics.recovered) recovered, \(statistics.duplicates) duplicates, "
          + "\(statistics.resets) resets",
      ],
      [
        "losses",
        state.losses.isEmpty ? "none" : count(state.losses.count, "loss", plural: "losses"),
      ],
    ]
    for loss in state.losses {
      lines.append([
        "",
        "\(loss.range.values.lowerBound)...\(loss.range.values.upperBound)"
          + " of epoch \(loss.range.epoch)"
          + ", between \(instant(loss.after)) and \(instant(loss.before))",
      ])
    }
    lines += [
      [
        "undecodable",
        state.undecodable.isEmpty
          ? "none" : state.undecodable.map(\.description).joined(separator: ", "),
      ],
      ["ledger", "in the log \(layout.appLedgerKey)"],
      [
        "tracker down",
        state.acknowledgedTrackerDown.isEmpty
          ? "no alert acknowledged"
          : "alert acknowledged for " + count(state.acknowledgedTrackerDown.count, "window")
            + " starting " + state.acknowledgedTrackerDown.map(instant).joined(separator: ", "),
      ],
    ]
    for line in table(lines.map { ["  " + $0[0], $0[1]] }) { print(line) }
  }
}

/// One value in its documented JSON form, on one line.
func jsonLine(_ value: some Encodable) throws -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return String(decoding: try encoder.encode(value), as: UTF8.self)
}
