import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// What one read learned about a stored log: its header and size, and either every frame or the
/// newest ones.
struct LogView {
  typealias Frame = LogFileFormat.Frame

  var header: LogFileFormat.Header
  /// The size of the bytes the view was read from, a torn tail included.
  var size: Int
  /// Every frame of the file, or its newest ones (at least the last).
  var frames: [Frame]
  /// Whether ``frames`` holds every frame.
  var holdsEveryFrame: Bool
  /// What follows the last complete frame.
  var tail: LogFileFormat.Tail

  /// Records in the file, including those hidden beyond the capacity until the next compaction.
  var physicalCount: Int { frames.last?.endOrdinal ?? 0 }
  /// Records the log holds: the newest `capacity` of the file's.
  var count: Int { min(physicalCount, header.capacity) }
  /// The position the next append takes.
  var nextPosition: UInt64 { max(header.nextPosition, frames.last?.endPosition ?? 0) }
  /// Records evicted since the log was created, hidden ones included.
  var evicted: UInt64 { header.evicted.addingSaturating(UInt64(physicalCount - count)) }
  /// The change token: the header's base plus every byte after the header.
  var token: UInt64 { header.tokenBase &+ UInt64(size - LogFileFormat.headerSize) }

  /// The newest `wanted` records the log holds (fewer when it holds fewer), oldest first, or
  /// `nil` when this view does not hold them all.
  func newest(_ wanted: Int) -> [LogRecord]? {
    let wanted = min(max(wanted, 0), count)
    var collected: [LogRecord] = []
    collected.reserveCapacity(wanted)
    for frame in frames.reversed() where collected.count < wanted {
      for (index, bytes) in frame.records.enumerated().reversed() where collected.count < wanted {
        collected.append(LogRecord(position: frame.firstPosition + UInt64(index), bytes: bytes))
      }
    }
    guard collected.count == wanted || holdsEveryFrame else { return nil }
    return collected.reversed()
  }

  /// Whether this view holds the newest `wanted` records (fewer when the log holds fewer):
  /// what ``newest(_:)`` answers with `nil` or not, without collecting them.
  func holdsNewest(_ wanted: Int) -> Bool {
    holdsEveryFrame || frames.reduce(0) { $0 + $1.records.count } >= min(max(wanted, 0), count)
  }

  /// This view with only its newest record, for a store to keep between appends: the header,
  /// the size, the tail and the counts stay; a read of more than one record reads the file.
  func keepingNewestRecord() -> LogView {
    guard let last = frames.last, let record = last.records.last, last.records.count > 1 else {
      return LogView(
        header: header, size: size, frames: frames.suffix(1),
        holdsEveryFrame: holdsEveryFrame && frames.count <= 1, tail: tail)
    }
    let newest = Frame(
      ordinal: last.endOrdinal - 1, firstPosition: last.endPosition - 1, records: [record])
    return LogView(
      header: header, size: size, frames: [newest], holdsEveryFrame: false, tail: tail)
  }

  /// A snapshot with the newest `wanted` records, or `nil` when this view does not hold them.
  func snapshot(newest wanted: Int) -> LogSnapshot? {
    guard let records = newest(wanted) else { return nil }
    return LogSnapshot(
      identity: header.identity, capacity: header.capacity, count: count, evictedCount: evicted,
      nextPosition: nextPosition, records: records)
  }
}

extension LogFileFormat {
  typealias Damage = StoreFileFormat.Damage

  // MARK: - Reading a whole file

  /// Parses and validates a whole log file (see ``FrameReader`` for the rules).
  ///
  /// - Complexity: O(*n*) in the size of `bytes`.
  static func parse(_ bytes: Data) -> Result<LogView, Damage> {
    let header: Header
    switch decodeHeader(bytes) {
    case .success(let valid): header = valid
    case .failure(let damage): return .failure(damage)
    }
    return bytes.withUnsafeBytes { raw in
      Result { () throws(Damage) -> LogView in
        var reader = FrameReader()
        var frames = try reader.read(UnsafeRawBufferPointer(rebasing: raw[headerSize...]))
        let (last, tail) = try reader.finish()
        if let last { frames.append(last) }
        return LogView(
          header: header, size: raw.count, frames: frames, holdsEveryFrame: true, tail: tail)
      }
    }
  }

