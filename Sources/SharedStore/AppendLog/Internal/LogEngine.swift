import Foundation

/// Where a log's bytes live, as ``LogEngine`` needs them: a file, or bytes in memory.
///
/// The caller holds whatever exclusion the store needs while the engine appends or compacts;
/// reads need none.
protocol LogMedium {
  /// Whether the log exists.
  var exists: Bool { get }
  /// The largest size the log may reach; an append beyond it compacts the log instead.
  var maximumSize: Int { get }
  /// The size in bytes of an existing log.
  func size() throws(SharedStoreError) -> Int
  /// `count` bytes from `offset`, all within the size.
  func read(from offset: Int, count: Int) throws(SharedStoreError) -> Data
  /// `count` bytes from `offset`, all within the size, for finding the newest records: the
  /// header or the end of the log. A medium may answer from what it already holds of an
  /// unchanged log; a compaction's scan and a full read always use ``read(from:count:)``.
  func readEnd(from offset: Int, count: Int) throws(SharedStoreError) -> Data
  /// What the last read or append of the log's end found — the header, the size and the newest
  /// record — when the medium keeps it and the log still has that size; `nil` otherwise.
  func rememberedEnd() -> LogView?
  /// Keeps `end`, a view of the log at its current size holding only its newest record, for
  /// the next ``rememberedEnd()``; a medium that keeps nothing ignores it.
  ///
  /// The record must be the medium's own bytes — decoded from the log, or copied from what an
  /// append was given — never a caller's buffer, which may be a slice of a larger one or be
  /// reused; and at most ``keptRecordLimit`` bytes, or nothing is kept.
  func rememberEnd(_ end: LogView)
  /// The most bytes of records ``rememberEnd(_:)`` keeps: 0 for a medium that keeps nothing,
  /// so that an append copies its newest record only for a medium that keeps it.
  var keptRecordLimit: Int { get }
  /// Writes `bytes` at `offset`, the end of the log, completely or reports why not.
  mutating func append(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(SharedStoreError)
  /// Replaces the whole log, or creates it, atomically: readers see the old bytes or the new.
  mutating func replace(with bytes: Data) throws(SharedStoreError)
  /// Replaces the whole log atomically, as ``replace(with:)`` does, with the bytes `produce`
  /// passes to `write`, in order, so that a medium can write them as they come instead of
  /// holding the whole log; when `produce` throws, nothing is replaced.
  mutating func replace(
    producing produce: (_ write: (Data) throws(SharedStoreError) -> Void) throws(SharedStoreError)
      -> Void
  ) throws(SharedStoreError)
}

extension LogMedium {
  /// Reads as ``read(from:count:)`` does: a medium that holds nothing in memory.
  func readEnd(from offset: Int, count: Int) throws(SharedStoreError) -> Data {
    try read(from: offset, count: count)
  }

  /// Nothing: a medium that holds nothing in memory decodes the end at every read.
  func rememberedEnd() -> LogView? { nil }

  /// None: a medium that holds nothing in memory keeps no record.
  var keptRecordLimit: Int { 0 }

  /// Keeps nothing: a medium that holds nothing in memory.
  func rememberEnd(_ end: LogView) {}

  /// Collects the bytes and replaces the log with them: a medium in memory.
  mutating func replace(
    producing produce: (_ write: (Data) throws(SharedStoreError) -> Void) throws(SharedStoreError)
      -> Void
  ) throws(SharedStoreError) {
    var bytes = Data()
    try produce { (piece: Data) throws(SharedStoreError) in bytes.append(piece) }
    try replace(with: bytes)
  }
}

/// The rules of an append-only log, shared by every backend: reading the end or the whole of a
/// log, appending one frame or compacting, and reporting damage with the key and path.
struct LogEngine<Medium: LogMedium> {
  var medium: Medium
  let key: String
  let path: String
  /// Draws a number for a new log's identity and token base.
  let random: () -> UInt64

