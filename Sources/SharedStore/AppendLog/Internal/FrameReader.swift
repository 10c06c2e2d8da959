import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

extension LogFileFormat {
  /// Reads the frames of a log file from its bytes after the header, given in pieces of any size,
  /// and validates each against the one before; it holds at most one frame's bytes at a time.
  ///
  /// Every frame that ends in `0x00` must be valid and follow its predecessor (ordinals
  /// consecutive, positions increasing); otherwise the file is damaged. The bytes after the last
  /// `0x00` are the last frame when they form a valid one, damage when they are a valid frame
  /// followed by one byte (its `0x00` was overwritten), and a torn tail — ignored — otherwise.
  struct FrameReader {
    /// The bytes of the frame being read, not yet ended by a `0x00`.
    private var pending: [UInt8] = []
    /// The decoded bytes of the last frame, kept for their capacity.
    private var scratch: [UInt8] = []
    /// The file offset of the frame being read.
    private var offset = headerSize
    /// The file offset of the next byte to be read.
    private var nextByte = headerSize
    private var expectedOrdinal = 0
    private var lowestPosition: UInt64 = 1

    /// Reads `bytes`, the next bytes of the file, and returns the frames they complete.
    mutating func read(_ bytes: UnsafeRawBufferPointer) throws(Damage) -> [Frame] {
      let chunkStart = nextByte
      nextByte += bytes.count
      var frames: [Frame] = []
      var start = 0
      while start < bytes.count, let base = bytes.baseAddress {
        guard let hit = memchr(base + start, 0, bytes.count - start) else {
          pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
          break
        }
        let end = base.distance(to: UnsafeRawPointer(hit))
        let piece = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
        let decoded: Result<Frame, FrameDamage>
        if pending.isEmpty {
          decoded = decodeFrame(piece, scratch: &scratch)
        } else {
          pending.append(contentsOf: piece)
          decoded = pending.withUnsafeBytes { decodeFrame($0, scratch: &scratch) }
          pending.removeAll(keepingCapacity: true)
        }
        frames.append(try terminated(decoded))
        offset = chunkStart + end + 1
        start = end + 1
      }
      return frames
    }

    /// Ends the reading: returns the last frame if the file ends with one that lacks its `0x00`,
    /// and what follows the last complete frame.
    mutating func finish() throws(Damage) -> (Frame?, Tail) {
      guard !pending.isEmpty else { return (nil, .clean) }
      switch pending.withUnsafeBytes({ decodeFrame($0) }) {
      case .success(let frame):
        try check(frame)
        return (frame, .unterminated)
      case .failure:
        if pending.count >= 2,
          case .success = pending.dropLast().withUnsafeBytes({ decodeFrame($0) })
        {
          throw .corrupted("the byte after the record frame at byte \(offset) should be 0x00")
        }
        return (nil, .torn(bytes: pending.count))
      }
    }

    private mutating func terminated(_ decoded: Result<Frame, FrameDamage>) throws(Damage)
      -> Frame
    {
      switch decoded {
      case .success(let frame):
        try check(frame)
        return frame
      case .failure(let damage):
        throw .corrupted("the record frame at byte \(offset): \(damage.reason)")
      }
    }

    /// Checks that `frame` follows the frames read before it.
    private mutating func check(_ frame: Frame) throws(Damage) {
      guard frame.ordinal == expectedOrdinal else {
        throw .corrupted(
          "the record frame at byte \(offset) has ordinal \(frame.ordinal) where "
            + "\(expectedOrdinal) was expected")
      }
      guard frame.firstPosition >= lowestPosition else {
        throw .corrupted(
          "the record frame at byte \(offset) starts at position \(frame.firstPosition), "
            + "not after \(lowestPosition - 1)")
      }
      expectedOrdinal = frame.endOrdinal
      lowestPosition = frame.endPosition
    }
  }

  /// Builds a log file from a header and records given one by one, in frames of consecutive
  /// positions of about ``packedFrameBytes`` each; it holds the file and one frame's records.
  struct FileBuilder {
    private(set) var bytes: Data
    private var frame: [Data] = []
    private var frameSize = 0
    private var firstPosition: UInt64 = 0
    private var ordinal = 0

    init(header: Header, expectedSize: Int = 0) {
      bytes = encode(header)
      bytes.reserveCapacity(headerSize + expectedSize)
    }

    /// Adds a record; its position must be above the previous record's.
    mutating func add(_ record: LogRecord) {
      let follows = firstPosition + UInt64(frame.count) == record.position
      if !frame.isEmpty, !follows || frameSize + record.bytes.count > packedFrameBytes {
        flush()
      }
      if frame.isEmpty { firstPosition = record.position }
      frame.append(record.bytes)
      frameSize += record.bytes.count
    }

    /// The bytes built so far, which are no longer held: the file's next bytes are those
    /// returned by the following calls, then by ``finish()``.
    mutating func takeBytes() -> Data {
      defer { bytes = Data() }
      return bytes
    }

    /// The complete file, or its bytes after those ``takeBytes()`` returned.
    mutating func finish() -> Data {
      flush()
      return bytes
    }

    private mutating func flush() {
      guard !frame.isEmpty else { return }
      LogFileFormat.appendFrame(
        ordinal: ordinal, firstPosition: firstPosition, records: frame, to: &bytes)
      ordinal += frame.count
      frame.removeAll(keepingCapacity: true)
      frameSize = 0
    }
  }
}
