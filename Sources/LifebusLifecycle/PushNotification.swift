/// A remote notification the controller delivers (`lifebus fire push APP`). The payload is opaque to the device
/// (JSON text the wire checked); it is handed to the app as it came.
public struct PushNotification: Sendable, Hashable {
    /// `content-available: 1`: a silent push, delivered through `didReceiveRemoteNotification` (rate-limited:
    /// `Profile.silentPushesPerHour`).
    public var contentAvailable: Bool
    /// A visible notification: nothing reaches the app until the user taps it (`launch APP --push JSON`), but an
    /// app in the foreground is asked how to present it (`willPresentNotification`, `ios13`+).
    public var alert: Bool
    /// The notification's payload, compact JSON text (`{}` when none is given).
    public var payload: String
    /// A visible notification the user taps at once (`push --tap`): the app comes to the front as `launch APP --push`
    /// brings it, the payload in the connecting scene's `notificationResponse`.
    public var tapped: Bool

    public init(contentAvailable: Bool, alert: Bool, payload: String = "{}", tapped: Bool = false) {
        self.contentAvailable = contentAvailable
        self.alert = alert
        self.payload = payload
        self.tapped = tapped
    }
}
