import Foundation
import TestSupport
import Testing
import UsageModel

/// The registration record and its validation.
@Suite("Monitoring registrations")
struct MonitoringRegistrationTests {
  @Test("a registration's JSON form round-trips; includesPastActivity may be absent")
  func registrationJSON() throws {
    let registration = try MonitoringRegistration(
      activity: "daily", generation: 1, registeredAt: try instant("2026-01-02T11:00:00Z"),
      includesPastActivity: true, counting: .fromOccurrenceStart)
    let text = try json(registration)
    #expect(
      text == #"{"activity":"daily","counting":"fromOccurrenceStart","generation":1,"#
        + #""includesPastActivity":true,"registeredAt":"2026-01-02T11:00:00Z"}"#)
    #expect(try decode(MonitoringRegistration.self, text) == registration)
    let short = try decode(
      MonitoringRegistration.self,
      #"{"activity":"a","generation":0,"registeredAt":"2026-01-02T11:00:00Z","#
        + #""counting":"fromRegistration"}"#)
    #expect(!short.includesPastActivity)
    #expect(short.counting == .fromRegistration)
  }

  @Test("two registrations of one activity may not share a generation")
  func duplicateGenerationsConflict() throws {
    let first = try registration(generation: 1, at: "2026-01-02T10:00:00Z")
    let again = try registration(generation: 1, at: "2026-01-02T11:00:00Z")
    #expect(throws: UsageModelError.self) { try MonitoringRegistration.validate([first, again]) }
    let other = try MonitoringRegistration(
      activity: "other", generation: 1, registeredAt: first.registeredAt,
      counting: .fromRegistration)
    try MonitoringRegistration.validate([first, other])
  }

  @Test("generations must increase with the registration instant, per activity")
  func generationsIncreaseWithTime() throws {
    let later = try registration(generation: 1, at: "2026-01-02T10:00:00Z")
    let earlierButHigher = try registration(generation: 2, at: "2026-01-02T09:00:00Z")
    #expect(throws: UsageModelError.self) {
      try MonitoringRegistration.validate([later, earlierButHigher])
    }
    try MonitoringRegistration.validate([
      try registration(generation: 0, at: "2026-01-02T00:00:00Z"), later,
      try registration(generation: 5, at: "2026-01-02T12:00:00Z"),
    ])
  }

  private func registration(generation: UInt32, at text: String) throws -> MonitoringRegistration {
    try MonitoringRegistration(
      activity: "daily", generation: generation, registeredAt: try instant(text),
      counting: .fromOccurrenceStart)
  }
}
