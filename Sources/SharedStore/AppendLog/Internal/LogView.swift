import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// What one read learned about a stored log: its header and size, and either every frame or only
/// the last one.
struct LogView {
  typealias Frame = LogFileFormat.Frame

  var header: LogFileFormat.Header
  /// The size of the bytes the view was read from, a torn tail included.
  var size: Int
  /// Every frame of the file, or only the last one.
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
    /// The last complete frame (`nil`: there is none) and what follows it.
    case found(Frame?, Tail)
  }

  /// Finds the last complete frame in `suffix`, the bytes of the file from offset `start` to
  /// its end; `start` is at or after the header.
  ///
  /// - Complexity: O(*n*) in the length of the last frame (and of a torn tail).
  static func lastFrame(in suffix: Data, from start: Int) -> Result<TailSearch, Damage> {
    suffix.withUnsafeBytes { raw in
      let reachesHeader = start == headerSize
      let count = raw.count
      guard count > 0 else { return .success(.found(nil, .clean)) }
      func zero(before index: Int) -> Int? {
        var candidate = index - 1
        while candidate >= 0 {
          if raw[candidate] == 0 { return candidate }
          candidate -= 1
        }
        return nil
      }
      /// The terminated frame that ends with the `0x00` at `end`.
      func terminated(endingAt end: Int) -> Result<TailSearch, Damage>? {
        let previous = zero(before: end)
        guard previous != nil || reachesHeader else { return nil }
        let from = previous.map { $0 + 1 } ?? 0
        switch decodeFrame(UnsafeRawBufferPointer(rebasing: raw[from..<end])) {
        case .success(let frame): return .success(.found(frame, .clean))
        case .failure(let damage):
          return .failure(
            .corrupted("the record frame at byte \(start + from): \(damage.reason)"))
        }
      }
      if raw[count - 1] == 0 {
        return terminated(endingAt: count - 1) ?? .success(.needMore)
      }
      let lastZero = zero(before: count)
      guard lastZero != nil || reachesHeader else { return .success(.needMore) }
      let from = lastZero.map { $0 + 1 } ?? 0
      let segment = UnsafeRawBufferPointer(rebasing: raw[from...])
      if case .success(let frame) = decodeFrame(segment) {
        return .success(.found(frame, .unterminated))
      }
      if let reason = damagedEnd(segment, at: start + from) { return .failure(.corrupted(reason)) }
      let torn = Tail.torn(bytes: count - from)
      guard let lastZero else { return .success(.found(nil, torn)) }
      switch terminated(endingAt: lastZero) {
      case nil: return .success(.needMore)
      case .success(.found(let frame, _))?: return .success(.found(frame, torn))
      case let other?: return other
      }
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
