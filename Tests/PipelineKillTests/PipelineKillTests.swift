import AppPipeline
import BudgetMath
import Foundation
import GapDetection
import SequenceTracking
import SharedStore
import TestSupport
import TrackerSignals
import UsageModel
import XCTest

/// One pipeline from a monitor extension to the app's dashboard, proven under SIGKILL.
///
/// The helper's extension process replays three scripted days (``PipelineScript``) through a real
/// `MonitorRecorder` on a real `FileStore` folder and is SIGKILLed at random points; the helper's
/// app process drains concurrently through a real `UsagePipeline`, drops about half the
/// notifications, and is SIGKILLed and relaunched too. After a final drain, each day's per-app
/// totals must equal those of ``ReferenceUsage``, an independent implementation of the
/// derivation rules, over exactly the callbacks that were durably recorded. The control runs the
/// same harness with the two-write glue the pipeline replaces, and must be caught losing use.
final class PipelineKillTests: XCTestCase {
  /// The script of the `swift test` run.
  static let seed: UInt64 = 20_260_308

  func testEveryDurablyRecordedCallbackCountsOnceWhenExtensionAndAppAreKilledAtRandom() throws {
    let script = try PipelineScript(seed: Self.seed)
    let outcome = try KillScenarios.pipeline(script, kills: 320, seed: Self.seed)
    print(outcome.summary)
    XCTAssertEqual(outcome.mismatches, [], "per-app day totals differ from the reference")
    XCTAssertEqual(outcome.problems, [])
    XCTAssertGreaterThanOrEqual(outcome.run.extensionKills, 300)
    XCTAssertGreaterThan(outcome.run.inFlight.count, 0, "some kills interrupted an entry")
    XCTAssertGreaterThan(outcome.writtenInFlight, 0, "some kills came after a fact was written")
    XCTAssertLessThan(outcome.durable, outcome.callbacks, "some kills lost a callback unwritten")
    XCTAssertGreaterThan(outcome.run.appKills, 0)
    Self.assertAboutHalfDropped(outcome.run)
    // The script's quirks reached the derivation.
    XCTAssertGreaterThan(outcome.thresholds.duplicates, 0)
    XCTAssertGreaterThan(outcome.thresholds.superseded, 0)
    XCTAssertGreaterThan(outcome.thresholds.implausible, 0)
    XCTAssertNotNil(outcome.deadStretchGap)
  }

  /// Facts held on a locked device count once when published, and go only with the process.
  ///
  /// A relaunch, one in three, comes after a restart of the device: locked for a stretch, in
  /// which the extension holds its facts in memory and publishes them, late and in order, at its
  /// first entry after the unlock (a callback or a heartbeat tick) — or is killed holding them,
  /// and they are gone with it, as `MonitorBacklogStatus` documents. A launch that ran on after
  /// the unlock must have published every fact it held. The totals are the reference's over the
  /// facts published.
  func testFactsHeldOnALockedDeviceCountOnceWhenPublishedAndGoOnlyWithTheProcess() throws {
    let seed = Self.seed &+ 1
    let script = try PipelineScript(seed: seed)
    let outcome = try KillScenarios.pipeline(script, kills: 160, locking: true, seed: seed)
    print(outcome.summary)
    XCTAssertEqual(outcome.mismatches, [], "per-app day totals differ from the reference")
    XCTAssertEqual(outcome.problems, [])
    XCTAssertGreaterThanOrEqual(outcome.run.extensionKills, 150)
    XCTAssertGreaterThan(outcome.run.lockedLaunches, 10)
    XCTAssertGreaterThan(outcome.heldWritten, 0, "held facts were published late")
    XCTAssertGreaterThan(outcome.heldLost, 0, "kills took held facts with them")
    XCTAssertLessThan(outcome.durable, outcome.callbacks)
  }

  func testControlTwoWriteGlueKilledBetweenItsWritesIsCaughtFallingShort() throws {
    let script = try PipelineScript(seed: Self.seed)
    let outcome = try KillScenarios.control(script, seed: Self.seed)
    print(outcome.summary)
    XCTAssertGreaterThan(outcome.run.selfKills.count, 0)
    XCTAssertGreaterThan(outcome.lostSeconds, 0)
    XCTAssertNotEqual(outcome.mismatches, [], "the comparison must catch the control's loss")
    XCTAssertEqual(outcome.shortfallSeconds, outcome.lostSeconds)
    XCTAssertEqual(outcome.problems, [])
    XCTAssertGreaterThan(outcome.run.appKills, 0)
    Self.assertAboutHalfDropped(outcome.run)
  }

