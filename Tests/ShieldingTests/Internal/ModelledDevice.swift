import Shielding

/// The integrator's `ManagedSettingsStore`s, as far as shields go: what each named store
/// shields, and whether store 0 shields every category.
///
/// It applies a decision as the article's extension does — the writes, then the clears, then the
/// categories — and can stop after any number of those steps, as a process killed mid-way would.
struct ModelledDevice {
  /// What each store shields, by index; a cleared store is absent.
  var stores: [Int: ShieldStore<String>] = [:]
  /// Whether store 0 shields every category.
  var shieldsAllCategories = false

  /// How many steps applying `decision` takes.
  static func steps(of decision: ShieldDecision<String>) -> Int {
    decision.writes.count + decision.clears.count + (decision.allCategoriesChanged ? 1 : 0)
  }

  /// Applies the first `limit` steps of `decision`, or all of them.
  mutating func apply(_ decision: ShieldDecision<String>, stoppingAfter limit: Int? = nil) {
    var left = limit ?? Int.max
    for write in decision.writes where left > 0 {
      stores[write.index] = write.store
      left -= 1
    }
    for index in decision.clears where left > 0 {
      stores[index] = nil
      left -= 1
    }
    if decision.allCategoriesChanged, left > 0 {
      shieldsAllCategories = decision.state.shieldsAllCategories
    }
  }

  /// Everything shielded, by target.
  var shielded: Set<ShieldTarget<String>> {
    var targets: Set<ShieldTarget<String>> = []
    for store in stores.values {
      for kind in ShieldTargetKind.allCases {
        targets.formUnion(store.tokens(of: kind).map { ShieldTarget(kind: kind, token: $0) })
      }
    }
    return targets
  }

  /// Whether the device holds exactly `state`: the same stores with the same contents, nothing
  /// in any other, and the same categories.
  func holdsExactly(_ state: ShieldState<String>) -> Bool {
    var expected: [Int: ShieldStore<String>] = [:]
    for (index, store) in state.stores.enumerated() where !store.isEmpty {
      expected[index] = store
    }
    return stores.filter { !$0.value.isEmpty } == expected
      && shieldsAllCategories == state.shieldsAllCategories
  }
}
