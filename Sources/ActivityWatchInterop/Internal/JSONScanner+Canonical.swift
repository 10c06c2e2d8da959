import Foundation

extension JSONScanner {
  /// Scans one value and appends its canonical form to `output`.
  ///
  /// The canonical form is JSON text in which object keys are sorted by code point, strings are
  /// decoded and re-escaped minimally, `true`/`false` become `1`/`0` and numbers compare as
  /// Python compares them (see `canonicalNumber(_:)`). Of duplicate keys the last counts, as
  /// in Python's `json`.
  mutating func canonicalValue(into output: inout [UInt8], depth: Int = 0) throws(JSONFailure) {
    guard depth < Self.maximumDepth else { throw failure("nesting deeper than 64") }
    switch peek() {
    case UInt8(ascii: "{"):
      index += 1
      var members: [(key: [UInt8], value: [UInt8])] = []
      skipWhitespace()
      if peek() == UInt8(ascii: "}") {
        index += 1
      } else {
        while true {
          skipWhitespace()
          let key = try decodedString()
          skipWhitespace()
          try expect(UInt8(ascii: ":"), "':'")
          skipWhitespace()
          var value: [UInt8] = []
          try canonicalValue(into: &value, depth: depth + 1)
          members.append((key, value))
          skipWhitespace()
          if peek() == UInt8(ascii: ",") {
            index += 1
          } else {
            try expect(UInt8(ascii: "}"), "',' or '}'")
            break
          }
        }
      }
      // Python keeps the last of duplicate keys: sort by key, then by position, keep the last.
      let order = members.indices.sorted { left, right in
        members[left].key == members[right].key
          ? left < right : members[left].key.lexicographicallyPrecedes(members[right].key)
      }
      output.append(UInt8(ascii: "{"))
      var first = true
      for (position, member) in order.enumerated() {
        if position + 1 < order.count, members[order[position + 1]].key == members[member].key {
          continue
        }
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        Self.appendCanonicalString(members[member].key, to: &output)
        output.append(UInt8(ascii: ":"))
        output.append(contentsOf: members[member].value)
      }
      output.append(UInt8(ascii: "}"))
    case UInt8(ascii: "["):
      index += 1
      output.append(UInt8(ascii: "["))
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        index += 1
      } else {
        var first = true
        while true {
          skipWhitespace()
          if !first { output.append(UInt8(ascii: ",")) }
          first = false
          try canonicalValue(into: &output, depth: depth + 1)
          skipWhitespace()
          if peek() == UInt8(ascii: ",") {
            index += 1
          } else {
            try expect(UInt8(ascii: "]"), "',' or ']'")
            break
          }
        }
      }
      output.append(UInt8(ascii: "]"))
    case UInt8(ascii: "\""):
      Self.appendCanonicalString(try decodedString(), to: &output)
    case UInt8(ascii: "t"):
      _ = try skipValue(depth: depth)
      output.append(UInt8(ascii: "1"))
    case UInt8(ascii: "f"):
      _ = try skipValue(depth: depth)
      output.append(UInt8(ascii: "0"))
    case UInt8(ascii: "n"):
      _ = try skipValue(depth: depth)
      output.append(contentsOf: "null".utf8)
    default:
      let range = try scanNumber()
      output.append(
        contentsOf: Self.canonicalNumber(String(decoding: bytes[range], as: UTF8.self)).utf8)
    }
  }

  /// Scans a string and returns its decoded content as WTF-8: UTF-8 in which a lone surrogate
  /// escape (`\ud800`) is kept as its 3-byte form, so that byte order is code-point order.
  mutating func decodedString() throws(JSONFailure) -> [UInt8] {
    let (content, escaped) = try scanString()
    guard escaped else { return Array(bytes[content]) }
    var result: [UInt8] = []
    result.reserveCapacity(content.count)
    var position = content.lowerBound
    while position < content.upperBound {
      let byte = bytes[position]
      guard byte == UInt8(ascii: "\\") else {
        result.append(byte)
        position += 1
        continue
      }
      let kind = bytes[position + 1]
      position += 2
      switch kind {
      case UInt8(ascii: "b"): result.append(0x08)
      case UInt8(ascii: "f"): result.append(0x0C)
      case UInt8(ascii: "n"): result.append(0x0A)
      case UInt8(ascii: "r"): result.append(0x0D)
      case UInt8(ascii: "t"): result.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex4(at: position)
        position += 4
        if (0xD800...0xDBFF).contains(scalar), position + 6 <= content.upperBound,
          bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
        {
          let low = hex4(at: position + 2)
          if (0xDC00...0xDFFF).contains(low) {
            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            position += 6
          }
        }
        Self.appendWTF8(scalar, to: &result)
      default: result.append(kind)
      }
    }
    return result
  }

  private func hex4(at position: Int) -> UInt32 {
    (0..<4).reduce(0) { value, offset in value << 4 | (Self.hexValue(bytes[position + offset]) ?? 0)
    }
  }

  static func appendWTF8(_ scalar: UInt32, to output: inout [UInt8]) {
    switch scalar {
    case ..<0x80:
      output.append(UInt8(scalar))
    case ..<0x800:
      output.append(UInt8(0xC0 | scalar >> 6))
      output.append(UInt8(0x80 | scalar & 0x3F))
    case ..<0x10000:
      output.append(UInt8(0xE0 | scalar >> 12))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    default:
      output.append(UInt8(0xF0 | scalar >> 18))
      output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// Appends `"content"` escaping only `"`, `\` and control characters.
  static func appendCanonicalString(_ content: [UInt8], to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    for byte in content {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        output.append(UInt8(ascii: "\\"))
        output.append(byte)
      case ..<0x20:
        output.append(contentsOf: "\\u00".utf8)
        output.append(Array("0123456789abcdef".utf8)[Int(byte >> 4)])
        output.append(Array("0123456789abcdef".utf8)[Int(byte & 0xF)])
      default:
        output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// The canonical text of a JSON number, equal for two numbers exactly when Python's `==` is
  /// true of their decoded values: an integer literal is an exact integer; any other literal is
  /// a `Double` (correctly rounded, as Python's `float`), written as an exact integer when it is
  /// integral, as `inf` when it overflowed, and otherwise in its shortest round-trip form.
  static func canonicalNumber(_ text: String) -> String {
    let isInteger = !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    if isInteger {
      let negative = text.hasPrefix("-")
      let digits = negative ? String(text.dropFirst()) : text
      return digits == "0" ? "0" : (negative ? "-" : "") + digits
    }
    guard let value = Double(text) else { return text }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded(.towardZero) {
      if abs(value) < 9.0e18 { return String(Int64(value)) }
      return String(format: "%.0f", value)
    }
    return value.description
  }
}
