/// A JSON document as a tree that keeps the order of members and repeated keys, so that a fuzzer
/// can rewrite it and write it back as text a decoder sees exactly as built.
package indirect enum JSONTree: Sendable {
  /// An object's members, in order, repeated keys included.
  case object([Member])
  /// An array's elements.
  case array([JSONTree])
  /// A string, unescaped.
  case string(String)
  /// A number, as its text (so that `9223372036854775808` or `1e400` survive).
  case number(String)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// One member of an object.
  package struct Member: Sendable {
    /// The key.
    package var key: String
    /// The value.
    package var value: JSONTree

    /// Creates a member.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    package init(key: String, value: JSONTree) {
      self.key = key
      self.value = value
    }
  }

  /// Why a text could not be parsed.
  package struct ParseError: Error, CustomStringConvertible {
    /// Where, in bytes.
    package var offset: Int
    /// What was expected.
    package var description: String
  }

  /// Parses JSON text (as `JSONEncoder` writes it; no comments, no trailing commas).
  ///
  /// - Parameter bytes: The text.
  /// - Throws: ``ParseError`` when it is not JSON.
  package init(parsing bytes: [UInt8]) throws {
    var parser = Parser(bytes: bytes)
    self = try parser.value()
    parser.skipWhitespace()
    guard parser.position == bytes.count else { throw parser.error("end of text") }
  }

  /// The JSON text of the tree, without whitespace.
  package var bytes: [UInt8] {
    var output: [UInt8] = []
    write(to: &output)
    return output
  }

  /// How many nodes the tree has, itself included.
  package var nodeCount: Int {
    switch self {
    case .object(let members): return 1 + members.reduce(0) { $0 + $1.value.nodeCount }
    case .array(let elements): return 1 + elements.reduce(0) { $0 + $1.nodeCount }
    case .string, .number, .bool, .null: return 1
    }
  }

  /// Applies `change` to the node at `index` in pre-order (0 is the tree itself).
  ///
  /// - Parameters:
  ///   - index: The node's position in pre-order; nothing happens past the last node.
  ///   - change: The change.
  package mutating func modifyNode(at index: Int, _ change: (inout JSONTree) -> Void) {
    var remaining = index
    modify(&remaining, change)
  }

  private mutating func modify(_ remaining: inout Int, _ change: (inout JSONTree) -> Void) {
    if remaining == 0 {
      change(&self)
      remaining = -1
      return
    }
    remaining -= 1
    switch self {
    case .object(var members):
      for index in members.indices where remaining >= 0 {
        members[index].value.modify(&remaining, change)
      }
      self = .object(members)
    case .array(var elements):
      for index in elements.indices where remaining >= 0 {
        elements[index].modify(&remaining, change)
      }
      self = .array(elements)
    case .string, .number, .bool, .null:
      break
    }
  }

  private func write(to output: inout [UInt8]) {
    switch self {
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        Self.writeString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        member.value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .string(let text):
      Self.writeString(text, to: &output)
    case .number(let text):
      output.append(contentsOf: text.utf8)
    case .bool(let value):
      output.append(contentsOf: (value ? "true" : "false").utf8)
    case .null:
      output.append(contentsOf: "null".utf8)
    }
  }

  private static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
      // Most strings need no escape: copy them whole (per-byte appends are slow in debug).
      for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
      output.append(contentsOf: bytes)
      return true
    }
    if plain == true {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        output.append(contentsOf: #"\u00"#.utf8)
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0xF)])
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  // MARK: - Parsing

  private struct Parser {
    let bytes: [UInt8]
    var position = 0

    func error(_ expected: String) -> ParseError {
      ParseError(offset: position, description: "expected \(expected) at byte \(position)")
    }

    mutating func skipWhitespace() {
      while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
        position += 1
      }
    }

    mutating func value() throws -> JSONTree {
      skipWhitespace()
      guard position < bytes.count else { throw error("a value") }
      switch bytes[position] {
      case UInt8(ascii: "{"): return try object()
      case UInt8(ascii: "["): return try array()
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      default: return try number()
      }
    }

    mutating func literal(_ text: String, _ value: JSONTree) throws -> JSONTree {
      let expected = Array(text.utf8)
      guard bytes[position...].starts(with: expected) else { throw error(text) }
      position += expected.count
      return value
    }

    mutating func number() throws -> JSONTree {
      let start = position
      while position < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[position]) {
        position += 1
      }
      guard position > start else { throw error("a number") }
      return .number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    mutating func string() throws -> String {
      position += 1
      var scalars: [UInt8] = []
      while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
        if bytes[position] == UInt8(ascii: "\\") {
          position += 1
          guard position < bytes.count else { throw error("an escape") }
          switch bytes[position] {
          case UInt8(ascii: "n"): scalars.append(0x0A)
          case UInt8(ascii: "t"): scalars.append(0x09)
          case UInt8(ascii: "r"): scalars.append(0x0D)
          case UInt8(ascii: "b"): scalars.append(0x08)
          case UInt8(ascii: "f"): scalars.append(0x0C)
          case UInt8(ascii: "u"):
            guard position + 4 < bytes.count,
              let code = UInt32(
                String(decoding: bytes[(position + 1)...(position + 4)], as: UTF8.self), radix: 16),
              let scalar = Unicode.Scalar(code)
            else { throw error("four hexadecimal digits") }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            position += 4
          default: scalars.append(bytes[position])
          }
        } else {
          scalars.append(bytes[position])
        }
        position += 1
      }
      guard position < bytes.count else { throw error("a closing quote") }
      position += 1
      return String(decoding: scalars, as: UTF8.self)
    }

    mutating func array() throws -> JSONTree {
      position += 1
      var elements: [JSONTree] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array([])
      }
      while true {
        elements.append(try value())
        skipWhitespace()
        guard position < bytes.count else { throw error("] or ,") }
        if bytes[position] == UInt8(ascii: "]") {
          position += 1
          return .array(elements)
        }
        guard bytes[position] == UInt8(ascii: ",") else { throw error(",") }
        position += 1
      }
    }

    mutating func object() throws -> JSONTree {
      position += 1
      var members: [Member] = []
      skipWhitespace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object([])
      }
      while true {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw error("a key")
        }
        let key = try string()
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error(":")
        }
        position += 1
        members.append(Member(key: key, value: try value()))
        skipWhitespace()
        guard position < bytes.count else { throw error("} or ,") }
        if bytes[position] == UInt8(ascii: "}") {
          position += 1
          return .object(members)
        }
        guard bytes[position] == UInt8(ascii: ",") else { throw error(",") }
        position += 1
      }
    }
  }
}
