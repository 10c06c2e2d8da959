import Foundation

/// Calls `onPost` whenever the Darwin notification `name` is posted, while this object lives.
///
/// A Darwin notification carries no payload and reaches only a running app. Its callback is a C
/// function, which cannot capture anything: the observer passes itself as the callback's
/// context and calls `onPost`, which hops to wherever the work belongs.
final class DarwinNotificationObserver: Sendable {
  private let name: String
  private let onPost: @Sendable () -> Void

  /// Starts observing `name`.
  ///
  /// - Parameters:
  ///   - name: The Darwin notification's name.
  ///   - onPost: What to do on each post, on the thread the system calls back on.
  init(name: String, onPost: @escaping @Sendable () -> Void) {
    self.name = name
    self.onPost = onPost
    CFNotificationCenterAddObserver(
      CFNotificationCenterGetDarwinNotifyCenter(), Unmanaged.passUnretained(self).toOpaque(),
      { _, context, _, _, _ in
        guard let context else { return }
        Unmanaged<DarwinNotificationObserver>.fromOpaque(context).takeUnretainedValue().onPost()
      },
      name as CFString, nil, .deliverImmediately)
  }

  deinit {
    CFNotificationCenterRemoveObserver(
      CFNotificationCenterGetDarwinNotifyCenter(), Unmanaged.passUnretained(self).toOpaque(),
      CFNotificationName(name as CFString), nil)
  }
}
