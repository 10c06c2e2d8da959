@preconcurrency import FamilyControls
import ScreenTimeKit
import SwiftUI

/// Today's use of the picked apps and the time they have left, and the picker that chooses them.
struct ContentView: View {
  @ObservedObject var model: ScreenTimeModel
  @State private var selection = FamilyActivitySelection()
  @State private var isPicking = false

  var body: some View {
    NavigationStack {
      List {
        if let dashboard = model.dashboard {
          Section("Today") {
            LabeledContent("Used", value: format(dashboard.usage.total))
            ForEach(dashboard.budgets, id: \.report.category) { budget in
              LabeledContent("Remaining", value: format(budget.report.today.remaining))
            }
            LabeledContent("Tracker", value: "\(dashboard.health)")
          }
        }
        if let problem = model.problem {
          Section("Problem") { Text(problem).foregroundStyle(.red) }
        }
      }
      .navigationTitle("Screen time")
      .toolbar { Button("Choose apps") { isPicking = true } }
      .familyActivityPicker(isPresented: $isPicking, selection: $selection)
      .onChange(of: selection) { model.choose($0) }
      .task { await model.authorize() }
    }
  }

  private func format(_ duration: Duration) -> String {
    duration.formatted(.units(allowed: [.hours, .minutes], width: .abbreviated))
  }
}
