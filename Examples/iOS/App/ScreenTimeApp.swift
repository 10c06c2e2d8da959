import SwiftUI

/// The app: it plans what to monitor, drains what the extension recorded, and shows the day.
@main
struct ScreenTimeApp: App {
  @StateObject private var model = ScreenTimeModel()
  @Environment(\.scenePhase) private var scenePhase

  var body: some Scene {
    WindowGroup {
      ContentView(model: model)
    }
    .onChange(of: scenePhase) { phase in
      model.scenePhaseChanged(to: phase)
    }
  }
}
