/// Turns valid JSON documents into hostile ones, deterministically from a seed.
///
/// Each input starts from one of the seed documents and gets one to three mutations, chosen at
/// random: on the tree (a number swapped for an extreme, a string for an empty, huge or strange
/// one, a member dropped, repeated or added, a value of another type or inside an array, an
/// array emptied or grown) and, for about a third of the inputs, on the bytes afterwards (a bit
/// flipped, a byte inserted or deleted, the text cut short); one input in 32 is nested 64,
/// 600 or 100,000 levels deep.
package struct JSONMutator {
  /// Numbers that break arithmetic: the ends of the integer types, one past them, and floats.
  package static let extremeNumbers = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551615", "18446744073709551616", "-1", "0", "1", "2147483648", "4294967296",
    "1e308", "-1e308", "1e400", "0.5", "-0.0", "1e-7", "315537551999999", "253402127999999",
    "-62135424000000", "86400000", "604800000", "999999999999999999999",
  ]

  /// The extremes that break arithmetic most often, chosen half of the time.
  package static let worstNumbers = [
    "9223372036854775807", "-9223372036854775808", "18446744073709551615", "-1",
  ]

  /// Strings that break parsers and validators.
  package static let hostileStrings = [
    "", " ", "0", "-1", "\u{0}", "../x", "a/b", "\u{FEFF}", "é", "🙂", "\u{202E}x",
    "0000-00-00", "0001-01-01", "9999-12-31", "10000-01-01", "2026-02-30", "2026-13-01",
    "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2026-01-02T24:00:00Z", "+10000-01-01",
    "2026-W53", "9999-W52", "24:00", "23:59:60", "00:00", "Mars/Olympus", "UTC",
    "America/New_York", "GMT+99", "stk:0s:a", "stk:9999999m:a", "stk:15m:", "stk:15m:a b",
    "ffffffffffffffff", "0000000000000000", "FFFFFFFFFFFFFFFF", "social_media", "NaN",
  ]

  /// A string longer than any identifier or name allows (the 1 MB ones are the hostile-value
  /// suites' business: here they would only slow every input down).
  private static let longString = String(repeating: "a", count: 4_096)
  private static let interestingBytes = Array(#"{}[]",:-0123456789e.\ tfn"#.utf8) + [0, 0xFF, 0xC3]

  private let seeds: [JSONTree]
  private let nodeCounts: [Int]
  private var random: SplitMix64

  /// Creates a mutator over `seeds`.
  ///
  /// - Parameters:
  ///   - seeds: Valid JSON documents, as `JSONEncoder` writes them.
  ///   - seed: The seed of the generator; equal seeds give equal inputs.
  /// - Throws: ``JSONTree/ParseError`` when a seed is not JSON.
  package init(seeds: [[UInt8]], seed: UInt64) throws {
    self.seeds = try seeds.map { try JSONTree(parsing: $0) }
    nodeCounts = self.seeds.map(\.nodeCount)
    random = SplitMix64(seed: seed)
  }

  /// The next hostile input.
  ///
  /// - Returns: JSON text, or text that is almost JSON.
  package mutating func next() -> [UInt8] {
    guard !seeds.isEmpty else { return [] }
    let seed = below(seeds.count)
    var tree = seeds[seed]
    for _ in 0...below(3) {
      // A node of the seed's size: after a first mutation the tree may have fewer (the
      // mutation is then lost) or more (the last ones are not chosen); counting again would
      // cost more than it gains.
      let target = below(nodeCounts[seed])
      let choice = below(12)
      var random = self.random
      tree.modifyNode(at: target) { node in Self.mutate(&node, choice: choice, random: &random) }
      self.random = random
    }
    var bytes = tree.bytes
    if below(3) == 0 {
      for _ in 0...below(3) { mutateBytes(&bytes) }
    }
    if below(32) == 0 {
      // Deep nesting, on the bytes: hundreds of levels of a tree would cost more than the
      // decoding they test.
      let depth = [64, 600, 100_000][below(3)]
      bytes =
        Array(repeating: UInt8(ascii: "["), count: depth) + bytes
        + Array(repeating: UInt8(ascii: "]"), count: depth)
    }
    return bytes
  }

  private mutating func below(_ bound: Int) -> Int {
    bound <= 1 ? 0 : Int(random.next() % UInt64(bound))
  }

  private static func below(_ bound: Int, _ random: inout SplitMix64) -> Int {
    bound <= 1 ? 0 : Int(random.next() % UInt64(bound))
  }

  private static func mutate(_ node: inout JSONTree, choice: Int, random: inout SplitMix64) {
    switch (choice, node) {
    case (0...2, .number):
      node = .number(extremeNumber(&random))
    case (0...2, .string):
      node = .string(hostileString(&random))
    case (3, .object(var members)) where !members.isEmpty:
      members.remove(at: below(members.count, &random))
      node = .object(members)
    case (4, .object(var members)) where !members.isEmpty:
      var copy = members[below(members.count, &random)]
      mutate(&copy.value, choice: below(3, &random), random: &random)
      members.insert(copy, at: below(members.count + 1, &random))
      node = .object(members)
    case (5, .object(var members)):
      members.append(JSONTree.Member(key: "unknown", value: .number("1")))
      node = .object(members)
    case (6, .array(var elements)) where !elements.isEmpty:
      let element = elements[below(elements.count, &random)]
      let copies = [1, 2, 10, 300][below(4, &random)]
      elements.insert(
        contentsOf: repeatElement(element, count: copies), at: below(elements.count, &random))
      node = .array(elements)
    case (7, .array(var elements)) where !elements.isEmpty:
      elements.remove(at: below(elements.count, &random))
      node = .array(elements)
    case (8, _):
      node = .array([node])
    case (9, _):
      let replacements: [JSONTree] = [
        .null, .bool(true), .number("0"), .string(""), .array([]), .object([]),
      ]
      node = replacements[below(replacements.count, &random)]
    case (10...11, .string(let text)) where !text.isEmpty:
      // Near misses of a valid string: one character changed, dropped or added.
      var characters = Array(text)
      let position = below(characters.count, &random)
      let replacement = Character(
        Unicode.Scalar(Self.interestingBytes[below(Self.interestingBytes.count, &random)]))
      switch below(3, &random) {
      case 0: characters[position] = replacement
      case 1: characters.remove(at: position)
      default: characters.insert(replacement, at: position)
      }
      node = .string(String(characters))
    default:
      switch node {
      case .number: node = .number(extremeNumber(&random))
      case .string: node = .string(hostileString(&random))
      case .bool(let value): node = .bool(!value)
      case .null: node = .number("-1")
      case .object, .array: break
      }
    }
  }

  private static func extremeNumber(_ random: inout SplitMix64) -> String {
    below(2, &random) == 0
      ? worstNumbers[below(worstNumbers.count, &random)]
      : extremeNumbers[below(extremeNumbers.count, &random)]
  }

  private static func hostileString(_ random: inout SplitMix64) -> String {
    switch below(20, &random) {
    case 0: return longString
    case 1: return String(repeating: "é", count: 300)
    default: return hostileStrings[below(hostileStrings.count, &random)]
    }
  }

  private mutating func mutateBytes(_ bytes: inout [UInt8]) {
    guard !bytes.isEmpty else { return }
    let position = below(bytes.count)
    switch below(4) {
    case 0: bytes[position] ^= UInt8(1) << UInt8(below(8))
    case 1:
      bytes.insert(Self.interestingBytes[below(Self.interestingBytes.count)], at: position)
    case 2: bytes.removeSubrange(position..<min(bytes.count, position + 1 + below(8)))
    default: bytes.removeSubrange(position...)
    }
  }
}
