import Foundation
import TestSupport
import Testing
import UsageModel

/// Event names with a registration generation.
@Suite("Generations in event names")
struct GenerationNameTests {
  @Test(
    "a generation is written g<N> before the threshold and parses back to the same value",
    arguments: [
      (UInt32(0), "stk:g0:15m:com.a"), (2, "stk:g2:15m:com.a"),
      (UInt32.max, "stk:g4294967295:15m:com.a"),
    ])
  func generationsRoundTrip(generation: UInt32, name: String) throws {
    let value = try ThresholdEventName(
      app: try app("com.a"), threshold: .minutes(15), generation: generation)
    #expect(value.rawValue == name)
    #expect(try ThresholdEventName(parsing: name) == value)
    #expect(try ThresholdEventName(parsing: name).generation == generation)
    #expect(try json(value) == "\"\(name)\"")
  }

  @Test("a name without a generation parses and prints as before, with no generation")
  func namesWithoutGenerationAreUnchanged() throws {
    let value = try ThresholdEventName(parsing: "stk:15m:com.a")
    #expect(value.generation == nil)
    #expect(value.rawValue == "stk:15m:com.a")
    #expect(try value == ThresholdEventName(app: app("com.a"), threshold: .minutes(15)))
    #expect(try value != ThresholdEventName(parsing: "stk:g0:15m:com.a"))
  }

  @Test("an app ID containing ':' survives a name with a generation")
  func appWithColonAndGeneration() throws {
    let name = try ThresholdEventName(parsing: "stk:g3:90s:token:AbC")
    #expect(name.generation == 3)
    #expect(try name.app == app("token:AbC"))
    #expect(name.threshold == .seconds(90))
  }

  @Test(
    "a malformed generation is rejected with a typed error naming the problem",
    arguments: [
      ("stk:g02:15m:com.a", "leading zero"), ("stk:g:15m:com.a", "has no number"),
      ("stk:gx:15m:com.a", "not a decimal number"), ("stk:g-1:15m:com.a", "not a decimal"),
      ("stk:g4294967296:15m:com.a", "above 4294967295"),
      ("stk:g99999999999:15m:com.a", "above 4294967295"),
      ("stk:g2:15m", "followed by"), ("stk:g2:015m:com.a", "is not a threshold"),
      ("stk:g2:g3:15m:com.a", "is not a threshold"),
    ])
  func malformedGenerations(name: String, problem: String) {
    #expect {
      try ThresholdEventName(parsing: name)
    } throws: { error in
      guard case .invalidEventName(let rejected, let reason) = error as? UsageModelError else {
        return false
      }
      return rejected == name && reason.contains(problem)
    }
  }
}
