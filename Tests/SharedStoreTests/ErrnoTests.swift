import Foundation
import TestSupport
import Testing

@testable import SharedStore

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// File-system errors are matched by name, never by a platform's raw number.
@Suite("Errno")
struct ErrnoTests {
  static let named: [(Errno, Int32)] = [
    (.noSuchFileOrDirectory, ENOENT), (.permissionDenied, EACCES),
    (.operationNotPermitted, EPERM), (.noSpace, ENOSPC), (.diskQuotaExceeded, EDQUOT),
    (.tooManyOpenFiles, EMFILE), (.ioError, EIO), (.readOnlyFileSystem, EROFS),
    (.interrupted, EINTR), (.fileExists, EEXIST), (.notADirectory, ENOTDIR),
    (.isADirectory, EISDIR), (.invalidArgument, EINVAL), (.staleFileHandle, ESTALE),
    (.tooManySymbolicLinks, ELOOP), (.fileTooLarge, EFBIG),
    (.resourceTemporarilyUnavailable, EAGAIN), (.notSupported, ENOTSUP),
    (.resourceDeadlockAvoided, EDEADLK),
  ]

  @Test("each named error number is the platform's own value", arguments: named)
  func namedValuesArePlatformValues(errno: Errno, expected: Int32) {
    #expect(errno.rawValue == expected)
    #expect(Errno(rawValue: expected) == errno)
  }

  @Test("the named error numbers are distinct")
  func namedValuesAreDistinct() {
    #expect(Set(Self.named.map(\.0)).count == Self.named.count)
  }

  @Test("the description is the C library's message")
  func descriptionIsStrerror() {
    #expect(Errno.noSuchFileOrDirectory.description == String(cString: strerror(ENOENT)))
    #expect(!Errno(rawValue: 9_999).description.isEmpty, "an unknown number still has a text")
  }

  @Test("the JSON form is the bare number")
  func codableAsBareNumber() throws {
    let encoded = try JSONEncoder().encode([Errno.noSpace])
    #expect(String(decoding: encoded, as: UTF8.self) == "[\(ENOSPC)]")
    #expect(try JSONDecoder().decode(Errno.self, from: Data("\(EACCES)".utf8)) == .permissionDenied)
  }

  @Test("an io error is matched by its error number's name in a catch clause")
  func catchMatchesByName() throws {
    let fixture = try DurabilityTests.Fixture()
    fixture.fileSystem.fail(.writeAll, errno: ENOSPC)
    var caught = false
    do {
      try fixture.store.write(Data("new".utf8), for: "key")
    } catch SharedStoreError.io(_, _, .permissionDenied) {
      Issue.record("a full disk matched permissionDenied")
    } catch SharedStoreError.io(_, _, .noSpace) {
      caught = true
    } catch {
      Issue.record("unexpected error \(error)")
    }
    #expect(caught)
  }

  @Test("an error number is matched with a where clause and described by name and number")
  func whereClauseMatchesAndDescriptionNamesIt() throws {
    let fixture = try DurabilityTests.Fixture()
    fixture.fileSystem.fail(.open, errno: EACCES)
    do throws(SharedStoreError) {
      _ = try fixture.store.read("key")
      Issue.record("the read succeeded")
    } catch {
      switch error {
      case .io(let operation, _, let errno) where errno == .permissionDenied:
        #expect(operation == "injected open")
      default:
        Issue.record("expected io with permissionDenied, got \(error)")
      }
      #expect(error.description.contains(Errno.permissionDenied.description))
      #expect(error.description.contains("errno \(EACCES)"))
    }
  }
}
