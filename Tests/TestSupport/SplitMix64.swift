/// A small, fast, seedable random number generator, so that randomised tests reproduce.
///
/// SplitMix64 (Steele, Lea and Flood, 2014), as used to seed xoshiro generators.
package struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal sequences.
  package init(seed: UInt64) {
    state = seed
  }

  /// Returns the next 64 random bits.
  ///
  /// - Returns: A random value.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}
