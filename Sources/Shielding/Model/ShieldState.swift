import Foundation
import UsageModel

/// What is shielded at one instant: each target with its reasons, partitioned into stores.
///
/// ```swift
/// let state = derivation.state(at: now)
/// for (index, store) in state.stores.enumerated() {
///   let settings = ManagedSettingsStore(named: .init("shield-\(index)"))
///   settings.shield.applications = Set(store.applications.map(appToken))
/// }
/// state.reasons(for: .application(instagram))   // [focus deep-work (profile social) until 14:30]
/// ```
///
/// JSON form: `{"at": "…Z", "targets": [ShieldedTarget, …], "stores": [ShieldStore, …],
/// "shieldsAllCategories": false}`. ``diagnostics`` are not stored.
public struct ShieldState<Token: ShieldToken>: Sendable, Hashable, Codable {
  /// The instant the state is for.
  public let instant: Date
  /// The shielded targets with their reasons, in the profiles' order (profiles by identifier,
  /// then each profile's targets in its order).
  public let targets: [ShieldedTarget<Token>]
  /// The targets partitioned into stores, each of at most 50 tokens of each kind.
  ///
  /// A target keeps its store while it stays shielded (see
  /// ``ShieldDerivation/state(at:previous:)``); an emptied store in the middle stays, empty.
  public let stores: [ShieldStore<Token>]
  /// Whether more targets must be shielded than the stores hold, so that the extension must
  /// shield every category (`shield.applicationCategories = .all()`) rather than leave any
  /// open.
  public let shieldsAllCategories: Bool
  /// What went wrong while deriving the state, each worked around without lifting a shield.
  public let diagnostics: [ShieldDiagnostic]

  /// Creates a state.
  ///
  /// - Parameters:
  ///   - instant: The instant it is for.
  ///   - targets: The shielded targets with their reasons.
  ///   - stores: The targets partitioned into stores.
  ///   - shieldsAllCategories: Whether every category must be shielded.
  ///   - diagnostics: What went wrong.
  public init(
    instant: Date, targets: [ShieldedTarget<Token>], stores: [ShieldStore<Token>],
    shieldsAllCategories: Bool, diagnostics: [ShieldDiagnostic]
  ) {
    self.instant = instant
    self.targets = targets
    self.stores = stores
    self.shieldsAllCategories = shieldsAllCategories
    self.diagnostics = diagnostics
  }

  /// Why `target` is shielded; empty when it is not.
  ///
  /// - Parameter target: A target.
  /// - Returns: Its reasons, sorted.
  /// - Complexity: O(*n*) in the number of shielded targets.
  public func reasons(for target: ShieldTarget<Token>) -> [ShieldReason] {
    targets.first { $0.target == target }?.reasons ?? []
  }

  /// Whether `target` is shielded.
  ///
  /// - Parameter target: A target.
  /// - Returns: `true` when a source requires it, or every category is shielded.
  /// - Complexity: O(*n*) in the number of shielded targets.
  public func isShielded(_ target: ShieldTarget<Token>) -> Bool {
    shieldsAllCategories || targets.contains { $0.target == target }
  }

  /// The shielded targets, as a set.
  public var shieldedTargets: Set<ShieldTarget<Token>> { Set(targets.map(\.target)) }

  /// Whether two states shield the same targets for the same reasons, whatever their instants,
  /// partitions and diagnostics.
  ///
  /// - Parameter other: Another state.
  /// - Returns: `true` when nothing a person would see differs.
  public func shieldsSame(as other: ShieldState) -> Bool {
    shieldsAllCategories == other.shieldsAllCategories && targets == other.targets
  }

  private enum CodingKeys: String, CodingKey {
    case at, targets, stores, shieldsAllCategories
  }

  /// Decodes the documented JSON form, without diagnostics.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` naming a missing or invalid field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    instant = Milliseconds.date(try container.decodeInstant(forKey: .at))
    targets = try container.decode([ShieldedTarget<Token>].self, forKey: .targets)
    stores = try container.decode([ShieldStore<Token>].self, forKey: .stores)
    shieldsAllCategories = try container.decode(Bool.self, forKey: .shieldsAllCategories)
    diagnostics = []
  }

  /// Encodes the documented JSON form, without diagnostics.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeInstant(Milliseconds.instant(instant) ?? 0, forKey: .at)
    try container.encode(targets, forKey: .targets)
    try container.encode(stores, forKey: .stores)
    try container.encode(shieldsAllCategories, forKey: .shieldsAllCategories)
  }
}

/// A shielded target and why.
///
/// JSON form: `{"target": ShieldTarget, "reasons": [ShieldReason, …]}`.
public struct ShieldedTarget<Token: ShieldToken>: Sendable, Hashable, Codable {
  /// The target.
  public let target: ShieldTarget<Token>
  /// Why it is shielded, sorted; never empty.
  public let reasons: [ShieldReason]

  /// Creates a shielded target.
  ///
  /// - Parameters:
  ///   - target: The target.
  ///   - reasons: Why it is shielded.
  public init(target: ShieldTarget<Token>, reasons: [ShieldReason]) {
    self.target = target
    self.reasons = reasons
  }
}

/// The tokens one `ManagedSettingsStore` shields.
///
/// JSON form: `{"applications": [token, …], "categories": [token, …], "webDomains":
/// [token, …]}`.
public struct ShieldStore<Token: ShieldToken>: Sendable, Hashable, Codable {
  /// At most ``ShieldLimits/tokensPerStore`` application tokens.
  public var applications: [Token]
  /// At most ``ShieldLimits/tokensPerStore`` category tokens.
  public var categories: [Token]
  /// At most ``ShieldLimits/tokensPerStore`` web-domain tokens.
  public var webDomains: [Token]

  /// Creates a store's contents.
  ///
  /// - Parameters:
  ///   - applications: The application tokens.
  ///   - categories: The category tokens.
  ///   - webDomains: The web-domain tokens.
  public init(applications: [Token] = [], categories: [Token] = [], webDomains: [Token] = []) {
    self.applications = applications
    self.categories = categories
    self.webDomains = webDomains
  }

  /// Whether the store shields nothing.
  public var isEmpty: Bool { applications.isEmpty && categories.isEmpty && webDomains.isEmpty }

  /// The tokens of one kind.
  ///
  /// - Parameter kind: A kind of target.
  /// - Returns: The store's tokens of that kind.
  public func tokens(of kind: ShieldTargetKind) -> [Token] {
    switch kind {
    case .application: return applications
    case .category: return categories
    case .webDomain: return webDomains
    }
  }

  mutating func append(_ token: Token, as kind: ShieldTargetKind) {
    switch kind {
    case .application: applications.append(token)
    case .category: categories.append(token)
    case .webDomain: webDomains.append(token)
    }
  }
}
