import Foundation

/// The body of the libFuzzer targets under `Fuzz/Targets/`: one harness per format, kept for
/// the whole run, and a crash for every violated property, so that libFuzzer saves the input.
///
/// With `STK_FUZZ_SEEDS` set to a directory, the first input also writes the format's seed files
/// there, as libFuzzer inputs. `Scripts/fuzz.sh` compiles a target's `main.swift` with `swiftc` against this module, outside
/// the package, which is why this type is public and names its format by its raw value:
///
/// ```swift
/// @_cdecl("LLVMFuzzerTestOneInput")
/// public func fuzzStoredFormat(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
///   StoredFormatFuzzTarget.run("heartbeats", data, size)
/// }
/// ```
public enum StoredFormatFuzzTarget {
  /// The harness of the format being fuzzed.
  ///
  /// libFuzzer calls its target on one thread, one
  /// input after another, so nothing else touches it.
  nonisolated(unsafe) private static var harness: StoredFormatHarness?

  /// Runs one libFuzzer input through the harness of the format named `format`.
  ///
  /// - Parameters:
  ///   - format: The raw value of the ``StoredFormat`` this target fuzzes.
  ///   - data: The input's bytes (`nil` when it is empty).
  ///   - size: The input's length.
  /// - Returns: 0, as libFuzzer requires; a violated property, an unknown format or a harness
  ///   that cannot be set up stops the process with its description instead.
  public static func run(_ format: String, _ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
      let harness = try self.harness ?? makeHarness(format)
      self.harness = harness
      _ = try harness.runFuzzerInput(input)
    } catch {
      fatalError("\(error)")
    }
    return 0
  }

  private static func makeHarness(_ name: String) throws -> StoredFormatHarness {
    guard let format = StoredFormat(rawValue: name) else {
      fatalError("no stored format is named \(name)")
    }
    let harness = try StoredFormatHarness(format)
    if let directory = ProcessInfo.processInfo.environment["STK_FUZZ_SEEDS"] {
      try writeSeeds(of: harness, to: URL(fileURLWithPath: directory, isDirectory: true))
    }
    return harness
  }

  /// Writes the format's valid files into a libFuzzer corpus, each as an input that plants it
  /// as it is (first byte 0; see `StoredBytes.file(fromFuzzerInput:)`).
  private static func writeSeeds(of harness: StoredFormatHarness, to directory: URL) throws {
    for (index, seed) in harness.seeds.enumerated() {
      try Data([0] + seed).write(to: directory.appendingPathComponent("seed-\(index)"))
    }
  }
}
