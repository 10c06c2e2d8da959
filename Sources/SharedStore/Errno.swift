#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif

/// The error number a failed system call set, with names for the ones worth handling.
///
/// ``SharedStoreError`` carries one in its file-system cases so that a caller can branch on what
/// went wrong without raw numbers, which differ between platforms (`EDQUOT` is 69 on Darwin and
/// 122 on Linux):
///
/// ```swift
/// do {
///   try store.set(entry, for: .lastSync)
/// } catch SharedStoreError.io(_, _, .noSpace), SharedStoreError.io(_, _, .diskQuotaExceeded) {
///   showStorageFullBanner()
/// } catch SharedStoreError.io(_, _, let errno) where errno == .permissionDenied {
///   reportMisconfiguredAppGroup()
/// }
/// ```
///
/// Any number can be represented, named or not: ``rawValue`` is the platform's own value.
/// `description` is the C library's message for it (`strerror`), such as "No space left on
/// device". JSON form: the bare number, `28` — meaningful on the platform that wrote it only.
///
/// On Apple platforms the System framework has a type of the same name; ``SharedStore`` says how
/// to name this one in a file that imports both.
public struct Errno: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  /// The platform's error number, as `errno` held it.
  public let rawValue: Int32

  /// Wraps a platform error number.
  ///
  /// - Parameter rawValue: The value of `errno` after the failed call.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The C library's message for this error number (`strerror`), or "unknown error".
  public var description: String {
    guard let message = strerror(rawValue) else { return "unknown error" }
    return String(cString: message)
  }
}

// MARK: - Named error numbers

extension Errno {
  /// The operation needs a privilege the process does not have (`EPERM`).
  public static let operationNotPermitted = Errno(rawValue: EPERM)

  /// A component of the path does not exist (`ENOENT`).
  public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)

  /// A signal interrupted the call before it completed (`EINTR`).
  ///
  /// ``FileStore`` retries interrupted calls itself, so it does not report this one.
  public static let interrupted = Errno(rawValue: EINTR)

  /// The device reported a low-level input or output failure (`EIO`).
  public static let ioError = Errno(rawValue: EIO)

  /// The resource is busy or would block; trying again later may succeed (`EAGAIN`).
  public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)

  /// The file's permissions, or a directory's on the way to it, forbid the access (`EACCES`).
  public static let permissionDenied = Errno(rawValue: EACCES)

  /// A file already exists where a new one was to be created (`EEXIST`).
  public static let fileExists = Errno(rawValue: EEXIST)

  /// A component of the path that must be a directory is not one (`ENOTDIR`).
  public static let notADirectory = Errno(rawValue: ENOTDIR)

  /// The path names a directory where a file was expected (`EISDIR`).
  public static let isADirectory = Errno(rawValue: EISDIR)

  /// An argument was not valid for the call (`EINVAL`).
  public static let invalidArgument = Errno(rawValue: EINVAL)

  /// The process has as many files open as it is allowed (`EMFILE`).
  public static let tooManyOpenFiles = Errno(rawValue: EMFILE)

  /// The file would exceed the largest size allowed (`EFBIG`).
  public static let fileTooLarge = Errno(rawValue: EFBIG)

  /// The volume has no space left (`ENOSPC`).
  public static let noSpace = Errno(rawValue: ENOSPC)

  /// The volume is mounted read-only (`EROFS`).
  public static let readOnlyFileSystem = Errno(rawValue: EROFS)

  /// Resolving the path met too many symbolic links, or a loop of them (`ELOOP`).
  public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)

  /// The operation is not supported by this file or file system (`ENOTSUP`).
  public static let notSupported = Errno(rawValue: ENOTSUP)

  /// The user's disk quota is used up (`EDQUOT`).
  public static let diskQuotaExceeded = Errno(rawValue: EDQUOT)

  /// The file or directory the handle referred to is gone, for example replaced or removed on a
  /// network volume (`ESTALE`).
  ///
  /// ``FileStore`` also reports it when its lock file was replaced three times in a row.
  public static let staleFileHandle = Errno(rawValue: ESTALE)

  /// Waiting would never end (`EDEADLK`).
  ///
  /// ``FileStore`` reports it for a change made from inside the body of another change on the
  /// same store or a sibling — an `update` body, an append's or a compaction's closure — which
  /// would otherwise write under the outer change's feet.
  public static let resourceDeadlockAvoided = Errno(rawValue: EDEADLK)
}
