import Foundation
import SharedStore

/// The stored bytes of a ``SequencedOutbox``, layout version 1: JSON lines.
///
/// The first line is the header, the rest hold one encoded payload each, oldest first, every line
/// ending in a line feed (`0x0A`):
///
/// ```text
/// {"epoch":"5f1c0a3be29d4471","format":1,"head":1042,"oldest":1001}
/// {"app":"com.example.game","seconds":60}
/// …                                   (42 lines in all, for numbers 1001 to 1042)
/// ```
///
/// The header comes first so that the head can be read without decoding any payload, and
/// payloads are kept as bytes so that a publish appends and evicts lines without decoding or
/// re-encoding the others. JSON never needs a raw line feed inside a value, so lines cannot be
/// confused. `Documentation/SequenceTracking-OutboxFormat.md` describes the layout for people.
struct OutboxLayout {
  /// The layout version this library writes and reads.
  static let version = 1

  /// The first line.
  struct Header: Codable, Equatable {
    var epoch: SequenceEpoch
    var format: Int
    var head: UInt64
    var oldest: UInt64
  }

  private struct FormatProbe: Decodable {
    var format: Int
  }

  static let lineFeed = UInt8(ascii: "\n")

  let header: Header
  /// The whole stored value.
  let bytes: Data
  /// The byte range of each payload line within `bytes`, line feed excluded, oldest first.
  let lines: [Range<Data.Index>]

  /// The payload bytes of `value`, which must lie in `header.oldest...header.head`.
  func payload(of value: UInt64) -> Data {
    bytes[lines[Int(value - header.oldest)]]
  }

  /// Whether the outbox holds an entry under `value`.
  func holds(_ value: UInt64) -> Bool {
    (header.oldest...header.head).contains(value)
  }

  /// The CRC-32C of the stored line of `value`, without its line feed, which must lie in
  /// `header.oldest...header.head`; what an ``OutboxCursor`` keeps of its last entry.
  ///
  /// - Complexity: O(*m*) in the length of the line.
  func checksum(of value: UInt64) -> UInt32 {
    payload(of: value).withUnsafeBytes { CRC32C.checksum($0) }
  }

  /// A cursor just after `value`, with the checksum of its line.
  func cursor(after value: UInt64) -> OutboxCursor {
    OutboxCursor(
      after: SequenceNumber(epoch: header.epoch, value: value), checksum: checksum(of: value))
  }

  // MARK: - Reading

  /// Parses and checks the header only; the payload lines are not looked at.
  ///
  /// - Complexity: O(*h*) in the length of the header line, after finding its end.
  static func header(of bytes: Data, key: String) throws(SequenceTrackingError) -> Header {
    guard let end = lineFeeds(in: bytes, limit: 1).first else {
      throw .corruptedOutbox(key: key, reason: "the header line has no line feed")
    }
    return try decodeHeader(bytes[bytes.startIndex..<end], key: key)
  }

  /// Parses and checks the whole layout: the header and one line per number it announces.
  ///
  /// - Complexity: O(*n*) in the size of `bytes`; payloads are not decoded.
  init(parsing bytes: Data, key: String) throws(SequenceTrackingError) {
    var lines: [Range<Data.Index>] = []
    var start = bytes.startIndex
    for end in Self.lineFeeds(in: bytes, limit: .max) {
      lines.append(start..<end)
      start = end + 1
    }
    guard start == bytes.endIndex else {
      throw .corruptedOutbox(key: key, reason: "the last line has no line feed")
    }
    guard let headerLine = lines.first else {
      throw .corruptedOutbox(key: key, reason: "the value is empty")
    }
    let header = try Self.decodeHeader(bytes[headerLine], key: key)
    let announced = header.head - header.oldest + 1
    guard UInt64(lines.count - 1) == announced else {
      throw .corruptedOutbox(
        key: key,
        reason: "the header announces \(announced) entries (\(header.oldest) to "
          + "\(header.head)), the value holds \(lines.count - 1)")
    }
    self.header = header
    self.bytes = bytes
    self.lines = Array(lines.dropFirst())
  }

