import Foundation
import TestSupport

/// Turns valid stored files into hostile ones, deterministically from a seed.
///
/// Each input starts from one of the seed files and gets one to three mutations, chosen at
/// random. Most are made on the file taken apart, so that the result passes the checksums and
/// reaches the code behind them: a value file's payload (mutated as JSON by ``JSONMutator``), a
/// log's records (JSON, an outbox entry's version byte and JSON, a heartbeat's binary fields, or
/// any bytes), its frames' fields (ordinals, positions, counts, trailing bytes), the list of
/// frames (dropped, repeated, swapped, split, merged) and what follows the last frame (a torn
/// frame, a missing or extra `0x00`). The others set a header field to an extreme, with or
/// without its checksum repaired, or damage the bytes themselves: flipped bits, bytes inserted,
/// removed or repeated, a file cut short or spliced with another.
package struct StoredFormatMutator {
  /// What a log's records or a value's payload hold.
  enum Content {
    /// JSON.
    case json
    /// A version byte, then JSON (an outbox entry).
    case versionedJSON
    /// A heartbeat record's binary fields.
    case heartbeat
    /// Any bytes.
    case opaque
  }

  /// Integers that break arithmetic and bounds, for header and frame fields.
  static let extremes: [UInt64] = [
    0, 1, 2, 3, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF, 1 << 32, 1 << 62,
    UInt64(Int64.max) - 1, UInt64(Int64.max), UInt64(Int64.max) + 1, .max - 1, .max,
  ]

  /// Instants of heartbeat records: the ends of the supported range and one past them.
  static let instants: [Int64] = [
    -62_135_424_000_000, -62_135_424_000_001, 253_402_127_999_999, 253_402_128_000_000, 0, -1,
    .min, .max, 1_772_971_200_000,
  ]

  private let seeds: [[UInt8]]
  private let content: Content
  private var json: JSONMutator?
  private var random: SplitMix64

  /// Creates a mutator over the seed files of `format`.
  ///
  /// - Parameters:
  ///   - format: The format the seeds are files of.
  ///   - seeds: Valid files.
  ///   - seed: The generator's seed; equal seeds give equal inputs.
  /// - Throws: When no seed is given.
  package init(format: StoredFormat, seeds: [[UInt8]], seed: UInt64) throws {
    self.seeds = seeds
    switch format {
    case .logFile: content = .opaque
    case .outbox: content = .versionedJSON
    case .heartbeats: content = .heartbeat
    default: content = .json
    }
    var documents: [[UInt8]] = []
    for file in seeds {
      for part in Self.contents(of: file) {
        let document = content == .versionedJSON ? Array(part.dropFirst()) : part
        if (try? JSONTree(parsing: document)) != nil { documents.append(document) }
      }
    }
    json = documents.isEmpty ? nil : try JSONMutator(seeds: documents, seed: seed ^ 0x4A53_4F4E)
    random = SplitMix64(seed: seed)
  }

  /// The payload of a value file, or the records of a log file.
  private static func contents(of file: [UInt8]) -> [[UInt8]] {
    if file.starts(with: StoredBytes.valueMagic) {
      return [Array(file.dropFirst(StoredBytes.valueHeaderSize))]
    }
    guard let layout = StoredBytes.LogLayout(file) else { return [] }
    return layout.frames.flatMap { frame -> [[UInt8]] in
      if case .frame(let frame) = frame { return frame.records }
      return []
    }
  }

  /// The next hostile file.
  ///
  /// - Returns: The bytes of a file.
  package mutating func next() -> [UInt8] {
    guard !seeds.isEmpty else { return [] }
    var bytes = seeds[below(seeds.count)]
    for _ in 0...below(3) {
      switch below(16) {
      case 0..<9: bytes = mutateContent(bytes)
      case 9..<12: bytes = mutateHeader(bytes)
      case 12..<15: mutateBytes(&bytes)
      default:
        mutateBytes(&bytes)
        bytes = StoredBytes.repairingChecksums(bytes, lengths: below(2) == 0)
      }
    }
    return bytes
  }

  // MARK: - Random choices

  private mutating func below(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(random.next() % UInt64(bound))
  }

  private mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[below(elements.count)]
  }

  private mutating func extreme(near value: UInt64? = nil) -> UInt64 {
    if let value, below(3) == 0 { return below(2) == 0 ? value &+ 1 : value &- 1 }
    return pick(Self.extremes)
  }

  // MARK: - Contents

  private mutating func mutateContent(_ bytes: [UInt8]) -> [UInt8] {
    if bytes.starts(with: StoredBytes.valueMagic), bytes.count >= StoredBytes.valueHeaderSize {
      let payload = mutatedContent(Array(bytes.dropFirst(StoredBytes.valueHeaderSize)))
      return StoredBytes.repairingChecksums(
        Array(bytes.prefix(StoredBytes.valueHeaderSize)) + payload, lengths: true)
    }
    guard var layout = StoredBytes.LogLayout(bytes) else { return bytes }
    switch below(8) {
    case 0..<3: mutateRecords(&layout)
    case 3..<5: mutateFrameFields(&layout)
    case 5..<7: mutateFrameList(&layout)
    default: mutateTail(&layout)
    }
    return layout.bytes
  }

  /// A record or payload like `bytes`, mutated as its content is.
  private mutating func mutatedContent(_ bytes: [UInt8]) -> [UInt8] {
    switch content {
    case .json where json != nil && below(4) != 0:
      return json?.next() ?? bytes
    case .versionedJSON where json != nil && below(4) != 0:
      let version: UInt8 = below(4) == 0 ? pick([0, 2, 0xFF]) : 1
      return [version] + (json?.next() ?? [])
    case .heartbeat where below(4) != 0:
      return heartbeatRecord()
    default:
      var bytes = bytes
      if below(3) == 0 {
        bytes = pick([
          [], [0], [1], Array(repeating: 0, count: 254), Array(repeating: 7, count: 255),
        ])
      }
      mutateBytes(&bytes)
      return bytes
    }
  }

  private mutating func heartbeatRecord() -> [UInt8] {
    let flags: UInt8 = below(6) == 0 ? pick([4, 0x80, 0xFF]) : UInt8(below(4))
    var record: [UInt8] = [below(8) == 0 ? pick([0, 2, 0xFF]) : 1, flags]
    withUnsafeBytes(of: pick(Self.instants).littleEndian) { record += $0 }
    for bit: UInt8 in [1, 2] where flags & bit != 0 {
      withUnsafeBytes(of: extreme().littleEndian) { record += $0 }
    }
    switch below(8) {
    case 0: record.removeLast()
    case 1: record.append(0)
    default: break
    }
    return record
  }

  private mutating func mutateRecords(_ layout: inout StoredBytes.LogLayout) {
    let frames = layout.frames.indices.filter {
      if case .frame = layout.frames[$0] { return true }
      return false
    }
    guard !frames.isEmpty else { return mutateTail(&layout) }
    for _ in 0...below(2) {
      let index = pick(frames)
      guard case .frame(var frame) = layout.frames[index], !frame.records.isEmpty else { continue }
      let record = below(frame.records.count)
      switch below(6) {
      case 0:
        frame.records.remove(at: record)
        frame.count = UInt64(frame.records.count)
      case 1:
        frame.records.insert(frame.records[record], at: record)
        frame.count = UInt64(frame.records.count)
      default:
        frame.records[record] = mutatedContent(frame.records[record])
      }
      layout.frames[index] = .frame(frame)
    }
  }

  private mutating func mutateFrameFields(_ layout: inout StoredBytes.LogLayout) {
    guard !layout.frames.isEmpty else { return mutateTail(&layout) }
    let index = below(4) == 0 ? below(layout.frames.count) : layout.frames.count - 1
    guard case .frame(var frame) = layout.frames[index] else { return }
    switch below(5) {
    case 0: frame.ordinal = extreme(near: frame.ordinal)
    case 1: frame.firstPosition = extreme(near: frame.firstPosition)
    case 2:
      let count = UInt64(frame.records.count)
      frame.firstPosition = pick([0, 1, .max, .max - count, .max - count &+ 1])
    case 3: frame.count = extreme(near: frame.count)
    default: frame.trailing = pick([[0], [1], [0x80], [0x81, 0x80, 0x80]])
    }
    layout.frames[index] = .frame(frame)
  }

  private mutating func mutateFrameList(_ layout: inout StoredBytes.LogLayout) {
    var frames = layout.frames
    guard !frames.isEmpty else { return mutateTail(&layout) }
    let index = below(frames.count)
    switch below(5) {
    case 0: frames.remove(at: index)
    case 1: frames.insert(frames[index], at: below(frames.count + 1))
    case 2: frames.swapAt(index, below(frames.count))
    case 3:
      // Split a frame in two that follow each other, or insert an empty frame.
      if case .frame(let frame) = frames[index], frame.records.count >= 2 {
        let cut = 1 + below(frame.records.count - 1)
        var first = frame
        first.records = Array(frame.records[..<cut])
        first.count = UInt64(cut)
        var second = StoredBytes.Frame(
          ordinal: frame.ordinal &+ UInt64(cut), firstPosition: frame.firstPosition &+ UInt64(cut),
          records: Array(frame.records[cut...]))
        second.trailing = frame.trailing
        frames[index...index] = [.frame(first), .frame(second)]
      } else {
        frames.insert(.bytes([]), at: index)
      }
    default:
      // Merge a frame with the next, as a compaction would write them.
      guard index + 1 < frames.count, case .frame(var first) = frames[index],
        case .frame(let second) = frames[index + 1]
      else { break }
      first.records += second.records
      first.count = UInt64(first.records.count)
      frames[index...(index + 1)] = [.frame(first)]
    }
    layout.frames = frames
  }

  private mutating func mutateTail(_ layout: inout StoredBytes.LogLayout) {
    switch below(6) {
    case 0:
      // A frame cut short: a writer killed part way.
      let frame = StoredBytes.Frame(
        ordinal: UInt64(layout.frames.count), firstPosition: extreme(), records: [[1, 2, 3]])
      let encoded = frame.encoded
      layout.tail = Array(encoded.prefix(1 + below(encoded.count - 1)))
    case 1:
      // The last frame without its 0x00.
      if case .frame(let frame)? = layout.frames.popLast() {
        layout.tail = Array(frame.encoded.dropLast())
      }
    case 2:
      // A complete frame and one byte more: its 0x00 overwritten.
      if case .frame(let frame)? = layout.frames.popLast() {
        layout.tail = Array(frame.encoded.dropLast()) + [pick([1, 0xFF])]
      }
    case 3: layout.frames.append(.bytes([]))
    case 4: layout.tail += [UInt8(below(256)), UInt8(below(256))]
    default: layout.tail = []
    }
  }

  // MARK: - Headers

  private mutating func mutateHeader(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    // Offset and size of each field before the header checksum.
    let fields: [(Int, Int)]
    if bytes.starts(with: StoredBytes.logMagic) {
      fields = [
        (4, 2), (6, 2), (8, 8), (16, 8), (24, 8), (24, 8), (32, 8), (40, 8), (40, 8), (48, 4),
      ]
    } else {
      fields = [(4, 2), (6, 2), (8, 8), (16, 8), (16, 8), (24, 4)]
    }
    let (offset, size) = pick(fields)
    let old = StoredBytes.load(UInt64.self, bytes, at: offset)
    let value = extreme(near: old)
    switch size {
    case 2:
      StoredBytes.store(UInt16(truncatingIfNeeded: value), &bytes, at: offset)
      if below(2) == 0 {
        StoredBytes.store(~UInt16(truncatingIfNeeded: value), &bytes, at: offset == 4 ? 6 : 4)
      }
    case 4: StoredBytes.store(UInt32(truncatingIfNeeded: value), &bytes, at: offset)
    default: StoredBytes.store(value, &bytes, at: offset)
    }
    guard below(4) != 0 else { return bytes }
    if bytes.starts(with: StoredBytes.valueMagic), bytes.count >= StoredBytes.valueHeaderSize {
      // Repair the header checksum only: the mutated length or payload checksum stays.
      StoredBytes.store(StoredBytes.checksum(bytes[0..<28]), &bytes, at: 28)
      return bytes
    }
    return StoredBytes.repairingChecksums(bytes)
  }

  // MARK: - Bytes

  private mutating func mutateBytes(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else {
      bytes = pick([[], [0], Array(StoredBytes.valueMagic), Array(StoredBytes.logMagic)])
      return
    }
    let position = below(bytes.count)
    switch below(9) {
    case 0: bytes[position] ^= UInt8(1) << UInt8(below(8))
    case 1: bytes[position] = pick([0, 1, 0x7F, 0x80, 0xFE, 0xFF])
    case 2: bytes.insert(pick([0, 0xFF, 1]), at: position)
    case 3: bytes.removeSubrange(position..<min(bytes.count, position + 1 + below(16)))
    case 4: bytes.removeSubrange(position...)
    case 5:
      let end = min(bytes.count, position + 1 + below(64))
      bytes.insert(contentsOf: bytes[position..<end], at: below(bytes.count))
    case 6:
      let other = pick(seeds)
      bytes = Array(bytes.prefix(position)) + other.dropFirst(min(other.count, position))
    case 7:
      let end = min(bytes.count, position + 1 + below(32))
      bytes.replaceSubrange(position..<end, with: repeatElement(0, count: end - position))
    default: bytes += (0...below(8)).map { _ in UInt8(below(256)) }
    }
  }
}
