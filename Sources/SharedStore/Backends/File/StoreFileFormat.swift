import Foundation

/// The on-disk format of one FileStore value file, version 1.
///
/// A 32-byte header, then the payload. All integers are little-endian.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `STKS` (`53 54 4B 53`) |
/// | 4 | 2 | format version, `1` |
/// | 6 | 2 | the version's bitwise complement, `0xFFFE` |
/// | 8 | 8 | generation number (the change token) |
/// | 16 | 8 | payload length in bytes |
/// | 24 | 4 | CRC-32C of the payload |
/// | 28 | 4 | CRC-32C of bytes 0..<28 |
/// | 32 | n | payload |
///
/// The version and its complement are checked before anything else that depends on the version:
/// a single flipped bit cannot turn a damaged version-1 file into a "newer format" one, while a
/// file really written by a newer format is reported as such. <doc:/ScreenTimeKit/FileFormat>
/// describes the format for people.
package enum StoreFileFormat {
  /// The four bytes every value file starts with.
  package static let magic: [UInt8] = [0x53, 0x54, 0x4B, 0x53]
  /// The format version this library writes and reads.
  package static let version: UInt16 = 1
  /// The size of the header in bytes.
  package static let headerSize = 32

  /// The fields of a valid header.
  package struct Header: Equatable, Sendable {
    /// The generation number.
    package var generation: UInt64
    /// The payload length in bytes.
    package var payloadLength: Int
    /// The payload's CRC-32C.
    package var payloadChecksum: UInt32
  }

  /// Why bytes are not a valid value file.
  package enum Damage: Error, Equatable, Sendable {
    /// Damaged, truncated or foreign bytes.
    case corrupted(String)
    /// A well-formed header of a format version this library does not read.
    case unsupportedVersion(Int)
    /// A file of the other kind: an append-only log where a value was expected, or the reverse.
    case holdsOtherKind(StoredKind)
  }

  /// Returns a complete value file for `payload`.
  ///
  /// - Parameters:
  ///   - payload: The value's bytes.
  ///   - generation: The generation number to record.
  /// - Returns: Header and payload, ready to write.
  /// - Complexity: O(*n*) in the payload size.
  package static func encode(payload: Data, generation: UInt64) -> Data {
    var file = Data(capacity: headerSize + payload.count)
    file.append(contentsOf: magic)
    append(version, to: &file)
    append(~version, to: &file)
    append(generation, to: &file)
    append(UInt64(payload.count), to: &file)
    append(payload.withUnsafeBytes { CRC32C.checksum($0) }, to: &file)
    append(file.withUnsafeBytes { CRC32C.checksum($0) }, to: &file)
    file.append(payload)
    return file
  }

  /// Validates the header at the start of `bytes`.
  ///
  /// `bytes` may hold the whole file or only its first ``headerSize`` bytes.
  ///
  /// - Parameter bytes: The start of a file.
  /// - Returns: The header's fields, or why the bytes are not a valid header.
  package static func decodeHeader(_ bytes: Data) -> Result<Header, Damage> {
    bytes.withUnsafeBytes { decodeHeader($0) }
  }

  /// Validates a whole value file and returns its generation and payload.
  ///
  /// - Parameter bytes: The whole file.
  /// - Returns: The generation and the payload, or why the bytes are not a valid value file.
  /// - Complexity: O(*n*) in the file size.
  package static func decode(_ bytes: Data) -> Result<(generation: UInt64, payload: Data), Damage> {
    bytes.withUnsafeBytes { raw in
      let header: Header
      switch decodeHeader(raw) {
      case .success(let valid): header = valid
      case .failure(let damage): return .failure(damage)
      }
      let available = raw.count - headerSize
      guard available == header.payloadLength else {
        return .failure(
          .corrupted(
            available < header.payloadLength
              ? "truncated: the header announces \(header.payloadLength) payload bytes, "
                + "the file holds \(available)"
              : "\(available - header.payloadLength) unexpected bytes after the payload"))
      }
      let payload = UnsafeRawBufferPointer(rebasing: raw[headerSize...])
      guard CRC32C.checksum(payload) == header.payloadChecksum else {
        return .failure(.corrupted("the payload checksum does not match"))
      }
      return .success((header.generation, Data(payload)))
    }
  }

  private static func decodeHeader(_ raw: UnsafeRawBufferPointer) -> Result<Header, Damage> {
    guard !raw.isEmpty else { return .failure(.corrupted("the file is empty")) }
    guard raw.count >= 8 else {
      return .failure(.corrupted("truncated: \(raw.count) bytes, shorter than the header"))
    }
    if raw.prefix(4).elementsEqual(LogFileFormat.magic) { return .failure(.holdsOtherKind(.log)) }
    guard raw.prefix(4).elementsEqual(magic) else {
      return .failure(.corrupted("not a ScreenTimeKit store file (wrong magic bytes)"))
    }
    let found = load(UInt16.self, raw, at: 4)
    guard load(UInt16.self, raw, at: 6) == ~found else {
      return .failure(.corrupted("the format version field is damaged"))
    }
    guard found == version else { return .failure(.unsupportedVersion(Int(found))) }
    guard raw.count >= headerSize else {
      return .failure(.corrupted("truncated: \(raw.count) bytes, shorter than the header"))
    }
    let headerChecksum = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<28]))
    guard load(UInt32.self, raw, at: 28) == headerChecksum else {
      return .failure(.corrupted("the header checksum does not match"))
    }
    let length = load(UInt64.self, raw, at: 16)
    guard length <= UInt64(Int.max - headerSize) else {
      return .failure(.corrupted("impossible payload length \(length)"))
    }
    return .success(
      Header(
        generation: load(UInt64.self, raw, at: 8),
        payloadLength: Int(length),
        payloadChecksum: load(UInt32.self, raw, at: 24)))
  }

  private static func append<Integer: FixedWidthInteger>(_ value: Integer, to data: inout Data) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  private static func load<Integer: FixedWidthInteger>(
    _: Integer.Type,
    _ raw: UnsafeRawBufferPointer,
    at offset: Int
  ) -> Integer {
    Integer(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Integer.self))
  }
}
