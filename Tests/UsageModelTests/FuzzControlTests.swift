import Foundation
import TestSupport
import Testing

/// A count decoded without checks and then incremented: the bug class the loop must find.
struct NaiveCounter: Codable, Equatable, Sendable {
  var count: Int64
}

/// A value whose decoding rounds what it reads, so that it is not its own round trip.
struct RoundingValue: Codable, Equatable, Sendable {
  var tenths: Int

  init(tenths: Int) { self.tenths = tenths }

  init(from decoder: any Decoder) throws {
    tenths = try decoder.singleValueContainer().decode(Int.self) / 10 * 10 + 1
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(tenths)
  }
}

/// Controls for the fuzz loop: it must be able to fail, both by a trap and by a broken round trip.
@Suite("The fuzz loop catches what it looks for")
struct FuzzControlTests {
  @Test("a decoded count incremented without a check traps within a thousand inputs")
  func findsATrap() async throws {
    #if compiler(>=6.2)
    await #expect(processExitsWith: .failure) {
      _ = try Fuzz.run(NaiveCounter.self, seeds: [NaiveCounter(count: 5)], inputs: 1_000, seed: 1) {
        _ = $0.count + 1
      }
    }
    #else
    // Swift 6.0 and 6.1 have no exit tests, and a trap here would stop the run: the same loop
    // must meet a decoded count whose increment overflows, which is what traps above.
    var overflows = 0
    _ = try Fuzz.run(NaiveCounter.self, seeds: [NaiveCounter(count: 5)], inputs: 1_000, seed: 1) {
      if $0.count.addingReportingOverflow(1).overflow { overflows += 1 }
    }
    #expect(overflows > 0)
    #endif
  }

  @Test("a value that is not its own round trip is reported with the input that shows it")
  func findsABrokenRoundTrip() throws {
    #expect(throws: Fuzz.Failure.self) {
      _ = try Fuzz.run(RoundingValue.self, seeds: [RoundingValue(tenths: 20)], inputs: 100, seed: 1)
    }
  }
}
