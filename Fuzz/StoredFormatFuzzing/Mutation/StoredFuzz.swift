import Foundation
import TestSupport

/// A seeded mutation loop over a stored format: hostile files planted in a store's directory
/// and driven through the API, as the libFuzzer targets under `Fuzz/` do.
///
/// Each input is a seed file of the format or a mutation of one (see ``StoredFormatMutator``),
/// run by ``StoredFormatHarness``: every operation returns or throws one of the library's errors,
/// reads change no file, a failed change changes none, and what a write stores reads back. A
/// trap stops the test process; set `STK_FUZZ_TRACE` to a file path to have each file written
/// there before it is planted, so that the one that trapped can be replayed.
///
/// ```swift
/// let tally = try StoredFuzz.run(.heartbeats, inputs: 1_000, seed: 1)
/// ```
package enum StoredFuzz {
  /// Inputs per format planted as files in `swift test`; 10 formats.
  package static let filesPerFormat = 800
  /// Inputs per format read from memory in `swift test`; 10 formats.
  package static let readsPerFormat = 10_000

  /// Runs the seeds of `format` and then mutations of them, `inputs` files in all.
  ///
  /// - Parameters:
  ///   - format: The format.
  ///   - inputs: How many files to plant.
  ///   - seed: The generator's seed.
  /// - Returns: The tally; `decoded` counts the files the format's main read accepted.
  /// - Throws: ``StoredFormatViolation`` for the first file that breaks a property.
  package static func run(_ format: StoredFormat, inputs: Int, seed: UInt64) throws -> Fuzz.Tally {
    try loop(format, inputs: inputs, seed: seed, "files") {
      (harness, file) throws(StoredFormatViolation) in
      try harness.run(file)
    }
  }

  /// Reads the seeds of `format` and then mutations of them from memory, `inputs` in all (see
  /// ``StoredFormatHarness/read(_:)``).
  ///
  /// - Parameters:
  ///   - format: The format.
  ///   - inputs: How many inputs to read.
  ///   - seed: The generator's seed.
  /// - Returns: The tally; `decoded` counts the inputs the format's main read accepted.
  /// - Throws: ``StoredFormatViolation`` for the first input that breaks a property.
  package static func read(_ format: StoredFormat, inputs: Int, seed: UInt64) throws -> Fuzz.Tally {
    try loop(format, inputs: inputs, seed: seed, "reads") {
      (harness, file) throws(StoredFormatViolation) in
      try harness.read(file)
    }
  }

  private static func loop(
    _ format: StoredFormat, inputs: Int, seed: UInt64, _ kind: String,
    _ body: (StoredFormatHarness, [UInt8]) throws(StoredFormatViolation) -> Bool
  ) throws -> Fuzz.Tally {
    let started = ContinuousClock.now
    let harness = try StoredFormatHarness(format)
    var mutator = try StoredFormatMutator(format: format, seeds: harness.seeds, seed: seed)
    var tally = Fuzz.Tally()
    var seeds = harness.seeds.makeIterator()
    while tally.inputs < inputs {
      let file = seeds.next() ?? mutator.next()
      trace(file)
      tally.inputs += 1
      if try body(harness, file) { tally.decoded += 1 }
    }
    print("STOREDFUZZ \(format) \(kind) \(ContinuousClock.now - started) \(tally)")
    return tally
  }

  private static let tracePath = ProcessInfo.processInfo.environment["STK_FUZZ_TRACE"]

  private static func trace(_ bytes: [UInt8]) {
    guard let tracePath else { return }
    _ = FileManager.default.createFile(atPath: tracePath, contents: Data(bytes))
  }
}
