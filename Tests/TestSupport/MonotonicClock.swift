#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The system-wide monotonic clock (`CLOCK_MONOTONIC`) in nanoseconds.
///
/// Unlike `ContinuousClock.Instant`, its readings can be printed by one process and compared by
/// another: the kill-point tests time how long a writer waits for the lock after another
/// process was killed holding it.
///
/// - Returns: Nanoseconds since an unspecified moment, the same for every process.
package func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
