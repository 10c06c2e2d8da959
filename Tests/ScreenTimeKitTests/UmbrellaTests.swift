import Foundation
import ScreenTimeKit
import Testing

/// `import ScreenTimeKit` alone gives access to every module.
@Suite("The umbrella module")
struct UmbrellaTests {
  @Test("one import reaches all five modules together")
  func oneImportReachesTheModules() throws {
    let store = InMemoryStore()
    let key = StoreKey("allowance", default: BudgetAlertState.defaultThresholds)
    try store.set([50, 100], for: key)
    #expect(try store.value(for: key) == [50, 100])

    let day = try LocalDay(year: 2026, month: 1, day: 15)
    let budget = try Budget(category: .socialMedia, period: .month, amount: .seconds(31 * 3600))
    #expect(budget.baseAllowance(on: day) == .seconds(3600))

    let counter = try SequenceCounter(store: store, key: "sequence")
    #expect(try counter.next().value == 1)

    let health = HealthPolicy().health(of: nil, at: Date(timeIntervalSince1970: 0))
    #expect(health.status == .neverSeen)
  }
}