  /// The bytes read from the end of a log at first when only its newest records are needed.
  static var tailReadSize: Int { 4096 }
  /// The bytes read at a time when a compaction goes through a whole log; also about the most a
  /// compaction hands the medium at a time (``LogMedium/replace(producing:)``).
  ///
  /// A piece is decoded into its records before they are copied out, each record an object of
  /// its own, so a piece of small records costs several times its size in memory: 16 KiB keeps
  /// a compaction's peak, piece and records together, under about 100 KB, which a monitor
  /// extension's 6 MB can spare.
  static var scanReadSize: Int { 16 * 1024 }

  // MARK: - Reading

  /// Reads the log: every frame when `newest` is `nil`, otherwise as little as holds the newest
  /// `newest` records: the header and the frames at the end that hold them, found backwards.
  func view(newest: Int?) throws(SharedStoreError) -> LogView? {
    guard medium.exists else { return nil }
    guard let newest else { return try fullView() }
    let size = try medium.size()
    // An append that examines the newest record, at every callback of a monitor extension,
    // finds it decoded already when the log is as this store left it.
    if let remembered = medium.rememberedEnd(), remembered.size == size,
      remembered.holdsNewest(newest)
    {
      return remembered
    }
    // A small file is read in one piece; a larger one, its header and then its end.
    let whole = size <= LogFileFormat.headerSize + Self.tailReadSize
    let first = try medium.readEnd(from: 0, count: whole ? size : LogFileFormat.headerSize)
    let header = try decoded(LogFileFormat.decodeHeader(first))
    let available = size - LogFileFormat.headerSize
    var length = min(Self.tailReadSize, available)
    while true {
      let start = size - length
      let suffix =
        whole
        ? first.dropFirst(LogFileFormat.headerSize)
        : try medium.readEnd(from: start, count: length)
      switch try decoded(LogFileFormat.newestFrames(in: suffix, from: start, holding: newest)) {
      case .needMore:
        length = min(length * 2, available)
      case .found(let frames, let holdsEveryFrame, let tail):
        let view = LogView(
          header: header, size: size, frames: frames, holdsEveryFrame: holdsEveryFrame,
          tail: tail)
        guard view.holdsNewest(newest) else { return try fullView() }
        medium.rememberEnd(view.keepingNewestRecord())
        return view
      }
    }
  }

  private func fullView() throws(SharedStoreError) -> LogView {
    let size = try medium.size()
    return try decoded(LogFileFormat.parse(try medium.read(from: 0, count: size)))
  }

  // MARK: - Appending

  /// Appends what `makeRecords` returns after showing it the newest `examining` records.
  ///
  /// One frame is written at the end, unless the file ends in a torn frame, the capacity
  /// changes, or the file would hold more than twice the capacity or grow beyond the medium's
  /// maximum size: then the records kept are written to a new file that replaces the old one.
  mutating func append(
    capacity: Int,
    examining: Int,
    _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    guard capacity >= 1 else { throw .invalidCapacity(key: key, capacity: capacity) }
    guard let view = try view(newest: max(examining, 0)) else {
      return try create(capacity: capacity, makeRecords)
    }
    guard let snapshot = view.snapshot(newest: examining) else {
      preconditionFailure("a view holds the records it was read for")
    }
    let records = try makeRecords(snapshot)
    guard !records.isEmpty else { return nil }
    let start = view.nextPosition
    guard start <= UInt64.max - UInt64(records.count) else {
      throw .corrupted(
        key: key, path: path,
        reason: "no position is left for \(records.count) more records after \(start - 1)")
    }
    let positions = start...(start + UInt64(records.count) - 1)
    let physical = view.physicalCount + records.count
    let isTorn: Bool
    if case .torn = view.tail { isTorn = true } else { isTorn = false }
    guard !isTorn, capacity == view.header.capacity, physical <= Self.limit(capacity) else {
      return try rewrite(view, capacity: capacity, appending: records, at: positions)
    }
    let end = view.size
    let written = LogFileFormat.withFrame(
      ordinal: view.physicalCount, firstPosition: start, records: records,
      afterZero: view.tail == .unterminated
    ) { frame -> Result<Int?, SharedStoreError> in
      // A file at its size limit is compacted to its newest `capacity` records instead.
      guard frame.count <= medium.maximumSize - end else { return .success(nil) }
      return Result { () throws(SharedStoreError) in
        try medium.append(frame, at: end)
        return frame.count
      }
    }
    guard let written = try written.get() else {
      return try rewrite(view, capacity: capacity, appending: records, at: positions)
    }
    guard let newestRecord = records.last else { preconditionFailure("records is not empty") }
    if newestRecord.count <= medium.keptRecordLimit {
      // A copy: the caller's record may be a slice of its own buffer (see `rememberEnd`).
      let ownRecord = newestRecord.withUnsafeBytes { Data($0) }
      medium.rememberEnd(
        LogView(
          header: view.header, size: end + written,
          frames: [
            LogFileFormat.Frame(
              ordinal: physical - 1, firstPosition: positions.upperBound, records: [ownRecord])
          ],
          holdsEveryFrame: physical == 1, tail: .clean))
    }
    return LogAppend(
      identity: view.header.identity, positions: positions,
      evictedCount: view.count + records.count - min(physical, capacity))
  }

