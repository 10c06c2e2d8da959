import TestSupport

/// The seeded generator of the property tests.
typealias SeededGenerator = SplitMix64
