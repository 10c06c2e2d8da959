/// What a token identifying a shield target must be: the app maps it to the platform's
/// `ApplicationToken`, `ActivityCategoryToken` or `WebDomainToken`.
///
/// A `String` (the token's encoded form) or the app's own enum over the platform's tokens
/// both work; the library only compares, hashes and stores it.
public typealias ShieldToken = Hashable & Codable & Sendable

/// The kind of a shield target.
///
/// JSON form: the raw value, for example `"webDomain"`.
public enum ShieldTargetKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// An application (`ApplicationToken`).
  case application
  /// An activity category (`ActivityCategoryToken`).
  case category
  /// A web domain (`WebDomainToken`).
  case webDomain
}

/// One thing that can be shielded: an application, a category or a web domain, as an opaque
/// token.
///
/// ```swift
/// let instagram = ShieldTarget.application("instagram-token")
/// ```
///
/// JSON form: `{"kind": "application", "token": <the token's JSON>}`.
public struct ShieldTarget<Token: ShieldToken>: Sendable, Hashable, Codable {
  /// What kind of target it is.
  public let kind: ShieldTargetKind
  /// The app's token for it.
  public let token: Token

  /// Creates a target.
  ///
  /// - Parameters:
  ///   - kind: What kind of target it is.
  ///   - token: The app's token for it.
  public init(kind: ShieldTargetKind, token: Token) {
    self.kind = kind
    self.token = token
  }

  /// An application target.
  ///
  /// - Parameter token: The application's token.
  /// - Returns: The target.
  public static func application(_ token: Token) -> ShieldTarget {
    ShieldTarget(kind: .application, token: token)
  }

  /// A category target.
  ///
  /// - Parameter token: The category's token.
  /// - Returns: The target.
  public static func category(_ token: Token) -> ShieldTarget {
    ShieldTarget(kind: .category, token: token)
  }

  /// A web-domain target.
  ///
  /// - Parameter token: The domain's token.
  /// - Returns: The target.
  public static func webDomain(_ token: Token) -> ShieldTarget {
    ShieldTarget(kind: .webDomain, token: token)
  }
}
