import Foundation
import SharedStore

extension StoredFormatSandbox {
  /// Empties the directory, runs `body`, and returns the file it left for `key`.
  func written(_ key: String, _ body: (FileStore) throws -> Void) throws -> [UInt8] {
    try plant([:])
    try body(store)
    guard let bytes = bytes(ofKey: key) else {
      throw StoredFormatViolation(
        format: key, operation: "writing a seed", reason: "no file was written", file: [])
    }
    return bytes
  }
}

/// Reads, writes and updates of a value file
/// (`Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md`, "Value files").
final class ValueFileDriver: StoredFormatDriver {
  let key = "value"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox
  private let typed = StoreKey("value", default: [String: Int]())

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let key = key
    let json = Data(#"{"app":"com.example","minutes":42}"#.utf8)
    let large = Data(("[" + (0..<600).map(String.init).joined(separator: ",") + "]").utf8)
    let log = LogFileFormat.Header(
      tokenBase: 9, identity: 3, capacity: 2, evicted: 0, nextPosition: 1)
    var newer = Array(StoreFileFormat.encode(payload: json, generation: 5))
    StoredBytes.store(UInt16(2), &newer, at: 4)
    StoredBytes.store(~UInt16(2), &newer, at: 6)
    seeds = [
      try sandbox.written(key) { try $0.write(json, for: key) },
      try sandbox.written(key) { store in
        try store.write(json, for: key)
        try store.update(key) { (data: inout Data?) in data = large }
      },
      Array(StoreFileFormat.encode(payload: Data(), generation: 1)),
      Array(StoreFileFormat.encode(payload: json, generation: .max)),
      Array(StoreFileFormat.encode(payload: Data([0, 0xFF, 0]), generation: 1 << 62)),
      StoredBytes.repairingChecksums(newer),
      Array(LogFileFormat.file(header: log, records: [LogRecord(position: 1, bytes: json)])),
    ]
  }

  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let store = sandbox.store
    let key = key
    let name = StoredBytes.fileName(forKey: key)
    let file = probe.file
    let token = try probe.read("changeToken") { try store.changeToken(for: key) }
    let read = try probe.read("read") { try store.read(key) }
    try probe.read("value(for:)") { try store.value(for: typed) }
    let log = try probe.read("readLog") { try store.readLog(key) }
    if let payload = read.value {
      // What the document says a valid file holds.
      try probe.require(
        payload.map(Array.init) == Array(file.dropFirst(StoredBytes.valueHeaderSize)), "read",
        "the payload is not the bytes after the 32-byte header")
      let generation = StoredBytes.load(UInt64.self, file, at: 8)
      try probe.require(
        token.value??.generation == generation, "changeToken",
        "the token \(String(describing: token.value)) is not the header's generation")
      try probe.require(
        !log.returned, "readLog", "a value file was read as an append-only log")
    }
    if token.value == nil {
      try probe.require(!read.returned, "read", "read a file whose header changeToken refused")
    }

    let marker = Data("*".utf8)
    let updated = try probe.change("update", mayChange: [name]) {
      try store.update(key) { (data: inout Data?) in data = (data ?? Data()) + marker }
    }
    if let payload = read.value, let old = token.value??.generation {
      try probe.require(updated.returned, "update", "refused a file that read accepted")
      let after = try probe.read("read after update") { try store.read(key) }
      try probe.require(
        after.value == .some((payload ?? Data()) + marker), "read after update",
        "does not give the updated payload")
      let next = try probe.read("changeToken after update") { try store.changeToken(for: key) }
      try probe.require(
        next.value??.generation == old &+ 1, "changeToken after update",
        "the generation is not the previous one plus one")
    } else {
      try probe.require(!updated.returned, "update", "changed a file that read refused")
    }

    try probe.restore()
    let written = try probe.change("write", mayChange: [name]) {
      try store.write(marker, for: key)
    }
    if written.returned {
      let after = try probe.read("read after write") { try store.read(key) }
      try probe.require(
        after.value == .some(marker), "read after write", "does not give the written value")
    } else if case .corrupted? = read.error as? SharedStoreError {
      try probe.require(false, "write", "refused to replace a damaged file")
    }
    return read.returned
  }
}

/// Reads, appends and compactions of an append-only log file
/// (`Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md`,
/// "Log files").
final class LogFileDriver: StoredFormatDriver {
  let key = "log"
  let companions: [String: [UInt8]] = [:]
  let seeds: [[UInt8]]
  private let sandbox: StoredFormatSandbox

  init(_ sandbox: StoredFormatSandbox) throws {
    self.sandbox = sandbox
    let key = key
    func records(_ positions: ClosedRange<UInt64>, size: Int = 3) -> [LogRecord] {
      positions.map { position in
        LogRecord(
          position: position,
          bytes: Data((0..<size).map { UInt8(truncatingIfNeeded: position &+ UInt64($0)) }))
      }
    }
    func file(
      capacity: Int = 3, evicted: UInt64 = 0, next: UInt64 = 1, _ records: [LogRecord]
    ) -> [UInt8] {
      Array(
        LogFileFormat.file(
          header: LogFileFormat.Header(
            tokenBase: 100, identity: 0xA5A5, capacity: capacity, evicted: evicted,
            nextPosition: next),
          records: records))
    }
    let five = file(records(1...5))
    let appended = try sandbox.written(key) { store in
      for index in 0..<5 {
        try store.append(
          [Data(repeating: UInt8(index), count: index * 200)], toLog: key, capacity: 4)
      }
    }
    seeds = [
      five,
      appended,
      file(capacity: 1, records(1...2, size: 5_000)),
      file(next: 10, []),
      file(capacity: .max, evicted: .max, records((UInt64.max - 3)...(UInt64.max - 1))),
      five
        + Array(LogFileFormat.frame(ordinal: 5, firstPosition: 6, records: [Data([1, 2])]))
        .prefix(4),
      five.dropLast(),
      Array(appended.prefix(appended.count - 3)),
      Array(StoreFileFormat.encode(payload: Data("{}".utf8), generation: 2)),
    ]
  }

