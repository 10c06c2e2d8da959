import Foundation
import SharedStore

/// The stored formats of `Sources/ScreenTimeKit/ScreenTimeKit.docc/Articles/FileFormat.md`, written
/// again from the document rather than from the library's code: file names, COBS, varints, the
/// frames of a log, and the repair of checksums, so that a fuzzer's mutations reach past them.
package enum StoredBytes {
  /// The magic of a value file, `STKS`.
  package static let valueMagic: [UInt8] = Array("STKS".utf8)
  /// The magic of a log file, `STKL`.
  package static let logMagic: [UInt8] = Array("STKL".utf8)
  /// The size of a value file's header.
  package static let valueHeaderSize = 32
  /// The size of a log file's header.
  package static let logHeaderSize = 56

  /// The name of the file that holds `key`: each uppercase letter becomes `^` and the letter.
  package static func fileName(forKey key: String) -> String {
    var name = ""
    for scalar in key.unicodeScalars {
      if case "A"..."Z" = scalar {
        name.unicodeScalars.append("^")
        name.unicodeScalars.append(Unicode.Scalar(UInt8(scalar.value + 32)))
      } else {
        name.unicodeScalars.append(scalar)
      }
    }
    return name
  }

  // MARK: - Integers

  /// The little-endian integer at `offset`, or `nil` when the bytes end first.
  package static func load<Integer: FixedWidthInteger>(
    _: Integer.Type, _ bytes: [UInt8], at offset: Int
  ) -> Integer? {
    let size = Integer.bitWidth / 8
    guard offset >= 0, offset + size <= bytes.count else { return nil }
    var value = Integer.zero
    for index in (0..<size).reversed() {
      value = value << 8 | Integer(bytes[offset + index])
    }
    return value
  }

  /// Writes `value` little-endian at `offset`, when it fits.
  package static func store<Integer: FixedWidthInteger>(
    _ value: Integer, _ bytes: inout [UInt8], at offset: Int
  ) {
    let size = Integer.bitWidth / 8
    guard offset >= 0, offset + size <= bytes.count else { return }
    for index in 0..<size {
      bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
    }
  }

  /// CRC-32C of `bytes`.
  package static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    CRC32C.checksum(ofBytes: bytes)
  }

  // MARK: - COBS and varints

  /// The COBS encoding of `input`: no `0x00` in it.
  package static func cobsEncode(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(input.count + input.count / 254 + 2)
    var block: [UInt8] = []
    for byte in input {
      if byte == 0 {
        output.append(UInt8(block.count + 1))
        output.append(contentsOf: block)
        block.removeAll(keepingCapacity: true)
      } else {
        block.append(byte)
        if block.count == 254 {
          output.append(0xFF)
          output.append(contentsOf: block)
          block.removeAll(keepingCapacity: true)
        }
      }
    }
    output.append(UInt8(block.count + 1))
    output.append(contentsOf: block)
    return output
  }

  /// The decoding of `input`, which holds no `0x00`, or `nil` when it is not COBS.
  package static func cobsDecode(_ input: ArraySlice<UInt8>) -> [UInt8]? {
    var output: [UInt8] = []
    var index = input.startIndex
    while index < input.endIndex {
      let code = Int(input[index])
      guard code != 0, index + code <= input.endIndex else { return nil }
      output.append(contentsOf: input[(index + 1)..<(index + code)])
      index += code
      if code != 0xFF, index < input.endIndex { output.append(0) }
    }
    return output
  }

  /// Appends `value` as an unsigned LEB128 varint.
  package static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    output.append(UInt8(value))
  }

  /// Reads a varint at `index`, advancing it; `nil` when it does not end before `end` or does
  /// not fit in 64 bits.
  package static func readVarint(_ bytes: [UInt8], at index: inout Int, end: Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while index < end {
      let byte = bytes[index]
      index += 1
      guard shift < 64 else { return nil }
      value |= UInt64(byte & 0x7F) << shift
      if byte & 0x80 == 0 { return value }
      shift += 7
    }
    return nil
  }

  // MARK: - Frames

  /// The content of one frame of a log file, before its checksum and COBS.
  package struct Frame: Equatable, Sendable {
    /// The index of the frame's first record in the file.
    package var ordinal: UInt64
    /// The position of its first record.
    package var firstPosition: UInt64
    /// The record count written in the frame (normally `records.count`).
    package var count: UInt64
    /// The records' bytes.
    package var records: [[UInt8]]
    /// Bytes after the records, before the checksum (normally none).
    package var trailing: [UInt8] = []

    /// A frame whose count matches its records.
    package init(ordinal: UInt64, firstPosition: UInt64, records: [[UInt8]]) {
      self.ordinal = ordinal
      self.firstPosition = firstPosition
      count = UInt64(records.count)
      self.records = records
    }

    /// The frame's content: the varints and records, without checksum.
    package var body: [UInt8] {
      var body: [UInt8] = []
      appendVarint(ordinal, to: &body)
      appendVarint(firstPosition, to: &body)
      appendVarint(count, to: &body)
      for record in records {
        appendVarint(UInt64(record.count), to: &body)
        body.append(contentsOf: record)
      }
      body.append(contentsOf: trailing)
      return body
    }

    /// The frame as a file holds it: COBS of body and checksum, then `0x00`.
    package var encoded: [UInt8] { StoredBytes.frame(body: body) }

    /// Parses a frame's content (its checksum removed); `nil` when it is not one.
    package init?(body: [UInt8]) {
      var index = 0
      let end = body.count
      guard let ordinal = readVarint(body, at: &index, end: end),
        let first = readVarint(body, at: &index, end: end),
        let count = readVarint(body, at: &index, end: end), count <= UInt64(end)
      else { return nil }
      var records: [[UInt8]] = []
      for _ in 0..<count {
        guard let length = readVarint(body, at: &index, end: end),
          length <= UInt64(end - index)
        else { return nil }
        records.append(Array(body[index..<(index + Int(length))]))
        index += Int(length)
      }
      self.init(ordinal: ordinal, firstPosition: first, records: records)
      trailing = Array(body[index...])
    }
  }

  /// A frame as a file holds it for `body`: COBS of the body and its CRC-32C, then `0x00`.
  package static func frame(body: [UInt8]) -> [UInt8] {
    var raw = body
    raw.append(contentsOf: withUnsafeBytes(of: checksum(body).littleEndian, Array.init))
    return cobsEncode(raw) + [0]
  }

  /// The bytes of a log file after its header, cut at each `0x00`: the frames' encodings (without
  /// their `0x00`), then the bytes after the last `0x00` (empty when the file ends with one).
  package static func segments(ofLog bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    guard bytes.count > logHeaderSize else { return [] }
    return bytes[logHeaderSize...].split(separator: 0, omittingEmptySubsequences: false)
  }

  /// A log file taken apart: its header, its complete frames, and what follows them.
  package struct LogLayout: Equatable, Sendable {
    /// The 56 header bytes.
    package var header: [UInt8]
    /// The frames that end in `0x00`, each with its content or, when it is not a valid frame
    /// (COBS or checksum), its bytes as they are.
    package var frames: [Either]
    /// The bytes after the last `0x00`.
    package var tail: [UInt8]

    /// A frame, or bytes between two `0x00` that are not one.
    package enum Either: Equatable, Sendable {
      /// A frame with a valid encoding and checksum.
      case frame(Frame)
      /// Other bytes.
      case bytes([UInt8])
    }

    /// Takes a log file apart; `nil` when it is shorter than a header.
    package init?(_ bytes: [UInt8]) {
      guard bytes.count >= logHeaderSize else { return nil }
      header = Array(bytes[0..<logHeaderSize])
      var segments = StoredBytes.segments(ofLog: bytes)
      tail = segments.popLast().map(Array.init) ?? []
      frames = segments.map { segment in
        if let raw = cobsDecode(segment), raw.count >= 4 {
          let body = Array(raw.dropLast(4))
          if load(UInt32.self, raw, at: raw.count - 4) == checksum(body),
            let frame = Frame(body: body)
          {
            return .frame(frame)
          }
        }
        return .bytes(Array(segment))
      }
    }

    /// The file.
    package var bytes: [UInt8] {
      var bytes = header
      for frame in frames {
        switch frame {
        case .frame(let frame): bytes.append(contentsOf: frame.encoded)
        case .bytes(let other): bytes.append(contentsOf: other + [0])
        }
      }
      return bytes + tail
    }
  }

  // MARK: - Repairing checksums

  /// `bytes` with every checksum made to match what it covers.
  ///
  /// So that mutated fields are read past the checks: a value file's header and payload checksums (and, when `lengths` is set,
  /// its payload length); a log file's header checksum and the checksum of every frame that is
  /// valid COBS. Bytes of neither kind are returned as they are.
  package static func repairingChecksums(_ bytes: [UInt8], lengths: Bool = false) -> [UInt8] {
    var bytes = bytes
    if bytes.starts(with: valueMagic), bytes.count >= valueHeaderSize {
      if lengths { store(UInt64(bytes.count - valueHeaderSize), &bytes, at: 16) }
      store(checksum(bytes[valueHeaderSize...]), &bytes, at: 24)
      store(checksum(bytes[0..<28]), &bytes, at: 28)
    } else if bytes.starts(with: logMagic), bytes.count >= logHeaderSize {
      store(checksum(bytes[0..<52]), &bytes, at: 52)
      var repaired = Array(bytes[0..<logHeaderSize])
      let segments = segments(ofLog: bytes)
      for (index, segment) in segments.enumerated() {
        let isLast = index == segments.count - 1
        if let raw = cobsDecode(segment), raw.count >= 4 {
          let body = Array(raw.dropLast(4))
          repaired.append(contentsOf: frame(body: body).dropLast(isLast ? 1 : 0))
        } else {
          repaired.append(contentsOf: segment)
          if !isLast { repaired.append(0) }
        }
      }
      bytes = repaired
    }
    return bytes
  }

  /// The file a libFuzzer input stands for: its first byte chooses how the rest is planted —
  /// bit 0 set: with its checksums repaired; bit 1 set too: with a value file's payload length
  /// repaired as well; otherwise as it is.
  package static func file(fromFuzzerInput input: [UInt8]) -> [UInt8] {
    guard let mode = input.first else { return [] }
    let file = Array(input.dropFirst())
    guard mode & 1 == 1 else { return file }
    return repairingChecksums(file, lengths: mode & 2 == 2)
  }
}
