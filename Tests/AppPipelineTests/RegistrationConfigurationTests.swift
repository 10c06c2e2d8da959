import AppPipeline
import Foundation
import SharedStore
import TestSupport
import Testing
import TrackerSignals
import UsageModel

/// `PipelineConfiguration.registrations`: its JSON form and its validation.
@Suite("Registrations in the configuration")
struct RegistrationConfigurationTests {
  func configured(_ generations: [(UInt32, String)]) throws -> PipelineConfiguration {
    var configuration = PipelineConfiguration(userId: "u", timeZone: .gmt)
    configuration.registrations = try generations.map { generation, at in
      try MonitoringRegistration(
        activity: "daily", generation: generation, registeredAt: try instant(at),
        includesPastActivity: true, counting: .fromOccurrenceStart)
    }
    return configuration
  }

  @Test("registrations round-trip under the key 'registrations'; a missing key decodes as none")
  func registrationsRoundTrip() throws {
    let configuration = try configured([
      (0, "2026-04-15T00:00:00Z"), (1, "2026-04-15T12:00:00Z"),
    ])
    let text = try json(configuration)
    #expect(text.contains(#""registrations":[{"activity":"daily""#))
    #expect(try decode(PipelineConfiguration.self, text) == configuration)
    let none = try configured([])
    #expect(!(try json(none)).contains("registrations"))
    #expect(try decode(PipelineConfiguration.self, try json(none)).registrations.isEmpty)
  }

  @Test(
    "conflicting registrations are rejected when decoded and when the pipeline opens",
    arguments: [
      [(UInt32(1), "2026-04-15T00:00:00Z"), (1, "2026-04-15T12:00:00Z")],
      [(UInt32(2), "2026-04-15T00:00:00Z"), (1, "2026-04-15T12:00:00Z")],
    ])
  func conflictsAreRejected(generations: [(UInt32, String)]) throws {
    let configuration = try configured(generations)
    let text = try json(configuration)
    #expect(throws: DecodingError.self) { try decode(PipelineConfiguration.self, text) }
    let folder = try SharedFolder.inMemory(layout: .standard(outboxCapacity: 16))
    #expect {
      try UsagePipeline(folder: folder, configuration: configuration)
    } throws: { error in
      guard case .invalidConfiguration(let field, _, _) = error as? PipelineError else {
        return false
      }
      return field == "registrations"
    }
  }
}
