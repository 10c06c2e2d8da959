/// A cursor over the ASCII bytes of a string, for the strict fixed-width formats of this module.
struct DigitScanner {
  private let bytes: [UInt8]
  private var position = 0

  init(_ text: String) { bytes = Array(text.utf8) }

  var isAtEnd: Bool { position == bytes.count }

  /// Reads exactly `digits` ASCII digits as a number.
  mutating func number(digits: Int) -> Int? {
    guard position + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[position..<position + digits] {
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    position += digits
    return value
  }

  /// Reads every ASCII digit from here on.
  mutating func digitRun() -> [Int] {
    var digits: [Int] = []
    while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
      digits.append(Int(bytes[position] - 0x30))
      position += 1
    }
    return digits
  }

  /// Skips `character` if it is next.
  mutating func skip(_ character: Character) -> Bool {
    guard let ascii = character.asciiValue, position < bytes.count, bytes[position] == ascii
    else { return false }
    position += 1
    return true
  }

  /// Reads `+` as 1 or `-` as -1.
  mutating func sign() -> Int? {
    if skip("+") { return 1 }
    if skip("-") { return -1 }
    return nil
  }
}
