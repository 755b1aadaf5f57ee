/// What an app that does not use scenes finds in `didFinishLaunching`'s `launchOptions` (the wire's member of that
/// name; `UIApplication.LaunchOptionsKey`): the URL it was launched to open (`.url`) and the tapped remote
/// notification's payload (`.remoteNotification`). A scene app's `launchOptions` is nil: its connecting scene gets
/// the payload instead (`SceneConnectionOptions`). The JSON text is opaque to the device. Invariant (kept by
/// `init?(_:)`): not both members are absent.
public struct LaunchPayload: Sendable, Hashable {
    /// `UIApplication.LaunchOptionsKey.url`.
    public var url: String?
    /// `UIApplication.LaunchOptionsKey.remoteNotification`: the notification's payload, JSON text.
    public var remoteNotification: String?

    public init(url: String? = nil, remoteNotification: String? = nil) {
        self.url = url
        self.remoteNotification = remoteNotification
    }

    /// The launch options of a cold start opened with `options` (its first URL, its notification); `nil` when they
    /// carry neither.
    public init?(_ options: SceneConnectionOptions) {
        guard !options.urlContexts.isEmpty || options.notificationResponse != nil else { return nil }
        self.init(url: options.urlContexts.first, remoteNotification: options.notificationResponse)
    }
}