  /// The most records a file holds before an append compacts it: twice the capacity.
  static func limit(_ capacity: Int) -> Int {
    capacity > Int.max / 2 ? Int.max : 2 * capacity
  }

  /// Creates the log with what `makeRecords` returns for an empty log of a fresh identity.
  private mutating func create(
    capacity: Int, _ makeRecords: (LogSnapshot) throws(SharedStoreError) -> [Data]
  ) throws(SharedStoreError) -> LogAppend? {
    let identity = random()
    let records = try makeRecords(
      LogSnapshot(
        identity: identity, capacity: capacity, count: 0, evictedCount: 0, nextPosition: 1,
        records: []))
    guard !records.isEmpty else { return nil }
    let positions = 1...UInt64(records.count)
    let kept = zip(positions, records).suffix(capacity).map {
      LogRecord(position: $0.0, bytes: $0.1)
    }
    let header = LogFileFormat.Header(
      tokenBase: random() >> 2 | 1, identity: identity, capacity: capacity,
      evicted: UInt64(records.count - kept.count), nextPosition: UInt64(records.count) + 1)
    try medium.replace(with: LogFileFormat.file(header: header, records: kept))
    return LogAppend(
      identity: identity, positions: positions, evictedCount: records.count - kept.count)
  }

  /// Writes the log anew, appending `records`: the newest `capacity` of the records it holds and
  /// the new ones, read from the file one piece at a time.
  private mutating func rewrite(
    _ view: LogView, capacity: Int, appending records: [Data], at positions: ClosedRange<UInt64>
  ) throws(SharedStoreError) -> LogAppend {
    let kept = min(view.count + records.count, capacity)
    let keptOld = max(0, kept - records.count)
    let evictedNow = view.count + records.count - kept
    let header = LogFileFormat.Header(
      tokenBase: view.token &+ 1, identity: view.header.identity, capacity: capacity,
      evicted: view.evicted.addingSaturating(UInt64(evictedNow)),
      nextPosition: positions.upperBound + 1)
    // The new file is handed to the medium a piece at a time, so that a compaction holds one
    // piece of it rather than all of it — unless it might exceed the medium's maximum size:
    // then the medium gets it whole and refuses it before writing anything. The kept records
    // are a part of the file's and the new ones, repacked: never more than their bytes and a
    // little framing.
    let newBytes = records.reduce(0) { $0 + $1.count }
    let bound = view.size + newBytes + 64 * (records.count + 16)
    let piece = bound <= medium.maximumSize ? Self.scanReadSize : Int.max
    // The old file is read through a copy while the medium writes the new one.
    let source = self
    try medium.replace { (write) throws(SharedStoreError) in
      var builder = LogFileFormat.FileBuilder(header: header)
      func add(_ record: LogRecord) throws(SharedStoreError) {
        builder.add(record)
        if builder.bytes.count >= piece { try write(builder.takeBytes()) }
      }
      try source.scan(view, fromOrdinal: view.physicalCount - keptOld) {
        (record) throws(SharedStoreError) in try add(record)
      }
      for (position, bytes) in zip(positions, records).suffix(kept - keptOld) {
        try add(LogRecord(position: position, bytes: bytes))
      }
      try write(builder.finish())
    }
    return LogAppend(
      identity: view.header.identity, positions: positions, evictedCount: evictedNow)
  }

