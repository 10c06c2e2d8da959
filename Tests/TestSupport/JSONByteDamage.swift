/// Damages a JSON text a little — one to three bytes removed, changed or inserted, or the text
/// cut short — from an alphabet of JSON's own tokens and a few bytes that are not ASCII, so that
/// some damage still reads (a changed digit, a changed letter) and a quick reader's agreement
/// with `JSONDecoder` is tested on it.
package enum JSONByteDamage {
  /// The bytes a change or an insertion writes.
  package static let alphabet =
    Array(#"{}[]":,-0123456789.eE \abtxyz"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9, 0xFF]

  /// `bytes` with one to three damages chosen with `random`.
  package static func damaged(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let position = Int.random(in: 0...bytes.count, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0 where position < bytes.count: bytes.remove(at: position)
      case 1 where position < bytes.count:
        bytes[position] = alphabet[Int.random(in: alphabet.indices, using: &random)]
      case 2: bytes.removeSubrange(position...)
      default:
        bytes.insert(alphabet[Int.random(in: alphabet.indices, using: &random)], at: position)
      }
    }
    return bytes
  }
}