  /// Notifications are dropped with probability ½ each.
  static func assertAboutHalfDropped(
    _ run: KillHarness.Run, file: StaticString = #filePath, line: UInt = #line
  ) {
    let total = run.notificationsDropped + run.notificationsArrived
    XCTAssertGreaterThan(total, 50, "notifications reached the app", file: file, line: line)
    XCTAssertEqual(
      Double(run.notificationsDropped) / Double(max(total, 1)), 0.5, accuracy: 0.15,
      "\(run.notificationsDropped) of \(total) notifications dropped", file: file, line: line)
  }
}

/// `Scripts/stress.sh`, scenario 4: the kill test over `STK_PIPELINE_STRESS_SCENARIOS` scripts,
/// each with `STK_PIPELINE_STRESS_KILLS` kills of the extension (320 unless set) and with its
/// control, summed up in one `STRESS pipeline kills:` line; skipped when the first variable is
/// not set.
final class PipelineKillStressTests: XCTestCase {
  func testStressScenariosLoseNothingAndCountNothingTwiceWhileEveryControlIsCaught() throws {
    guard
      let text = ProcessInfo.processInfo.environment["STK_PIPELINE_STRESS_SCENARIOS"],
      let scenarios = Int(text), scenarios > 0
    else {
      throw XCTSkip("set STK_PIPELINE_STRESS_SCENARIOS, as Scripts/stress.sh does")
    }
    let environment = ProcessInfo.processInfo.environment
    let perScenario = environment["STK_PIPELINE_STRESS_KILLS"].flatMap { Int($0) } ?? 320
    var kills = 0
    var inFlight = 0
    var appKills = 0
    var durable = 0
    var callbacks = 0
    var mismatches = 0
    var problems = 0
    var controlsCaught = 0
    var (lockedLaunches, heldWritten, heldLost) = (0, 0, 0)
    for index in 0..<scenarios {
      let seed = PipelineKillTests.seed &+ UInt64(index) &* 7_919
      let script = try PipelineScript(seed: seed)
      // Every other script on a device that is sometimes locked after a relaunch.
      let pipeline = try KillScenarios.pipeline(
        script, kills: perScenario, locking: index % 2 == 1, seed: seed)
      let control = try KillScenarios.control(script, seed: seed)
      kills += pipeline.run.extensionKills
      inFlight += pipeline.run.inFlight.count
      appKills += pipeline.run.appKills + control.run.appKills
      durable += pipeline.durable
      callbacks += pipeline.callbacks
      mismatches += pipeline.mismatches.count
      problems += pipeline.problems.count
      if !control.mismatches.isEmpty { controlsCaught += 1 }
      lockedLaunches += pipeline.run.lockedLaunches
      heldWritten += pipeline.heldWritten
      heldLost += pipeline.heldLost
      print("scenario \(index + 1) seed=\(seed) \(pipeline.summary) | \(control.summary)")
      XCTAssertEqual(pipeline.mismatches, [], "scenario \(index + 1)")
      XCTAssertEqual(pipeline.problems, [], "scenario \(index + 1)")
      // As the `swift test` run allows 300 of its 320: a launch can run on past its kill target
      // to the end of the script, so a few kills may not happen. The short run's single script
      // of 80 kills (`Scripts/stress.sh --short`) is a smoke run whose count varies more with
      // timing (67 to 80 measured since the app's dashboard stopped taking the folder's lock):
      // it must reach three quarters of them; the full run, 15 sixteenths.
      let short = environment["STK_STRESS"] == "short"
      XCTAssertGreaterThanOrEqual(
        pipeline.run.extensionKills, perScenario - perScenario / (short ? 4 : 16),
        "scenario \(index + 1)")
      // The kills must land inside callbacks, and some callbacks must die unrecorded, or the
      // scenario proves nothing about a kill mid-write.
      XCTAssertGreaterThan(pipeline.run.inFlight.count, 0, "scenario \(index + 1)")
      XCTAssertLessThan(pipeline.durable, pipeline.callbacks, "scenario \(index + 1)")
      XCTAssertNotEqual(control.mismatches, [], "scenario \(index + 1): control not caught")
      XCTAssertEqual(control.shortfallSeconds, control.lostSeconds, "scenario \(index + 1)")
      XCTAssertEqual(control.problems, [], "scenario \(index + 1)")
    }
    StressRun.report(
      "pipeline kills",
      "\(scenarios) seeded three-day script\(scenarios == 1 ? "" : "s"), "
        + "\(kills) extension SIGKILLs of \(scenarios * perScenario) planned (\(inFlight) in the "
        + "middle of a callback), \(appKills) app SIGKILLs, \(durable) of \(callbacks) callbacks "
        + "durably recorded, \(lockedLaunches) launches on a locked device (held facts published "
        + "late \(heldWritten), gone with a killed process \(heldLost)), day-app totals differing "
        + "from the reference \(mismatches), other "
        + "problems \(problems), controls caught losing use \(controlsCaught) of \(scenarios)")
  }
}