  /// Calls `body` with every record of the file from the one at `ordinal` on, oldest first,
  /// reading the file one piece at a time and checking every frame, as a full read would.
  private func scan(
    _ view: LogView, fromOrdinal ordinal: Int,
    _ body: (LogRecord) throws(SharedStoreError) -> Void
  ) throws(SharedStoreError) {
    var reader = LogFileFormat.FrameReader()
    var offset = LogFileFormat.headerSize
    var last: LogFileFormat.Frame?
    func visit(_ frames: [LogFileFormat.Frame]) throws(SharedStoreError) {
      for frame in frames where frame.endOrdinal > ordinal {
        for (index, bytes) in frame.records.enumerated() where frame.ordinal + index >= ordinal {
          try body(LogRecord(position: frame.firstPosition + UInt64(index), bytes: bytes))
        }
      }
      last = frames.last ?? last
    }
    while offset < view.size {
      let piece = try medium.read(from: offset, count: min(Self.scanReadSize, view.size - offset))
      guard !piece.isEmpty else { break }
      offset += piece.count
      try visit(
        try decoded(
          piece.withUnsafeBytes { raw in
            Result { () throws(StoreFileFormat.Damage) in try reader.read(raw) }
          }))
    }
    let (final, _) = try decoded(
      Result { () throws(StoreFileFormat.Damage) in try reader.finish() })
    if let final { try visit([final]) }
    guard (last?.endOrdinal ?? 0) == view.physicalCount else {
      throw .corrupted(
        key: key, path: path,
        reason: "the file holds \(last?.endOrdinal ?? 0) records where its last frame says "
          + "\(view.physicalCount)")
    }
  }

  // MARK: - Compacting

  /// Rewrites the log with the records `isKept` keeps; returns how many it removed.
  mutating func compact(
    keeping isKept: (LogRecord) throws(SharedStoreError) -> Bool
  ) throws(SharedStoreError) -> Int {
    guard let view = try view(newest: 0) else { return 0 }
    var builder = LogFileFormat.FileBuilder(
      header: LogFileFormat.Header(
        tokenBase: view.token &+ 1, identity: view.header.identity,
        capacity: view.header.capacity, evicted: view.evicted, nextPosition: view.nextPosition))
    var removed = 0
    try scan(view, fromOrdinal: view.physicalCount - view.count) {
      record throws(SharedStoreError) in
      if try isKept(record) { builder.add(record) } else { removed += 1 }
    }
    guard removed > 0 else { return 0 }
    try medium.replace(with: builder.finish())
    return removed
  }

  // MARK: - Errors

  private func decoded<Value>(_ result: Result<Value, StoreFileFormat.Damage>)
    throws(SharedStoreError) -> Value
  {
    switch result {
    case .success(let value): return value
    case .failure(.corrupted(let reason)):
      throw .corrupted(key: key, path: path, reason: reason)
    case .failure(.unsupportedVersion(let found)):
      throw .unsupportedFormatVersion(
        key: key, path: path, found: found, supported: Int(LogFileFormat.version))
    case .failure(.holdsOtherKind(let kind)):
      throw .kindMismatch(key: key, holds: kind)
    }
  }
}
