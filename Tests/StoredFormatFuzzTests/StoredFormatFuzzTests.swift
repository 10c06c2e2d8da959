import Foundation
import StoredFormatFuzzing
import TestSupport
import Testing

/// Hostile files of every stored format: every operation gives a result or one of the library's
/// errors, reads leave the files as they were, a failed change changes none, and nothing traps
/// or hangs.
@Suite("Hostile stored files never trap")
struct StoredFormatFuzzTests {
  /// What a case may take before it counts as hung: a guard against a hang, not a speed target.
  ///
  /// A case takes 1 to 31 seconds alone in a debug build; in a full parallel `swift test` on 2
  /// cores, beside the kill tests and their child processes, a case of 2.3 seconds alone once
  /// took more than a minute.
  static let hangLimit = TimeLimitTrait.Duration.minutes(5)

  /// Files planted in a store's folder and driven through the public API that reads and writes
  /// them, with what each operation did to the files checked.
  @Test(
    "a hostile file of a stored format gives a result or a typed error, and reads change no file",
    .timeLimit(Self.hangLimit), arguments: StoredFormat.allCases)
  func plantedFilesKeepEveryProperty(_ format: StoredFormat) throws {
    let tally = try StoredFuzz.run(format, inputs: StoredFuzz.filesPerFormat, seed: 0x5EED_0100)
    #expect(tally.inputs == StoredFuzz.filesPerFormat)
    #expect(tally.decoded > 0, "no input reached past the checksums")
  }

  /// Many more files, read from memory through the same decoders.
  @Test(
    "a hostile file of a stored format read from memory gives a result or a typed error",
    .timeLimit(Self.hangLimit), arguments: StoredFormat.allCases)
  func readFilesGiveResultsOrTypedErrors(_ format: StoredFormat) throws {
    let tally = try StoredFuzz.read(format, inputs: StoredFuzz.readsPerFormat, seed: 0x5EED_0200)
    #expect(tally.inputs == StoredFuzz.readsPerFormat)
    #expect(tally.decoded > 0, "no input reached past the checksums")
  }
}
