import Foundation

/// The bytes of an append-only log, version 1: a fixed header, then frames of records.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `STKL` (`53 54 4B 4C`) |
/// | 4 | 2 | format version, `1` |
/// | 6 | 2 | the version's bitwise complement, `0xFFFE` |
/// | 8 | 8 | token base: the change token is this plus the bytes after the header |
/// | 16 | 8 | identity, random, kept by compaction |
/// | 24 | 8 | capacity (records) |
/// | 32 | 8 | records evicted before this file was written |
/// | 40 | 8 | the lowest position an append to this file may take |
/// | 48 | 4 | reserved, 0 |
/// | 52 | 4 | CRC-32C of bytes 0..<52 |
/// | 56 | … | frames |
///
/// A frame is the COBS encoding of: ordinal (the index of its first record in this file),
/// position of its first record, record count, then each record as length and bytes (all four
/// LEB128 varints), then the CRC-32C of all of that (4 bytes, little-endian) — followed by one
/// `0x00`. One append writes one frame; a compaction writes frames of up to about 4 KiB.
/// `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md` describes the format for
/// people.
package enum LogFileFormat {
  /// The four bytes every log file starts with.
  package static let magic: [UInt8] = [0x53, 0x54, 0x4B, 0x4C]
  /// The format version this library writes and reads.
  package static let version: UInt16 = 1
  /// The size of the header in bytes.
  package static let headerSize = 56
  /// The record bytes a compaction puts in one frame before starting the next.
  static let packedFrameBytes = 4096

  /// The header's fields.
  package struct Header: Equatable, Sendable {
    /// The change token of the file with no frame; each byte after the header adds one.
    package var tokenBase: UInt64
    /// The log's identity.
    package var identity: UInt64
    /// The most records kept.
    package var capacity: Int
    /// Records evicted before this file was written.
    package var evicted: UInt64
    /// The lowest position an append to this file may take.
    package var nextPosition: UInt64

    /// Creates header fields.
    package init(
      tokenBase: UInt64, identity: UInt64, capacity: Int, evicted: UInt64, nextPosition: UInt64
    ) {
      self.tokenBase = tokenBase
      self.identity = identity
      self.capacity = capacity
      self.evicted = evicted
      self.nextPosition = nextPosition
    }
  }

  /// One decoded frame: consecutive records from `firstPosition`.
  package struct Frame: Equatable, Sendable {
    /// The index of the frame's first record among the file's records.
    package var ordinal: Int
    /// The position of its first record.
    package var firstPosition: UInt64
    /// The records' bytes, oldest first; never empty.
    package var records: [Data]

    /// The position after its last record (never overflows: decoding checks it).
    var endPosition: UInt64 { firstPosition + UInt64(records.count) }
    /// The ordinal after its last record.
    var endOrdinal: Int { ordinal + records.count }
  }

  /// How the bytes after the last complete frame look.
  enum Tail: Equatable {
    /// The file ends with a frame's `0x00`, or has no frame.
    case clean
    /// The last frame is complete and valid but its `0x00` is missing.
    case unterminated
    /// The file ends with `bytes` bytes of a frame cut short: ignored by readers.
    case torn(bytes: Int)
  }

  // MARK: - Header

  /// Encodes a header.
  package static func encode(_ header: Header) -> Data {
    var bytes = Data(capacity: headerSize)
    bytes.append(contentsOf: magic)
    append(version, to: &bytes)
    append(~version, to: &bytes)
    append(header.tokenBase, to: &bytes)
    append(header.identity, to: &bytes)
    append(UInt64(header.capacity), to: &bytes)
    append(header.evicted, to: &bytes)
    append(header.nextPosition, to: &bytes)
    append(UInt32(0), to: &bytes)
    append(bytes.withUnsafeBytes { CRC32C.checksum($0) }, to: &bytes)
    return bytes
  }

  /// Validates the header at the start of `bytes`, which may hold more than the header.
  static func decodeHeader(_ bytes: Data) -> Result<Header, StoreFileFormat.Damage> {
    bytes.withUnsafeBytes { raw in
      guard !raw.isEmpty else { return .failure(.corrupted("the file is empty")) }
      guard raw.count >= 8 else {
        return .failure(.corrupted("truncated: \(raw.count) bytes, shorter than the header"))
      }
      let found = Array(raw.prefix(4))
      if found == StoreFileFormat.magic { return .failure(.holdsOtherKind(.value)) }
      guard found == magic else {
        return .failure(.corrupted("not a ScreenTimeKit store file (wrong magic bytes)"))
      }
      let version = load(UInt16.self, raw, at: 4)
      guard load(UInt16.self, raw, at: 6) == ~version else {
        return .failure(.corrupted("the format version field is damaged"))
      }
      guard version == Self.version else { return .failure(.unsupportedVersion(Int(version))) }
      guard raw.count >= headerSize else {
        return .failure(.corrupted("truncated: \(raw.count) bytes, shorter than the header"))
      }
      let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<52]))
      guard load(UInt32.self, raw, at: 52) == checksum else {
        return .failure(.corrupted("the log header checksum does not match"))
      }
      let capacity = load(UInt64.self, raw, at: 24)
      let nextPosition = load(UInt64.self, raw, at: 40)
      guard capacity >= 1, capacity <= UInt64(Int.max), nextPosition >= 1,
        load(UInt32.self, raw, at: 48) == 0
      else {
        return .failure(
          .corrupted(
            "inconsistent log header (capacity \(capacity), next position \(nextPosition))"))
      }
      return .success(
        Header(
          tokenBase: load(UInt64.self, raw, at: 8), identity: load(UInt64.self, raw, at: 16),
          capacity: Int(capacity), evicted: load(UInt64.self, raw, at: 32),
          nextPosition: nextPosition))
    }
  }

  // MARK: - Frames

  /// Encodes one frame, its final `0x00` included.
  ///
  /// - Complexity: O(*n*) in the records' bytes.
  package static func frame(
    ordinal: Int, firstPosition: UInt64, records: some Collection<Data>
  ) -> Data {
    var bytes = Data()
    appendFrame(ordinal: ordinal, firstPosition: firstPosition, records: records, to: &bytes)
    return bytes
  }

  /// Appends the encoding of one frame, its final `0x00` included, to `output`.
  ///
  /// - Complexity: O(*n*) in the records' bytes.
  package static func appendFrame(
    ordinal: Int, firstPosition: UInt64, records: some Collection<Data>, to output: inout Data
  ) {
    withFrame(ordinal: ordinal, firstPosition: firstPosition, records: records) { frame in
      output.append(contentsOf: frame)
    }
  }

  /// Calls `body` with the encoding of one frame, its final `0x00` included, after a `0x00`
  /// when `afterZero` (to terminate a file's unterminated tail first).
  ///
  /// The frame's content and its COBS encoding are built in temporary buffers — on the stack
  /// for a small frame, such as the one record a monitor extension appends at every callback —
  /// so that an append allocates nothing for its frame.
  ///
  /// - Complexity: O(*n*) in the records' bytes.
  static func withFrame<Result>(
    ordinal: Int, firstPosition: UInt64, records: some Collection<Data>, afterZero: Bool = false,
    _ body: (UnsafeRawBufferPointer) -> Result
  ) -> Result {
    // Each varint takes at most `Varint.maximumSize` bytes; the checksum 4.
    let contentBound = records.reduce(3 * Varint.maximumSize + 4) {
      $0 + Varint.maximumSize + $1.count
    }
    return withUnsafeTemporaryAllocation(byteCount: contentBound, alignment: 1) { content in
      var count = 0
      Varint.write(UInt64(ordinal), to: content, at: &count)
      Varint.write(firstPosition, to: content, at: &count)
      Varint.write(UInt64(records.count), to: content, at: &count)
      for record in records {
        Varint.write(UInt64(record.count), to: content, at: &count)
        record.withUnsafeBytes { bytes in
          UnsafeMutableRawBufferPointer(rebasing: content[count..<count + bytes.count])
            .copyMemory(from: bytes)
        }
        count += record.count
      }
      let checksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: content[..<count]))
      withUnsafeBytes(of: checksum.littleEndian) { bytes in
        UnsafeMutableRawBufferPointer(rebasing: content[count..<count + 4]).copyMemory(from: bytes)
      }
      count += 4
      let plain = UnsafeRawBufferPointer(rebasing: content[..<count])
      let prefix = afterZero ? 1 : 0
      return withUnsafeTemporaryAllocation(
        byteCount: prefix + COBS.encodedBound(count) + 1, alignment: 1
      ) { encoded in
        encoded[0] = 0
        let length = COBS.encode(
          plain, into: UnsafeMutableRawBufferPointer(rebasing: encoded[prefix...]))
        encoded[prefix + length] = 0
        return body(UnsafeRawBufferPointer(rebasing: encoded[..<(prefix + length + 1)]))
      }
    }
  }

  /// Decodes the bytes of one frame, without its `0x00`; the failure is the reason.
  static func decodeFrame(_ segment: UnsafeRawBufferPointer) -> Result<Frame, FrameDamage> {
    var scratch: [UInt8] = []
    return decodeFrame(segment, scratch: &scratch)
  }

  /// ``decodeFrame(_:)``, decoding into `scratch`, whose capacity a reader of many frames keeps.
  static func decodeFrame(_ segment: UnsafeRawBufferPointer, scratch: inout [UInt8])
    -> Result<Frame, FrameDamage>
  {
    guard COBS.decode(segment, into: &scratch) else {
      return .failure(FrameDamage(reason: "not a valid frame encoding"))
    }
    return scratch.withUnsafeBytes { bytes in
      guard bytes.count >= 3 + 4 else {
        return .failure(FrameDamage(reason: "\(bytes.count) bytes, too short for a frame"))
      }
      let bodyEnd = bytes.count - 4
      let stored = load(UInt32.self, bytes, at: bodyEnd)
      guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[..<bodyEnd])) == stored else {
        return .failure(FrameDamage(reason: "the frame checksum does not match"))
      }
      var index = 0
      guard let ordinal = Varint.read(bytes, at: &index, end: bodyEnd),
        let first = Varint.read(bytes, at: &index, end: bodyEnd),
        let count = Varint.read(bytes, at: &index, end: bodyEnd)
      else { return .failure(FrameDamage(reason: "the frame's fields are cut short")) }
      guard count >= 1, count <= UInt64(bodyEnd - index), first >= 1,
        first <= UInt64.max - count, ordinal <= UInt64(Int.max / 2)
      else {
        return .failure(
          FrameDamage(
            reason: "impossible frame fields (ordinal \(ordinal), position \(first), "
              + "\(count) records)"))
      }
      var records: [Data] = []
      records.reserveCapacity(Int(count))
      for _ in 0..<count {
        guard let length = Varint.read(bytes, at: &index, end: bodyEnd),
          length <= UInt64(bodyEnd - index)
        else { return .failure(FrameDamage(reason: "a record's length runs past the frame")) }
        records.append(Data(UnsafeRawBufferPointer(rebasing: bytes[index..<index + Int(length)])))
        index += Int(length)
      }
      guard index == bodyEnd else {
        return .failure(FrameDamage(reason: "\(bodyEnd - index) unexpected bytes in the frame"))
      }
      return .success(Frame(ordinal: Int(ordinal), firstPosition: first, records: records))
    }
  }

  /// Why the bytes between two `0x00` are not a frame.
  struct FrameDamage: Error {
    var reason: String
  }

  // MARK: - Whole files

  /// A complete file: `header`, then `records` in frames of consecutive positions.
  ///
  /// - Complexity: O(*n*) in the records' bytes.
  package static func file(header: Header, records: [LogRecord]) -> Data {
    var builder = FileBuilder(header: header)
    for record in records { builder.add(record) }
    return builder.finish()
  }

  // MARK: - Helpers

  private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  private static func load<Integer: FixedWidthInteger>(
    _: Integer.Type, _ raw: UnsafeRawBufferPointer, at offset: Int
  ) -> Integer {
    Integer(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Integer.self))
  }
}
