/// A reader of the simplest JSON — string and integer values, strings in plain ASCII without
/// escapes, and the objects and arrays made of them — for the stored records the package writes
/// by the thousand and reads back at every launch.
///
/// Foundation's `JSONDecoder` builds a keyed container, a dictionary of the object's members,
/// for every object it decodes: for a record of 80 bytes that costs several times the record.
/// A type whose stored records are flat reads them here first and gives anything this reader
/// does not take — an escape, a non-ASCII byte, a fraction, a nested value, a repeated key, an
/// unknown key, bytes that are not JSON — to `JSONDecoder`, which then decides, and explains
/// what is wrong. So the reader never accepts what the decoder would refuse, and for what it
/// accepts it gives the decoder's values.
package enum FlatJSON {
  /// A member's value.
  package enum Value: Sendable, Hashable {
    /// A string of printable ASCII without escapes.
    case string(String)
    /// An integer written `0` or `-?[1-9][0-9]*`, within `Int64`; never `-0`.
    case integer(Int64)
  }

  /// A value with its nested values: what ``node(of:)`` reads.
  package indirect enum Node: Sendable, Hashable {
    /// A string of printable ASCII without escapes.
    case string(String)
    /// An integer, as ``Value/integer(_:)``.
    case integer(Int64)
    /// An array.
    case array([Node])
    /// An object, each member's name once.
    case object([String: Node])
  }

  /// The deepest nesting ``node(of:)`` reads: stored records nest three levels.
  static let deepestNesting = 8

  /// The value in `bytes` — strings, integers, and the arrays and objects made of them, nested
  /// at most ``deepestNesting`` deep, no object naming a member twice — or `nil`.
  ///
  /// - Parameter bytes: The JSON text.
  /// - Returns: The value, or `nil` for anything else.
  /// - Complexity: O(*n*) in the length of `bytes`.
  package static func node(of bytes: some Collection<UInt8>) -> Node? {
    reading(bytes) { $0.whole() }
  }

  /// What `read` returns from a reader of `bytes`, copied first if they are not contiguous.
  private static func reading<Result>(
    _ bytes: some Collection<UInt8>, _ read: (inout Reader) -> Result?
  ) -> Result? {
    let result = bytes.withContiguousStorageIfAvailable { buffer in
      var reader = Reader(bytes: UnsafeRawBufferPointer(buffer))
      return read(&reader)
    }
    if let result { return result }
    return Array(bytes).withUnsafeBytes { buffer in
      var reader = Reader(bytes: buffer)
      return read(&reader)
    }
  }

  /// The values of the object in `bytes`, by the index of their member's name in `keys`; `nil`
  /// for anything but one object of members among `keys`, each once, whose values are
  /// ``Value``s (whitespace around tokens is allowed).
  ///
  /// - Parameters:
  ///   - bytes: The JSON text.
  ///   - keys: The member names accepted, as UTF-8.
  /// - Returns: One slot per key, `nil` for a member not present; or `nil`.
  /// - Complexity: O(*n* + *k*) in the length of `bytes` and the keys' total length.
  package static func members(
    of bytes: some Collection<UInt8>, keys: [[UInt8]]
  ) -> [Value?]? {
    reading(bytes) { $0.object(keys: keys) }
  }

  private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    mutating func object(keys: [[UInt8]]) -> [Value?]? {
      skipWhitespace()
      guard take(UInt8(ascii: "{")) else { return nil }
      var members = [Value?](repeating: nil, count: keys.count)
      skipWhitespace()
      if take(UInt8(ascii: "}")) { return end() ? members : nil }
      repeat {
        skipWhitespace()
        guard let name = plainString(),
          let key = keys.firstIndex(where: { $0.elementsEqual(bytes[name]) }),
          members[key] == nil
        else { return nil }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { return nil }
        skipWhitespace()
        guard let value = value() else { return nil }
        members[key] = value
        skipWhitespace()
      } while take(UInt8(ascii: ","))
      guard take(UInt8(ascii: "}")) else { return nil }
      return end() ? members : nil
    }

    /// One value and nothing after it but whitespace.
    mutating func whole() -> Node? {
      skipWhitespace()
      guard let node = node(depth: 0), end() else { return nil }
      return node
    }

    mutating func node(depth: Int) -> Node? {
      guard index < bytes.count, depth <= FlatJSON.deepestNesting else { return nil }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var members: [String: Node] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
          skipWhitespace()
          guard let name = plainString() else { return nil }
          skipWhitespace()
          guard take(UInt8(ascii: ":")) else { return nil }
          skipWhitespace()
          guard let value = node(depth: depth + 1),
            members.updateValue(value, forKey: String(decoding: bytes[name], as: UTF8.self))
              == nil
          else { return nil }
          skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? .object(members) : nil
      case UInt8(ascii: "["):
        index += 1
        var elements: [Node] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
          skipWhitespace()
          guard let element = node(depth: depth + 1) else { return nil }
          elements.append(element)
          skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? .array(elements) : nil
      default:
        switch value() {
        case .string(let text)?: return .string(text)
        case .integer(let number)?: return .integer(number)
        case nil: return nil
        }
      }
    }

    mutating func end() -> Bool {
      skipWhitespace()
      return index == bytes.count
    }

    mutating func value() -> Value? {
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "\"") {
        return plainString().map { Value.string(String(decoding: bytes[$0], as: UTF8.self)) }
      }
      return integer().map(Value.integer)
    }

    /// The content of a string of bytes 0x20...0x7E other than `"` and `\`.
    mutating func plainString() -> Range<Int>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          return start..<(index - 1)
        }
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        index += 1
      }
      return nil
    }

    mutating func integer() -> Int64? {
      let negative = take(UInt8(ascii: "-"))
      guard index < bytes.count, Self.isDigit(bytes[index]) else { return nil }
      if bytes[index] == UInt8(ascii: "0") {
        index += 1
        // `0` alone: not `-0`, not `01`, not the start of a fraction or an exponent.
        guard !negative, !continuesNumber() else { return nil }
        return 0
      }
      var value: Int64 = 0
      while index < bytes.count, Self.isDigit(bytes[index]) {
        let digit = Int64(bytes[index] &- UInt8(ascii: "0"))
        let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
        let (next, overflowAgain) =
          negative
          ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
        guard !overflow, !overflowAgain else { return nil }
        value = next
        index += 1
      }
      return continuesNumber() ? nil : value
    }

    /// Whether a number goes on past an integer: a fraction, an exponent or another digit.
    func continuesNumber() -> Bool {
      guard index < bytes.count else { return false }
      let byte = bytes[index]
      return Self.isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
        || byte == UInt8(ascii: "E")
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
  }
}
