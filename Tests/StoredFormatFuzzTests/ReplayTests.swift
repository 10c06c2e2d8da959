import Foundation
import StoredFormatFuzzing
import Testing

/// A file of `Replays/`: an input that once broke a property of a stored format.
struct ReplayInput: Sendable, CustomTestStringConvertible {
  /// The format, named by the input's directory.
  var format: StoredFormat
  /// The file's name.
  var name: String
  /// The libFuzzer input.
  var bytes: [UInt8]

  var testDescription: String { "\(format)/\(name)" }

  /// The replay directory, copied into the test bundle.
  static var directory: URL? {
    Bundle.module.url(forResource: "Replays", withExtension: nil)
  }

  /// Every input of every format's directory.
  static var all: [ReplayInput] {
    guard let directory else { return [] }
    var inputs: [ReplayInput] = []
    for format in StoredFormat.allCases {
      let folder = directory.appendingPathComponent(format.rawValue, isDirectory: true)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      for name in names.sorted() {
        guard
          let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
        else { continue }
        inputs.append(ReplayInput(format: format, name: name, bytes: Array(data)))
      }
    }
    return inputs
  }
}

/// Every input that ever failed, run again as libFuzzer runs it.
@Suite("Replayed fuzzer inputs")
struct ReplayTests {
  @Test(
    "an input that once broke a stored format keeps every property now", arguments: ReplayInput.all)
  func replayKeepsEveryProperty(_ input: ReplayInput) throws {
    let harness = try StoredFormatHarness(input.format)
    _ = try harness.runFuzzerInput(input.bytes)
  }

  @Test("the replay directory holds inputs, each in the directory of a format")
  func replayDirectoryNamesFormats() throws {
    let directory = try #require(ReplayInput.directory)
    let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    for entry in entries where entry != "README.md" {
      #expect(StoredFormat(rawValue: entry) != nil, "\(entry) is not the name of a stored format")
    }
    #expect(!ReplayInput.all.isEmpty)
  }
}
