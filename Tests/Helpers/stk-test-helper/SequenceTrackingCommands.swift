import SequenceTracking

/// Runs a SequenceTracking subcommand; returns `false` when `name` is not one of them.
func runSequenceTrackingCommand(_ name: String, _ options: Options) throws -> Bool {
  false
}
