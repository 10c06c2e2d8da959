#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#else
#error("SharedStore's lock needs a pthread-compatible C library.")
#endif

/// A mutual-exclusion lock over one `pthread_mutex_t`.
///
/// The standard library's `Mutex` needs iOS 18 and ScreenTimeKit supports iOS 16, so the modules
/// built on SharedStore share this small lock instead. It is not recursive unless made so:
/// calling `withLock` again from inside its body on the same lock deadlocks.
package final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// Creates an unlocked lock.
  ///
  /// - Parameter recursive: Whether the thread that holds the lock may take it again (and must
  ///   then release it as many times): a `FileStore`'s lock, which a caller holds across several
  ///   changes that each take it.
  package init(recursive: Bool = false) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    let initialized = pthread_mutexattr_init(&attributes)
    precondition(initialized == 0, "pthread_mutexattr_init failed with \(initialized)")
    defer { pthread_mutexattr_destroy(&attributes) }
    if recursive {
      let typed = pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
      precondition(typed == 0, "pthread_mutexattr_settype failed with \(typed)")
    }
    let status = pthread_mutex_init(mutex, &attributes)
    precondition(status == 0, "pthread_mutex_init failed with \(status)")
  }

  deinit {
    let status = pthread_mutex_destroy(mutex)
    precondition(status == 0, "pthread_mutex_destroy failed with \(status)")
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Acquires the lock, blocking the calling thread until it is free.
  package func lock() {
    let status = pthread_mutex_lock(mutex)
    precondition(status == 0, "pthread_mutex_lock failed with \(status)")
  }

  /// Acquires the lock if no other thread holds it, without waiting.
  ///
  /// - Returns: Whether the calling thread now holds the lock (and must release it); a recursive
  ///   lock the thread holds already is taken again.
  package func tryLock() -> Bool {
    pthread_mutex_trylock(mutex) == 0
  }

  /// Releases the lock, which the calling thread must hold.
  package func unlock() {
    let status = pthread_mutex_unlock(mutex)
    precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
  }

  /// Runs `body` while holding the lock and returns its result.
  ///
  /// - Parameter body: The work to do under the lock; it must not take this lock again.
  /// - Returns: What `body` returned.
  /// - Throws: Whatever `body` throws; the lock is released either way.
  package func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A value guarded by a ``Lock``, for state shared between threads.
package final class LockedValue<Value>: @unchecked Sendable {
  private let lock = Lock()
  private var value: Value

  /// Creates a guarded value.
  ///
  /// - Parameter value: The initial value.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive, mutable access to the value and returns its result.
  ///
  /// - Parameter body: The work to do on the value; it must not use this `LockedValue` again.
  /// - Returns: What `body` returned.
  /// - Throws: Whatever `body` throws; changes made before the throw are kept.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock { () throws(Failure) -> Result in try body(&value) }
  }
}
