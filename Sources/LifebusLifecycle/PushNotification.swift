/// A remote notification the controller delivers (`lifebus fire push APP`). The payload is opaque to the device
/// (JSON text the wire checked); it is handed to the app as it came.
public struct PushNotification: Sendable, Hashable {
    /// `content-available: 1`: a silent push, delivered through `didReceiveRemoteNotification` (rate-limited:
    /// `Profile.silentPushesPerHour`).
    public var contentAvailable: Bool
    /// A visible notification: nothing reaches the app until the user taps it (`launch APP --push JSON`).
    public var alert: Bool
    /// The notification's payload, compact JSON text (`{}` when none is given).
    public var payload: String

    public init(contentAvailable: Bool, alert: Bool, payload: String = "{}") {
        self.contentAvailable = contentAvailable
        self.alert = alert
        self.payload = payload
    }
}
