/// Places shielded targets into stores of at most ``ShieldLimits/tokensPerStore`` tokens of each
/// kind, keeping each target in the store it was in before.
///
/// The rule, per kind: a target already in a store of `previous` stays there; the others go,
/// in the given order, to the lowest-numbered store with room. So the same targets give the
/// same stores, and adding or removing one target rewrites at most one store per kind.
enum StorePartition {
  struct Result<Token: ShieldToken> {
    var stores: [ShieldStore<Token>]
    var overflow: [ShieldDiagnostic]
  }

  static func partition<Token>(
    _ targets: [ShieldTarget<Token>], previous: [ShieldStore<Token>]?
  ) -> Result<Token> {
    let capacity = ShieldLimits.tokensPerStore
    var stores: [ShieldStore<Token>] = []
    var overflow: [ShieldDiagnostic] = []
    for kind in ShieldTargetKind.allCases {
      let wanted = targets.lazy.filter { $0.kind == kind }.map(\.token)
      let wantedSet = Set(wanted)
      guard !wantedSet.isEmpty else { continue }
      var placed: Set<Token> = []
      var counts = [Int](repeating: 0, count: ShieldLimits.maximumStores)
      func store(_ token: Token, at index: Int) {
        while stores.count <= index { stores.append(ShieldStore()) }
        stores[index].append(token, as: kind)
        counts[index] += 1
        placed.insert(token)
      }
      for (index, old) in (previous ?? []).prefix(ShieldLimits.maximumStores).enumerated() {
        for token in old.tokens(of: kind)
        where wantedSet.contains(token) && !placed.contains(token) && counts[index] < capacity {
          store(token, at: index)
        }
      }
      var cursor = 0
      var unplaced = 0
      for token in wanted where !placed.contains(token) {
        while cursor < counts.count, counts[cursor] >= capacity { cursor += 1 }
        guard cursor < counts.count else {
          unplaced += 1
          continue
        }
        store(token, at: cursor)
      }
      if unplaced > 0 {
        overflow.append(
          .storeLimitExceeded(
            kind: kind, count: wantedSet.count, capacity: ShieldLimits.maximumTokens))
      }
    }
    while let last = stores.last, last.isEmpty { stores.removeLast() }
    return Result(stores: stores, overflow: overflow)
  }
}
