import Foundation
import UsageModel

/// Parses one line of ActivityWatch's event form, strictly, without building a JSON tree.
///
/// Accepted: one JSON object with exactly the fields `timestamp` (a string, see
/// `parseTimestamp(_:)`), `duration` (a number of seconds, zero or more, held in microseconds
/// as aw-core holds it: see `PythonDuration`) and `data` (an object), and optionally `id` (any
/// value, ignored), in any order, surrounded by whitespace.
struct EventLineParser {
  /// The fields of a parsed line: the timestamp in milliseconds, the duration in microseconds
  /// and the byte range of the `data` object in the line.
  struct Parsed {
    var timestamp: Int64
    var durationMicroseconds: Int64
    var data: Range<Int>
  }

  /// The last date seen and the instant of its midnight (UTC), so that consecutive lines of the
  /// same date do not resolve the calendar again.
  private var cachedDate: (bytes: UInt64, bytesHigh: UInt16, midnight: Int64)?

  mutating func parse(_ line: UnsafeRawBufferPointer) throws(JSONFailure) -> Parsed {
    var scanner = JSONScanner(line)
    scanner.skipWhitespace()
    try scanner.expect(UInt8(ascii: "{"), "'{' starting an event object")
    var timestamp: Int64?
    var duration: Int64?
    var data: Range<Int>?
    var sawID = false
    scanner.skipWhitespace()
    if scanner.peek() != UInt8(ascii: "}") {
      while true {
        scanner.skipWhitespace()
        let key = try Self.key(&scanner)
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: ":"), "':'")
        scanner.skipWhitespace()
        switch key {
        case .timestamp:
          guard timestamp == nil else { throw JSONFailure(reason: "duplicate field \"timestamp\"") }
          guard scanner.peek() == UInt8(ascii: "\"") else {
            throw scanner.failure("\"timestamp\" must be a string")
          }
          let (content, escaped) = try scanner.scanString()
          guard !escaped else {
            throw JSONFailure(reason: "\"timestamp\" must not contain escapes")
          }
          timestamp = try parseTimestamp(UnsafeRawBufferPointer(rebasing: line[content]))
        case .duration:
          guard duration == nil else { throw JSONFailure(reason: "duplicate field \"duration\"") }
          guard let first = scanner.peek(),
            JSONScanner.isDigit(first) || first == UInt8(ascii: "-")
          else { throw scanner.failure("\"duration\" must be a number of seconds") }
          let range = try scanner.scanNumber()
          duration = try PythonDuration.microseconds(UnsafeRawBufferPointer(rebasing: line[range]))
        case .data:
          guard data == nil else { throw JSONFailure(reason: "duplicate field \"data\"") }
          guard scanner.peek() == UInt8(ascii: "{") else {
            throw scanner.failure("\"data\" must be an object")
          }
          data = try scanner.skipValue()
        case .id:
          guard !sawID else { throw JSONFailure(reason: "duplicate field \"id\"") }
          sawID = true
          _ = try scanner.skipValue()
        }
        scanner.skipWhitespace()
        if scanner.peek() == UInt8(ascii: ",") {
          scanner.index += 1
        } else {
          break
        }
      }
    }
    try scanner.expect(UInt8(ascii: "}"), "',' or '}'")
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw scanner.failure("unexpected text after the event object") }
    guard let timestamp else { throw JSONFailure(reason: "missing field \"timestamp\"") }
    guard let duration else { throw JSONFailure(reason: "missing field \"duration\"") }
    guard let data else { throw JSONFailure(reason: "missing field \"data\"") }
    guard duration <= (Milliseconds.latest - timestamp) * 1000 else {
      throw JSONFailure(reason: "the event ends after 9999-12-29")
    }
    return Parsed(timestamp: timestamp, durationMicroseconds: duration, data: data)
  }

  private enum Key {
    case timestamp
    case duration
    case data
    case id
  }

  private static func key(_ scanner: inout JSONScanner) throws(JSONFailure) -> Key {
    let start = scanner.index
    let (content, escaped) = try scanner.scanString()
    if !escaped, let key = known(UnsafeRawBufferPointer(rebasing: scanner.bytes[content])) {
      return key
    }
    scanner.index = start
    let name = try scanner.decodedString()
    if let key = name.withUnsafeBytes(known) { return key }
    scanner.index = start
    throw JSONFailure(
      reason: "unknown field \(String(decoding: name, as: UTF8.self).debugDescription); "
        + "an event has timestamp, duration, data and optionally id")
  }

  private static func known(_ name: UnsafeRawBufferPointer) -> Key? {
    switch name.count {
    case 9 where equal(name, "timestamp"): return .timestamp
    case 8 where equal(name, "duration"): return .duration
    case 4 where equal(name, "data"): return .data
    case 2 where equal(name, "id"): return .id
    default: return nil
    }
  }

  private static func equal(_ bytes: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    guard bytes.count == text.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
    return memcmp(base, text.utf8Start, bytes.count) == 0
  }

  // MARK: - Timestamp

  /// Parses `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM|±HHMM)` to milliseconds since 1970.
  ///
  /// The fraction has 1 to 9 digits and is *truncated* to the millisecond, as ActivityWatch's
  /// `Event` does; the date is resolved with the library's ISO 8601 parser.
  mutating func parseTimestamp(_ text: UnsafeRawBufferPointer) throws(JSONFailure) -> Int64 {
    let shape = "expected yyyy-MM-ddTHH:mm:ss[.fff](Z|±HH:MM)"
    guard text.count >= 19, text[10] == UInt8(ascii: "T") || text[10] == UInt8(ascii: "t")
    else { throw Self.timestampFailure(text, shape) }
    let midnight = try midnight(of: text)
    guard let hour = Self.twoDigits(text, 11), text[13] == UInt8(ascii: ":"),
      let minute = Self.twoDigits(text, 14), text[16] == UInt8(ascii: ":"),
      let second = Self.twoDigits(text, 17)
    else { throw Self.timestampFailure(text, shape) }
    guard hour < 24, minute < 60, second < 60 else {
      throw Self.timestampFailure(text, "no such time of day")
    }
    var position = 19
    var fraction: Int64 = 0
    if position < text.count, text[position] == UInt8(ascii: ".") {
      position += 1
      var digits = 0
      while position < text.count, JSONScanner.isDigit(text[position]) {
        if digits < 3 { fraction = fraction * 10 + Int64(text[position] - 0x30) }
        digits += 1
        position += 1
      }
      guard (1...9).contains(digits) else {
        throw Self.timestampFailure(text, "a fraction needs 1 to 9 digits")
      }
      if digits < 3 {
        for _ in digits..<3 { fraction *= 10 }
      }
    }
    let offsetMinutes: Int64
    guard position < text.count else { throw Self.timestampFailure(text, "missing UTC offset") }
    switch text[position] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      offsetMinutes = 0
      position += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign: Int64 = text[position] == UInt8(ascii: "-") ? -1 : 1
      guard let hours = Self.twoDigits(text, position + 1) else {
        throw Self.timestampFailure(text, "an offset needs ±HH:MM")
      }
      position += 3
      if position < text.count, text[position] == UInt8(ascii: ":") { position += 1 }
      guard let minutes = Self.twoDigits(text, position), hours < 24, minutes < 60 else {
        throw Self.timestampFailure(text, "an offset needs ±HH:MM")
      }
      position += 2
      offsetMinutes = sign * Int64(hours * 60 + minutes)
    default:
      throw Self.timestampFailure(text, "missing UTC offset (Z or ±HH:MM)")
    }
    guard position == text.count else {
      throw Self.timestampFailure(text, "unexpected characters at the end")
    }
    let instant =
      midnight + Int64(hour * 3_600_000 + minute * 60_000 + second * 1000) + fraction
      - offsetMinutes * 60_000
    guard instant >= Milliseconds.earliest, instant <= Milliseconds.latest else {
      throw Self.timestampFailure(text, "outside 0001-01-03...9999-12-29")
    }
    return instant
  }

  private mutating func midnight(of text: UnsafeRawBufferPointer) throws(JSONFailure) -> Int64 {
    let low = text.loadUnaligned(as: UInt64.self)
    let high = text.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    if let cachedDate, cachedDate.bytes == low, cachedDate.bytesHigh == high {
      return cachedDate.midnight
    }
    let date = String(decoding: UnsafeRawBufferPointer(rebasing: text[0..<10]), as: UTF8.self)
    guard date.utf8.count == 10,
      date.utf8.enumerated().allSatisfy({
        $0.offset == 4 || $0.offset == 7 || JSONScanner.isDigit($0.element)
      })
    else { throw Self.timestampFailure(text, "expected yyyy-MM-dd") }
    switch ISO8601Instant.parse(date + "T00:00:00Z") {
    case .success(let midnight):
      cachedDate = (low, high, midnight)
      return midnight
    case .failure(let failure):
      throw Self.timestampFailure(text, failure.reason)
    }
  }

  private static func twoDigits(_ text: UnsafeRawBufferPointer, _ offset: Int) -> Int? {
    guard offset + 1 < text.count, JSONScanner.isDigit(text[offset]),
      JSONScanner.isDigit(text[offset + 1])
    else { return nil }
    return Int(text[offset] - 0x30) * 10 + Int(text[offset + 1] - 0x30)
  }

  private static func timestampFailure(
    _ text: UnsafeRawBufferPointer, _ reason: String
  ) -> JSONFailure {
    let shown = String(decoding: text, as: UTF8.self)
    return JSONFailure(reason: "\"timestamp\" \(shown.debugDescription) is invalid: \(reason)")
  }
}
