import Foundation

/// Why a JSON text was rejected, with the byte offset where the problem was found.
struct JSONFailure: Error {
  var reason: String
}

/// A strict RFC 8259 scanner over UTF-8 bytes: validates values without building them, and
/// produces a canonical form in which two values are equal exactly when Python's `==` finds the
/// decoded JSON equal (see ``ActivityWatchData``).
struct JSONScanner {
  let bytes: UnsafeRawBufferPointer
  var index: Int
  /// The deepest nesting accepted.
  static let maximumDepth = 64

  init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0) {
    self.bytes = bytes
    self.index = index
  }

  var isAtEnd: Bool { index >= bytes.count }

  @inline(__always)
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func expect(_ byte: UInt8, _ what: String) throws(JSONFailure) {
    guard peek() == byte else { throw failure("expected \(what)") }
    index += 1
  }

  func failure(_ reason: String) -> JSONFailure {
    if let byte = peek() {
      let shown =
        (0x21...0x7E).contains(byte)
        ? "'\(Character(Unicode.Scalar(byte)))'"
        : "byte 0x"
          + String(byte, radix: 16)
      return JSONFailure(reason: "\(reason) at column \(index + 1), found \(shown)")
    }
    return JSONFailure(reason: "\(reason) at column \(index + 1), found the end of the line")
  }

  // MARK: - Validation

  /// Skips one value, validating it; returns its byte range.
  mutating func skipValue(depth: Int = 0) throws(JSONFailure) -> Range<Int> {
    guard depth < Self.maximumDepth else { throw failure("nesting deeper than 64") }
    let start = index
    switch peek() {
    case UInt8(ascii: "{"):
      index += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "}") {
        index += 1
        return start..<index
      }
      while true {
        skipWhitespace()
        _ = try scanString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':'")
        skipWhitespace()
        _ = try skipValue(depth: depth + 1)
        skipWhitespace()
        if peek() == UInt8(ascii: ",") {
          index += 1
        } else {
          try expect(UInt8(ascii: "}"), "',' or '}'")
          return start..<index
        }
      }
    case UInt8(ascii: "["):
      index += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return start..<index
      }
      while true {
        skipWhitespace()
        _ = try skipValue(depth: depth + 1)
        skipWhitespace()
        if peek() == UInt8(ascii: ",") {
          index += 1
        } else {
          try expect(UInt8(ascii: "]"), "',' or ']'")
          return start..<index
        }
      }
    case UInt8(ascii: "\""):
      _ = try scanString()
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    default:
      _ = try scanNumber()
    }
    return start..<index
  }

  private mutating func literal(_ word: StaticString) throws(JSONFailure) {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw failure("expected \(word)") }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
      throw failure("expected \(word)")
    }
    index += count
  }

  /// Scans a string, validating its escapes, control characters and UTF-8.
  ///
  /// Returns the range of its content (between the quotes) and whether it contains escapes.
  mutating func scanString() throws(JSONFailure) -> (content: Range<Int>, escaped: Bool) {
    try expect(UInt8(ascii: "\""), "'\"'")
    let start = index
    var escaped = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        defer { index += 1 }
        return (start..<index, escaped)
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
        index += 1
        switch peek() {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 1
        case UInt8(ascii: "u"):
          index += 1
          for _ in 0..<4 {
            guard let digit = peek(), Self.hexValue(digit) != nil else {
              throw failure("expected 4 hex digits after \\u")
            }
            index += 1
          }
        default:
          throw failure("invalid escape")
        }
      } else if byte < 0x20 {
        throw failure("control character in a string")
      } else if byte < 0x80 {
        index += 1
      } else {
        try skipUTF8Scalar()
      }
    }
    throw failure("unterminated string")
  }

  private mutating func skipUTF8Scalar() throws(JSONFailure) {
    let lead = bytes[index]
    let length: Int
    let minimum: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum) = (2, 0x80)
    case 0xE0...0xEF: (length, minimum) = (3, 0x800)
    case 0xF0...0xF4: (length, minimum) = (4, 0x10000)
    default: throw failure("invalid UTF-8")
    }
    guard index + length <= bytes.count else { throw failure("truncated UTF-8") }
    var scalar = UInt32(lead) & (0xFF >> (length + 1))
    for offset in 1..<length {
      let next = bytes[index + offset]
      guard next & 0xC0 == 0x80 else { throw failure("invalid UTF-8") }
      scalar = scalar << 6 | UInt32(next & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      throw failure("invalid UTF-8")
    }
    index += length
  }

  /// Scans a number by JSON's grammar; returns its range.
  mutating func scanNumber() throws(JSONFailure) -> Range<Int> {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek(), Self.isDigit(first) else { throw failure("expected a value") }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard let digit = peek(), Self.isDigit(digit) else {
        throw failure("expected a digit after '.'")
      }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard let digit = peek(), Self.isDigit(digit) else {
        throw failure("expected a digit in the exponent")
      }
      skipDigits()
    }
    return start..<index
  }

  private mutating func skipDigits() {
    while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
  }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case 0x30...0x39: return UInt32(byte - 0x30)
    case 0x41...0x46: return UInt32(byte - 0x41 + 10)
    case 0x61...0x66: return UInt32(byte - 0x61 + 10)
    default: return nil
    }
  }
}
