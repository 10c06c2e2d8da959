import Foundation
import SharedStore
import Shielding
import Testing
import TrackerSignals

/// `store-tool` on a folder holding the shield intents and the applied state.
@Suite("store-tool on shield keys")
struct StoreToolShieldTests {
  let example = Example(name: "store-tool")
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("stk-shield-tool-\(UUID().uuidString)", isDirectory: true)
  let start = Date(timeIntervalSince1970: 1_773_014_400)  // 2026-03-09T00:00:00Z

  func makeFolder() throws -> ShieldController<String> {
    let shields = ShieldController<String>(
      store: try FileStore(directory: directory), timeZone: TimeZone(secondsFromGMT: 0) ?? .gmt)
    let profile = try ShieldProfile<String>(id: "kids", targets: [.application("instagram")])
    try shields.record(ShieldIntent(id: "p", at: start, action: .setProfile(profile)))
    try shields.record(
      ShieldIntent(
        id: "f", at: start + 3600,
        action: .startFocus(session: "homework", profiles: ["kids"], focus: .seconds(1800))))
    try shields.markApplied(shields.decide(now: start + 3600))
    return shields
  }

  func cleanUp() {
    do {
      try FileManager.default.removeItem(at: directory)
    } catch {
      // Nothing was created, or it is already gone.
    }
  }

  @Test("show decodes the shield intents and the applied state; verify reads both")
  func showAndVerify() throws {
    defer { cleanUp() }
    _ = try makeFolder()
    let intents = try example.run(["show", directory.path, "stk.pipeline.state.shields"])
    #expect(intents.status == 0)
    #expect(intents.stdout.contains("the app's shield intents (ShieldController): 2 intents"))
    #expect(intents.stdout.contains("start focus homework for 30m 00s on kids"))
    let applied = try example.run(["show", directory.path, "stk.pipeline.state.shields.applied"])
    #expect(applied.status == 0)
    #expect(applied.stdout.contains("\"instagram\""))
    #expect(applied.stdout.contains("focus homework (profile kids) until 2026-03-09T01:30:00Z"))
    let verify = try example.run(["verify", directory.path])
    #expect(verify.status == 0)
    #expect(verify.stdout.contains("ok       stk.pipeline.state.shields: 2 shield intents decode"))
  }

  @Test("verify reports an undecodable shield intent as damage")
  func verifyReportsAnUndecodableIntent() throws {
    defer { cleanUp() }
    _ = try makeFolder()
    let store = try FileStore(directory: directory)
    try store.append(
      [Data("{garbled".utf8)], toLog: SharedFolderLayout.standard.shieldIntentsKey,
      capacity: ShieldController<String>.intentCapacity)
    let verify = try example.run(["verify", directory.path])
    #expect(verify.status == 1)
    #expect(verify.stdout.contains("undecodable shield intents: #3"))
  }
}