  // swift-format-ignore: FunctionBodyLength
  func exercise(_ probe: StoredFormatProbe) throws(StoredFormatViolation) -> Bool {
    let store = sandbox.store
    let key = key
    let name = StoredBytes.fileName(forKey: key)
    let token = try probe.read("changeToken") { try store.changeToken(for: key) }
    let full = try probe.read("readLog") { try store.readLog(key) }
    try probe.read("read") { try store.read(key) }
    var newest: [Int: LogSnapshot?] = [:]
    for count in [0, 1, 3] {
      let outcome = try probe.read("readLog(newest: \(count))") {
        try store.readLog(key, newest: count)
      }
      try probe.require(
        outcome.returned || !full.returned, "readLog(newest: \(count))",
        "refused a log that a full read accepted: \(outcome.error.map { "\($0)" } ?? "")")
      newest[count] = outcome.value
    }
    if let snapshot = full.value ?? nil {
      try check(snapshot, newest: newest, token: token.value ?? nil, probe)
    }

    let written = try probe.change("write", mayChange: [name]) {
      try store.write(Data("{}".utf8), for: key)
    }
    try probe.require(
      !(written.returned && full.returned), "write", "replaced an append-only log with a value")

    try probe.restore()
    let record = Data([0, 0x2A, 0])
    let capacity = probe.file.count.isMultiple(of: 3) ? 2 : ((full.value ?? nil)?.capacity ?? 3)
    let appended = try probe.change("appendToLog", mayChange: [name]) {
      try store.appendToLog(key, capacity: capacity, examiningNewest: 2) { _ in [record] }
    }
    if let append = appended.value ?? nil {
      let after = try probe.read("readLog(newest: 1) after appendToLog") {
        try store.readLog(key, newest: 1)
      }
      let last = (after.value ?? nil)?.records.last
      try probe.require(
        last == LogRecord(position: append.positions.upperBound, bytes: record),
        "appendToLog", "the newest record afterwards is \(String(describing: last))")
      if let snapshot = full.value ?? nil {
        try probe.require(
          append.identity == snapshot.identity
            && append.positions.lowerBound == snapshot.nextPosition,
          "appendToLog",
          "appended \(append) to a log whose next position is "
            + "\(snapshot.nextPosition)")
      }
    } else if let snapshot = full.value ?? nil, snapshot.nextPosition < UInt64.max - 8 {
      try probe.require(
        false, "appendToLog", "refused a log that a full read accepted: \(appended)")
    }

    try probe.restore()
    let compacted = try probe.change("compactLog", mayChange: [name]) {
      try store.compactLog(key) { $0.position.isMultiple(of: 2) }
    }
    if compacted.returned {
      try probe.require(full.returned, "compactLog", "compacted a log that a full read refused")
      let kept = (full.value ?? nil)?.records.filter { $0.position.isMultiple(of: 2) }
      let after = try probe.read("readLog after compactLog") { try store.readLog(key) }
      try probe.require(
        (after.value ?? nil)?.records == kept, "compactLog",
        "the log afterwards does not hold the records kept")
    }
    return full.returned
  }

  /// A log that a full read accepts: its counts agree, a read of its newest records agrees, and
  /// its change token is as the document says.
  private func check(
    _ snapshot: LogSnapshot, newest: [Int: LogSnapshot?], token: ChangeToken?,
    _ probe: StoredFormatProbe
  ) throws(StoredFormatViolation) {
    let positions = snapshot.records.map(\.position)
    try probe.require(
      snapshot.records.count == snapshot.count && snapshot.count <= snapshot.capacity
        && zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }
        && positions.allSatisfy { $0 >= 1 && $0 < snapshot.nextPosition },
      "readLog", "an inconsistent snapshot: \(snapshot)")
    for (count, partial) in newest {
      let expected = LogSnapshot(
        identity: snapshot.identity, capacity: snapshot.capacity, count: snapshot.count,
        evictedCount: snapshot.evictedCount, nextPosition: snapshot.nextPosition,
        records: Array(snapshot.records.suffix(count)))
      try probe.require(
        partial == expected, "readLog(newest: \(count))",
        "differs from the full read: \(String(describing: partial)) where \(expected)")
    }
    let file = probe.file
    if let base = StoredBytes.load(UInt64.self, file, at: 8) {
      let size = UInt64(file.count - StoredBytes.logHeaderSize)
      try probe.require(
        token?.generation == base &+ size, "changeToken",
        "\(String(describing: token)) is not the token base plus the bytes after the header")
    }
  }
}
