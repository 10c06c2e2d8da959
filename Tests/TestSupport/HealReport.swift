import AppPipeline

/// What one `stk-test-helper heal-app` process saw, printed as one JSON line: the wire form
/// between the helper and `AppStateDamageTests`.
package struct HealReport: Codable, Sendable {
  package var applied: Int
  package var recoveries: [PipelineRecovery]
  package var reportedRecoveries: Int
  package var losses: Int
  package var seconds: Int64
  package var dayBeforeSeconds: Int64
  package var xp: Int

  package init(
    applied: Int, recoveries: [PipelineRecovery], reportedRecoveries: Int, losses: Int,
    seconds: Int64, dayBeforeSeconds: Int64, xp: Int
  ) {
    self.applied = applied
    self.recoveries = recoveries
    self.reportedRecoveries = reportedRecoveries
    self.losses = losses
    self.seconds = seconds
    self.dayBeforeSeconds = dayBeforeSeconds
    self.xp = xp
  }
}
