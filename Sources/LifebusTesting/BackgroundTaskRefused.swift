public import LifebusLifecycle

/// The device refused an app's background-task request (`LifebusTestBus.beginBackgroundTask(in:name:)`,
/// `endBackgroundTask(_:in:)`; the wire's `lifebus.EventRejected` without an event), for `reason`: `appSuspended`,
/// `backgroundTasksUnavailable` (ios3), `backgroundTimeExpired`, `unknownTask`, … A value.
public struct BackgroundTaskRefused: Error, Equatable, CustomStringConvertible {
    /// The app whose request was refused.
    public let app: AppID
    /// Why.
    public let reason: RejectionReason

    /// The refusal of `app`'s request for `reason` (to compare with: `#expect(throws: BackgroundTaskRefused(…))`).
    ///
    /// - Parameters:
    ///   - app: The app whose request was refused.
    ///   - reason: Why.
    public init(app: AppID, reason: RejectionReason) {
        self.app = app
        self.reason = reason
    }

    public var description: String {
        "the device refused \(app)'s background task request: \(reason.rawValue)"
    }
}
