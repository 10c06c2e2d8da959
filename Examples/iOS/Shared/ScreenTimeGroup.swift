import Foundation

/// The App Group that the app, its monitor extension and its widget share.
///
/// Every target has the App Group capability with this identifier, and agrees on what is in
/// its folder.
enum ScreenTimeGroup {
  /// The App Group's identifier, as in each target's entitlements.
  static let identifier = "group.com.example.screentime"

  /// The Darwin notification the monitor extension posts after it recorded a fact.
  static let factsNotification = "com.example.screentime.facts"

  /// The folder ScreenTimeKit keeps in the group's container.
  ///
  /// - Throws: `CocoaError.fileNoSuchFile` when the target lacks the App Group entitlement.
  static func folder() throws -> URL {
    guard
      let container = FileManager.default.containerURL(
        forSecurityApplicationGroupIdentifier: identifier)
    else { throw CocoaError(.fileNoSuchFile) }
    return container.appending(path: "ScreenTimeKit")
  }
}
