/// What an app declares about itself when it connects (the Info.plist keys iOS reads, and the delegate methods it
/// implements).
///
/// A plain value. Background mode names are passed through unchecked: the device only asks whether the list is
/// empty.
public struct AppFlags: Sendable, Hashable {
    /// `UIApplicationExitsOnSuspend`: the app behaves as under `ios3` wherever it would enter the background.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes` (e.g. `audio`, `voip`, `location`): a non-empty list keeps the app `background`
    /// instead of `suspended`.
    public var backgroundModes: [String]
    /// The app was started for background work: it launches into the background instead of the front
    /// (ignored where it cannot run in the background).
    public var launchInBackground: Bool
    /// The app adopts scenes (`UIApplicationSceneManifest` with a configuration, and `configurationForConnecting`
    /// implemented): under a profile with scenes it is driven scene by scene; under one without, it is refused.
    public var adoptsScenes: Bool
    /// `UIApplicationSupportsMultipleScenes`: the app may have more than one scene connected.
    public var supportsMultipleScenes: Bool
    /// The callbacks the app says it handles; empty when it does not say (the migration diff reads it, the device
    /// does not).
    public var implementedCallbacks: [LifecycleCallback]
    /// `BGTaskSchedulerPermittedIdentifiers`: the `BGTask` identifiers the app may register and submit.
    public var permittedTaskIdentifiers: [String]

    /// The `UIBackgroundModes` values iOS knows: what the command lines (`lifebus subscribe`, the SDK's
    /// `LaunchArguments`) accept. The wire passes any name through.
    public static let knownBackgroundModes = [
        "audio", "location", "voip", "fetch", "remote-notification", "newsstand-content", "external-accessory",
        "bluetooth-central", "bluetooth-peripheral", "processing",
    ]

    public init(
        exitsOnSuspend: Bool = false, backgroundModes: [String] = [], launchInBackground: Bool = false,
        adoptsScenes: Bool = false, supportsMultipleScenes: Bool = false,
        implementedCallbacks: [LifecycleCallback] = [], permittedTaskIdentifiers: [String] = []
    ) {
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
        self.adoptsScenes = adoptsScenes
        self.supportsMultipleScenes = supportsMultipleScenes
        self.implementedCallbacks = implementedCallbacks
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
    }
}