  private static func decodeHeader(_ line: Data, key: String) throws(SequenceTrackingError)
    -> Header
  {
    let decoder = JSONDecoder()
    let format: Int
    do {
      format = try decoder.decode(FormatProbe.self, from: line).format
    } catch {
      throw .corruptedOutbox(key: key, reason: "the header line does not decode: \(error)")
    }
    guard format == version else {
      throw .unsupportedOutboxFormat(key: key, found: format, supported: version)
    }
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: line)
    } catch {
      throw .corruptedOutbox(key: key, reason: "the header line does not decode: \(error)")
    }
    guard header.oldest >= 1, header.oldest <= header.head else {
      throw .corruptedOutbox(
        key: key,
        reason: "the header's oldest number \(header.oldest) and head \(header.head) "
          + "do not form a range starting at 1 or later")
    }
    return header
  }

  /// The indices of the first `limit` line feeds in `bytes`, found with `memchr`.
  private static func lineFeeds(in bytes: Data, limit: Int) -> [Data.Index] {
    bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Data.Index] in
      guard let base = raw.baseAddress else { return [] }
      var found: [Data.Index] = []
      var offset = 0
      while found.count < limit, offset < raw.count,
        let hit = memchr(base + offset, Int32(lineFeed), raw.count - offset)
      {
        let position = base.distance(to: UnsafeRawPointer(hit))
        found.append(bytes.startIndex + position)
        offset = position + 1
      }
      return found
    }
  }

  /// Encodes one payload as a line, without its line feed.
  static func encodedPayload<Payload: Encodable>(_ payload: Payload, key: String)
    throws(SequenceTrackingError) -> Data
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let line: Data
    do {
      line = try encoder.encode(payload)
    } catch {
      throw .payloadEncoding(key: key, type: "\(Payload.self)", description: "\(error)")
    }
    // JSON escapes line feeds inside strings; a raw one would split the entry in two.
    guard !line.contains(lineFeed) else {
      throw .payloadEncoding(
        key: key, type: "\(Payload.self)", description: "the encoding contains a raw line feed")
    }
    return line
  }

  // MARK: - Writing

  /// Returns the stored bytes after appending `payloads` (encoded, without line feeds) to
  /// `existing`, or to a new outbox of `freshEpoch` when there is none, keeping the newest
  /// `capacity` entries.
  ///
  /// - Returns: The new bytes and the values assigned to `payloads`.
  /// - Complexity: O(*n*) in the size of the stored value; no payload is decoded.
  static func appending(
    _ payloads: [Data],
    to existing: Data?,
    capacity: Int,
    key: String,
    freshEpoch: () -> SequenceEpoch
  ) throws(SequenceTrackingError) -> (bytes: Data, assigned: SequenceRange) {
    precondition(!payloads.isEmpty && capacity >= 1)
    let old = try existing.map { bytes throws(SequenceTrackingError) in
      try OutboxLayout(parsing: bytes, key: key)
    }
    let epoch = old?.header.epoch ?? freshEpoch()
    let previousHead = old?.header.head ?? 0
    let (head, overflow) = previousHead.addingReportingOverflow(UInt64(payloads.count))
    guard !overflow else { throw .exhausted(key: key) }
    let kept = old?.lines ?? []
    let evicted = max(0, kept.count + payloads.count - capacity)
    let keptOld = kept.dropFirst(evicted)
    let keptNew = payloads.dropFirst(max(0, evicted - kept.count))
    let oldest = head - UInt64(keptOld.count + keptNew.count) + 1

    var bytes = try encodedHeader(
      Header(epoch: epoch, format: version, head: head, oldest: oldest), key: key)
    bytes.append(lineFeed)
    if let old, let first = keptOld.first, let last = keptOld.last {
      // Consecutive lines are contiguous, line feeds included: copy them in one piece.
      bytes.append(old.bytes[first.lowerBound...last.upperBound])
    }
    for payload in keptNew {
      bytes.append(payload)
      bytes.append(lineFeed)
    }
    return (bytes, SequenceRange(epoch: epoch, values: (previousHead + 1)...head))
  }

  private static func encodedHeader(_ header: Header, key: String) throws(SequenceTrackingError)
    -> Data
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(header)
    } catch {
      throw .payloadEncoding(key: key, type: "outbox header", description: "\(error)")
    }
  }
}
