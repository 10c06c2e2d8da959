import AppPipeline

/// The pipeline of another app process (a widget, a second launch), for an action a file
/// system's hook runs between two steps of this one (``BeforeTheLock``): the hook's closure is
/// `@Sendable`, and waking changes the pipeline.
///
/// Only the test's thread uses it: the hook runs on the thread that takes the lock.
package final class OtherAppProcess: @unchecked Sendable {
  /// The other process's pipeline, usually on a store opened separately on the same folder.
  package var pipeline: UsagePipeline

  /// Wraps `pipeline`.
  package init(_ pipeline: UsagePipeline) {
    self.pipeline = pipeline
  }
}
