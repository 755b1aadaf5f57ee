public import LifebusLifecycle

/// How `ApplicationMain` connects and what the app declares in `hello` (its Info.plist, in iOS terms).
///
/// A plain value (`Sendable`). Build it in code, or from the command line with `LaunchArguments`.
public struct ApplicationOptions: Sendable {
    /// The broker's socket; `nil` resolves it like every Lifebus tool does (`$LIFEBUS_SOCKET`,
    /// `$XDG_RUNTIME_DIR/lifebus.sock`, `/tmp/lifebus-$UID/lifebus.sock`).
    public var socketPath: String?
    /// `UIApplicationExitsOnSuspend`: terminate instead of suspending.
    public var exitsOnSuspend: Bool
    /// `UIBackgroundModes`, e.g. `audio`, `location`, `voip`.
    public var backgroundModes: [String]
    /// Launch straight into the background when the app connects.
    public var launchInBackground: Bool
    /// `UIApplicationSupportsMultipleScenes` (meaningful with a scene delegate).
    public var supportsMultipleScenes: Bool
    /// Whether an app with a scene delegate that a broker without scenes (ios3, ios4, ios7) refuses says hello again
    /// without scenes and runs the app-delegate life cycle (`Application.fellBackFromScenes`), as iOS 12 runs an app
    /// with a scene manifest: `true` (the default, as on iOS). `false`: the refusal ends `run` with `connectFailure`
    /// (a test of the refusal itself, row S31).
    public var fallsBackFromScenes: Bool
    /// The callbacks the app handles, said in hello so the broker can tell one implemented but never called (empty:
    /// not declared).
    public var implementedCallbacks: [LifecycleCallback]
    /// `UIScene.destructionConditions` of every scene the app connects (meaningful with a scene delegate; the broker
    /// ignores them before `ios26`): `userInitiatedDismissal` discards a scene's session when the user swipes home,
    /// `systemDisconnection` when the process ends. Each scene tells them as `Scene.destructionConditions`.
    public var destructionConditions: SceneDestructionConditions
    /// `BGTaskSchedulerPermittedIdentifiers`: the task identifiers the app may register (an installed app's manifest
    /// `backgroundTaskIdentifiers` wins).
    public var permittedTaskIdentifiers: [String]
    /// The first reconnection delay after the broker went away; it doubles on each failure up to `maxReconnectDelay`.
    public var reconnectDelay: Duration
    /// The longest reconnection delay.
    public var maxReconnectDelay: Duration
    /// How long the first connection (connect and a successful `hello`) may take before `Application.run` gives up
    /// and returns with `Application.connectFailure` set; `nil` (the default) keeps trying. Reconnections after a
    /// first success always keep trying.
    public var connectTimeout: Duration?
    /// Receives one line per connection event (connected, lost, retrying, refused), on the SDK's I/O thread.
    /// `nil` (the default) prints nothing.
    public var diagnostics: (@Sendable (String) -> Void)?

    /// Makes the options; every parameter sets the property of the same name, and each default is the property's
    /// documented default.
    ///
    /// - Parameters:
    ///   - socketPath: The broker's socket; `nil` resolves it as every Lifebus tool does.
    ///   - exitsOnSuspend: `UIApplicationExitsOnSuspend`.
    ///   - backgroundModes: `UIBackgroundModes`, e.g. `["audio"]`.
    ///   - launchInBackground: Launch straight into the background.
    ///   - supportsMultipleScenes: `UIApplicationSupportsMultipleScenes`.
    ///   - fallsBackFromScenes: Whether a scene app refused by a profile without scenes runs the app-delegate life
    ///     cycle instead (as iOS 12 does); `true` by default.
    ///   - implementedCallbacks: The callbacks the app handles (empty: not declared).
    ///   - destructionConditions: `UIScene.destructionConditions` of every scene the app connects (honoured from
    ///     `ios26`); none by default.
    ///   - permittedTaskIdentifiers: `BGTaskSchedulerPermittedIdentifiers`; none by default.
    ///   - reconnectDelay: The first reconnection delay (50 ms).
    ///   - maxReconnectDelay: The longest reconnection delay (2 s).
    ///   - connectTimeout: How long the first connection may take; `nil` keeps trying.
    ///   - diagnostics: Receives one line per connection event; `nil` prints nothing.
    public init(
        socketPath: String? = nil,
        exitsOnSuspend: Bool = false,
        backgroundModes: [String] = [],
        launchInBackground: Bool = false,
        supportsMultipleScenes: Bool = false,
        fallsBackFromScenes: Bool = true,
        implementedCallbacks: [LifecycleCallback] = [],
        destructionConditions: SceneDestructionConditions = [],
        permittedTaskIdentifiers: [String] = [],
        reconnectDelay: Duration = .milliseconds(50),
        maxReconnectDelay: Duration = .seconds(2),
        connectTimeout: Duration? = nil,
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        self.socketPath = socketPath
        self.exitsOnSuspend = exitsOnSuspend
        self.backgroundModes = backgroundModes
        self.launchInBackground = launchInBackground
        self.supportsMultipleScenes = supportsMultipleScenes
        self.fallsBackFromScenes = fallsBackFromScenes
        self.implementedCallbacks = implementedCallbacks
        self.destructionConditions = destructionConditions
        self.permittedTaskIdentifiers = permittedTaskIdentifiers
        self.reconnectDelay = reconnectDelay
        self.maxReconnectDelay = maxReconnectDelay
        self.connectTimeout = connectTimeout
        self.diagnostics = diagnostics
    }
}

extension ApplicationOptions {
    /// The flags the app says in hello.
    func flags(adoptsScenes: Bool) -> AppFlags {
        var flags = AppFlags(
            exitsOnSuspend: exitsOnSuspend, backgroundModes: backgroundModes, launchInBackground: launchInBackground)
        flags.adoptsScenes = adoptsScenes
        flags.supportsMultipleScenes = supportsMultipleScenes
        flags.implementedCallbacks = implementedCallbacks
        flags.destructionConditions = destructionConditions
        flags.permittedTaskIdentifiers = permittedTaskIdentifiers
        return flags
    }

    /// A callback only an app that adopts scenes gets: a scene delegate's, or the app delegate's scene-session ones.
    @_spi(Hosting) public static func isSceneOnly(_ callback: LifecycleCallback) -> Bool {
        callback.scope == .scene || callback == .configurationForConnecting || callback == .didDiscardSceneSessions
    }
}
