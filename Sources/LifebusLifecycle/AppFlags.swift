/// What an app declares about itself when it connects (the Info.plist keys iOS reads, and the delegate methods it
/// implements).
///
/// A plain value. Background mode names are passed through unchecked: the device only asks whether one of them
/// keeps the app running (`keepsRunningInBackground`).
public struct AppFlags: Sendable, Hashable {
    /// `UIApplicationExitsOnSuspend`: the app behaves as under `ios3` wherever it would enter the background.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes` (e.g. `audio`, `voip`, `location`). One of `continuousBackgroundModes` keeps the app
    /// `background` instead of `suspended`; the others only let the system launch or resume it for their events.
    public var backgroundModes: [String] {
        didSet { keepsRunningInBackground = Self.keepsRunning(backgroundModes) }
    }
    /// Whether `backgroundModes` names a mode that keeps the app running in the background (kept with the list: the
    /// device asks on every answer).
    public private(set) var keepsRunningInBackground: Bool
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
    /// `UIScene.destructionConditions` of every scene the app connects (ignored before `ios26`).
    public var destructionConditions: SceneDestructionConditions
    /// `BGTaskSchedulerPermittedIdentifiers`: the `BGTask` identifiers the app may register and submit.
    public var permittedTaskIdentifiers: [String]

    /// The `UIBackgroundModes` values iOS knows: what the command lines (`lifebus subscribe`, the SDK's
    /// `LaunchArguments`) accept. The wire passes any name through.
    public static let knownBackgroundModes = [
        "audio", "location", "voip", "fetch", "remote-notification", "newsstand-content", "external-accessory",
        "bluetooth-central", "bluetooth-peripheral", "processing",
    ]

    /// The modes of a service that runs while the app is in the background (playing audio, tracking location, a VoIP
    /// line, an accessory's session): the device keeps such an app `background`, as if the service were always in
    /// use (`Protocol/lifecycle.md` R29, [inference]). `fetch`, `remote-notification`, `processing` and
    /// `newsstand-content` are not among them: the system launches or resumes the app for their events, and "the app
    /// may be suspended again" (About the background execution sequence).
    public static let continuousBackgroundModes = knownBackgroundModes.filter(isContinuous)

    /// Whether `mode` is one of `continuousBackgroundModes`. A switch, not a lookup in a static `Set`: every one-shot
    /// CLI command makes an `AppFlags`, and building a `Set<String>` at start-up cost ~270 k instructions (the
    /// run-time conformance lookup for `String: Hashable`, `scripts/bench-oneshot`).
    public static func isContinuous(_ mode: String) -> Bool {
        switch mode {
        case "audio", "location", "voip", "external-accessory", "bluetooth-central", "bluetooth-peripheral": true
        default: false
        }
    }

    private static func keepsRunning(_ modes: [String]) -> Bool {
        modes.contains(where: isContinuous)
    }

    public init(
        exitsOnSuspend: Bool = false, backgroundModes: [String] = [], launchInBackground: Bool = false,
        adoptsScenes: Bool = false, supportsMultipleScenes: Bool = false,
        implementedCallbacks: [LifecycleCallback] = [], destructionConditions: SceneDestructionConditions = [],
        permittedTaskIdentifiers: [String] = []
    ) {
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.keepsRunningInBackground = Self.keepsRunning(backgroundModes)
        self.launchInBackground = launchInBackground
        self.adoptsScenes = adoptsScenes
        self.supportsMultipleScenes = supportsMultipleScenes
        self.implementedCallbacks = implementedCallbacks
        self.destructionConditions = destructionConditions
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
    }
}
