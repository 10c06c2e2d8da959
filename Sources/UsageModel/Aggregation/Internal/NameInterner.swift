#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Numbers app identifiers and categories from their UTF-8 bytes, without retaining, copying or
/// hashing whole strings through `Hasher`.
///
/// The aggregation looks up every record's app. When the app changes at every record, a
/// dictionary keyed by `AppID` hashed each identifier with SipHash, compared it as a `String` and
/// retained and released it several times: as much work as the rest of the sweep. This
/// open-addressing table hashes the identifier's bytes (length, first and last eight bytes),
/// keeps every known identifier's bytes in one flat buffer, and on a hash match compares the
/// bytes with `memcmp` — exact, however the hashes collide.
struct NameInterner<Name: RawRepresentable> where Name.RawValue == String {
  /// Slot contents: an app number, or -1.
  private var slots: [Int32]
  private var slotHashes: [UInt64]
  private var mask: Int
  /// Every known name's UTF-8 bytes, back to back; `ends[n]` is where name `n`'s end.
  private var bytes: [UInt8] = []
  private var ends: [Int] = []
  /// The names, by number.
  private(set) var names: [Name] = []

  init() {
    slots = Array(repeating: -1, count: 64)
    slotHashes = Array(repeating: 0, count: 64)
    mask = 63
  }

  /// The number of `name`, assigning the next one when it is new.
  mutating func number(of name: Name) -> Int32 {
    if let number = name.rawValue.utf8.withContiguousStorageIfAvailable({ utf8 in
      number(utf8: utf8, name: name)
    }) {
      return number
    }
    // Not stored as contiguous UTF-8 (a bridged string): copy it once.
    let utf8 = Array(name.rawValue.utf8)
    return utf8.withUnsafeBufferPointer { number(utf8: $0, name: name) }
  }

  private mutating func number(utf8: UnsafeBufferPointer<UInt8>, name: Name) -> Int32 {
    let hash = Self.hash(utf8)
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let index = slots[slot]
      if index < 0 { break }
      if slotHashes[slot] == hash, equals(Int(index), utf8) { return index }
      slot = (slot + 1) & mask
    }
    let number = Int32(names.count)
    names.append(name)
    bytes.append(contentsOf: utf8)
    ends.append(bytes.count)
    slots[slot] = number
    slotHashes[slot] = hash
    if names.count * 2 > slots.count { grow() }
    return number
  }

  /// Whether name `number`'s bytes are `utf8`.
  private func equals(_ number: Int, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = number == 0 ? 0 : ends[number - 1]
    guard ends[number] - start == utf8.count else { return false }
    guard let other = utf8.baseAddress else { return true }
    return bytes.withUnsafeBufferPointer { stored in
      guard let base = stored.baseAddress else { return utf8.isEmpty }
      return memcmp(base + start, other, utf8.count) == 0
    }
  }

  private mutating func grow() {
    let capacity = slots.count * 2
    slots = Array(repeating: -1, count: capacity)
    slotHashes = Array(repeating: 0, count: capacity)
    mask = capacity - 1
    bytes.withUnsafeBufferPointer { stored in
      for number in names.indices {
        let start = number == 0 ? 0 : ends[number - 1]
        let hash = Self.hash(UnsafeBufferPointer(rebasing: stored[start..<ends[number]]))
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(number)
        slotHashes[slot] = hash
      }
    }
  }

  /// A hash of the length and the first and last eight bytes, mixed.
  static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var head: UInt64 = 0
    var tail: UInt64 = 0
    let count = utf8.count
    if count >= 8, let base = utf8.baseAddress {
      head = UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)
      tail = UnsafeRawPointer(base + (count - 8)).loadUnaligned(as: UInt64.self)
    } else {
      for byte in utf8 { head = head << 8 | UInt64(byte) }
    }
    var mixed = head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count)
    mixed ^= mixed >> 29
    mixed = mixed &* 0xBF58_476D_1CE4_E5B9
    return mixed ^ (mixed >> 32)
  }
}
