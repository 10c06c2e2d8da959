import Foundation
import TestSupport
import Testing

/// The URL of a fixture file under `Fixtures/`.
func fixtureURL(_ path: String) throws -> URL {
  let url = try #require(Bundle.module.resourceURL, "no resource bundle")
    .appendingPathComponent("Fixtures").appendingPathComponent(path)
  #expect(FileManager.default.fileExists(atPath: url.path), "missing fixture \(path)")
  return url
}

/// The seeded generator of the property tests.
typealias SeededGenerator = SplitMix64
