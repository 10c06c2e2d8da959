import Foundation

/// A value that writes its own JSON: the bytes a `JSONEncoder` with sorted keys and without
/// escaping slashes writes for it, without the encoder's cost.
///
/// The facts' outbox writes its payload on every DeviceActivity callback, and
/// Foundation's `JSONEncoder` builds a tree of boxed values for it first: a fifth of a durable
/// append's time for a ``MonitorFact``. A payload on that path writes its fields itself; its
/// bytes are the encoder's, so what is stored, and every checksum of it, does not depend on
/// which of the two wrote it.
package protocol CanonicalJSONEncodable: Encodable, Sendable {
  /// Appends the value's JSON, as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]`
  /// writes it, to `output`.
  ///
  /// - Parameter output: The bytes to append to; unchanged when this throws.
  /// - Throws: `EncodingError`, as `encode(to:)` does for the same value.
  func appendCanonicalJSON(to output: inout [UInt8]) throws
}

extension CanonicalJSONEncodable {
  /// Appends the JSON of `value`, a value of this type that a generic caller holds as `Value`,
  /// as ``appendCanonicalJSON(to:)`` does.
  ///
  /// A caller that found this type once (`Value.self as? any CanonicalJSONEncodable.Type`)
  /// calls it on that type: the cast of a value to its own type is a comparison of types, where
  /// a cast to `any CanonicalJSONEncodable` asks the runtime for the conformance every time.
  ///
  /// - Parameters:
  ///   - value: A value of this type.
  ///   - output: The bytes to append to; unchanged when this throws.
  /// - Throws: `EncodingError`, as `encode(to:)` does for the same value.
  package static func appendCanonicalJSON<Value>(of value: Value, to output: inout [UInt8])
    throws
  {
    guard let value = value as? Self else {
      preconditionFailure("\(Value.self) is not \(Self.self)")
    }
    try value.appendCanonicalJSON(to: &output)
  }
}

/// The pieces of canonical JSON: strings escaped as `JSONEncoder` escapes them.
package enum CanonicalJSON {
  /// Appends `text` as a JSON string: quoted, with `"` and `\` escaped, the control characters
  /// `\b`, `\t`, `\n`, `\f` and `\r` in their short forms and the others as `\u00xx` (lowercase
  /// hex), and everything else, `/` included, as its UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - text: The string.
  ///   - output: The bytes to append to.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  package static func appendString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    // Most strings — an activity's name, an event's, a zone's — need no escape: their bytes
    // are copied whole.
    let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
      guard !bytes.contains(where: needsEscape) else { return false }
      output.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      output.append(UInt8(ascii: "\""))
      return
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        output.append(UInt8(ascii: "\\"))
        output.append(byte)
      case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x00..<0x20:
        output.append(contentsOf: #"\u00"#.utf8)
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
      default:
        output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// Appends `"key":` for a key that needs no escaping.
  ///
  /// - Parameters:
  ///   - key: The key, plain ASCII letters.
  ///   - output: The bytes to append to.
  package static func appendKey(_ key: StaticString, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    key.withUTF8Buffer { output.append(contentsOf: $0) }
    output.append(contentsOf: #"":"#.utf8)
  }

  /// Whether a JSON string writes `byte` escaped: `"`, `\` and the control characters.
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