  /// Why bytes after the last `0x00` that are not a frame are damage rather than a torn tail, or
  /// `nil` when they are a torn tail.
  ///
  /// A writer cut short leaves a prefix of a frame. A complete frame followed by one byte is no
  /// prefix: its final `0x00` was overwritten.
  private static func damagedEnd(_ segment: UnsafeRawBufferPointer, at offset: Int) -> String? {
    guard segment.count >= 2,
      case .success = decodeFrame(UnsafeRawBufferPointer(rebasing: segment.dropLast()))
    else { return nil }
    return "the byte after the record frame at byte \(offset) should be 0x00"
  }

  // MARK: - Reading the end of a file

  /// What a search of the file's end found.
  enum TailSearch {
    /// The bytes given do not reach back far enough: give more.
    case needMore
    /// The newest complete frames, oldest first (none when the file has no complete frame),
    /// whether they are all of the file's frames, and what follows the last one.
    case found(frames: [Frame], holdsEveryFrame: Bool, tail: Tail)
  }

  /// Finds the newest complete frames in `suffix`, the bytes of the file from offset `start` to
  /// its end — the last one, and the ones before it until they hold `wanted` records or the
  /// first frame is reached; `start` is at or after the header.
  ///
  /// Every frame ends with the only `0x00` it holds, so the frames are found from the end
  /// backwards without reading what comes before them.
  ///
  /// - Complexity: O(*n*) in the length of the frames returned (and of a torn tail).
  static func newestFrames(in suffix: Data, from start: Int, holding wanted: Int)
    -> Result<TailSearch, Damage>
  {
    suffix.withUnsafeBytes { raw in
      let reachesHeader = start == headerSize
      let count = raw.count
      guard count > 0 else {
        return .success(.found(frames: [], holdsEveryFrame: true, tail: .clean))
      }
      func zero(before index: Int) -> Int? {
        var candidate = index - 1
        while candidate >= 0 {
          if raw[candidate] == 0 { return candidate }
          candidate -= 1
        }
        return nil
      }
      var newestFirst: [Frame] = []
      var records = 0
      let tail: Tail
      // The `0x00` ending the next older frame to read, or `nil` once the suffix's start, the
      // header's end, is reached.
      var boundary: Int?
      if raw[count - 1] == 0 {
        tail = .clean
        boundary = count - 1
      } else {
        let lastZero = zero(before: count)
        guard lastZero != nil || reachesHeader else { return .success(.needMore) }
        let from = lastZero.map { $0 + 1 } ?? 0
        let segment = UnsafeRawBufferPointer(rebasing: raw[from...])
        if case .success(let frame) = decodeFrame(segment) {
          newestFirst.append(frame)
          records = frame.records.count
          tail = .unterminated
        } else {
          if let reason = damagedEnd(segment, at: start + from) {
            return .failure(.corrupted(reason))
          }
          tail = .torn(bytes: count - from)
        }
        boundary = lastZero
      }
      while let end = boundary, newestFirst.isEmpty || records < wanted {
        let previous = zero(before: end)
        guard previous != nil || reachesHeader else { return .success(.needMore) }
        let from = previous.map { $0 + 1 } ?? 0
        switch decodeFrame(UnsafeRawBufferPointer(rebasing: raw[from..<end])) {
        case .success(let frame):
          newestFirst.append(frame)
          records += frame.records.count
        case .failure(let damage):
          return .failure(
            .corrupted("the record frame at byte \(start + from): \(damage.reason)"))
        }
        boundary = previous
      }
      return .success(
        .found(frames: newestFirst.reversed(), holdsEveryFrame: boundary == nil, tail: tail))
    }
  }
}

extension UInt64 {
  /// The sum, or `UInt64.max` when it does not fit: counts read from a file must not trap.
  func addingSaturating(_ other: UInt64) -> UInt64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
