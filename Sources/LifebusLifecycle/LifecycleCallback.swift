/// A UIKit delegate method the device drives an app through: an app-delegate method named without the
/// `application` prefix, or a scene-delegate method (`scope == .scene`).
///
/// The raw value is both the wire spelling and the JSON-RPC method of the broker → app request that delivers it
/// (`{"method":"didEnterBackground","params":CallbackParams}`). Its watchdog budget under each profile is declared
/// here too (`defaultBudget(under:)`), and `ordinal` is its place in `allCases` (what `Budgets` is indexed by).
/// Adding one: ARCHITECTURE.md's "Adding a callback"; `CallbackTablesTests` drives every case through the tables
/// written by hand.
public enum LifecycleCallback: String, Sendable, CaseIterable, Hashable {
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
    /// `application(_:configurationForConnecting:options:)`: sent for a new session only, never for a reconnect.
    case configurationForConnecting
    /// `application(_:didDiscardSceneSessions:)`: the sessions the user closed, or discarded while the app was not
    /// running (then sent at its next launch).
    case didDiscardSceneSessions
    /// `scene(_:willConnectTo:options:)`: a scene connects to its session, with its connection options and the
    /// session's restoration payload.
    case willConnectTo
    /// `scene(_:restoreInteractionStateWith:)` (`ios15`+): the session's restoration payload, when it has one.
    case restoreInteractionState
    case sceneWillEnterForeground
    case sceneDidBecomeActive
    case sceneWillResignActive
    case sceneDidEnterBackground
    /// `stateRestorationActivity(for:)`: asked before a scene is disconnected; the answer's payload is kept with
    /// the session.
    case stateRestorationActivity
    case sceneDidDisconnect
    /// `scene(_:openURLContexts:)`: URLs opened while the scene is connected.
    case openURLContexts
    /// `applicationProtectedDataWillBecomeUnavailable(_:)`: the device is locking; protected files become
    /// unreadable `Profile.protectedDataLockDelay` later. Sent to scene apps too.
    case protectedDataWillBecomeUnavailable
    /// `applicationProtectedDataDidBecomeAvailable(_:)`: the device is unlocked. Sent to scene apps too.
    case protectedDataDidBecomeAvailable
    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`: a silent push (`content-available`).
    /// The answer is the completion handler's call and carries its `BackgroundFetchResult`. Sent to scene apps too.
    case didReceiveRemoteNotification
    /// A `BGTaskScheduler` launch handler is called with its task. The answer only acknowledges the call: the task
    /// runs until the app reports it completed (`setTaskCompleted`) or it expires.
    case performBackgroundTask
    /// The running `BGTask`'s `expirationHandler`: answered when the handler returns.
    case backgroundTaskWillExpire
    /// `application(_:open:options:)`: a URL opened by an app that does not use scenes, once it is in the
    /// foreground (a scene app gets `openURLContexts`).
    case openURL
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`: the user tapped a notification of a running
    /// app (either kind: a `UNUserNotificationCenterDelegate` method), once it is in the foreground. The answer is
    /// the completion handler's call.
    case didReceiveNotificationResponse
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`: a visible notification arrived while the
    /// app is in the foreground (either kind: a `UNUserNotificationCenterDelegate` method). The answer is the
    /// completion handler's call and carries the `NotificationPresentationOptions` chosen (none when it says none).
    case willPresentNotification
}

/// Which delegate a callback belongs to. The raw value is the wire spelling.
public enum CallbackScope: String, Sendable, Hashable {
    /// The app delegate: one per process.
    case application
    /// A scene delegate: one per connected scene; the request names the scene.
    case scene
}

extension LifecycleCallback {
    /// The watchdog budget of the callback under `profile` (`Protocol/lifecycle.md`, "Budgets"), before a broker's
    /// `--time-scale` and `--budget` change it. The same under every profile today; a profile that differs says so
    /// here. Scene callbacks and the scene app-delegate ones get FrontBoard's scene-update watchdog, 10 s; so do
    /// `openURL`, `didReceiveNotificationResponse` and `willPresentNotification`, for which Apple gives no figure
    /// ([inference]: they run in the foreground, as `openURLContexts` does). A silent
    /// push's completion handler gets the profile's `silentPushBudget` (30 s); a BGTask's launch handler 10 s to be
    /// called (its task's own budget is the profile's), its expiration handler 5 s (`expirationWarning`'s figure).
    public func defaultBudget(under profile: Profile) -> Duration {
        switch self {
        case .didFinishLaunching: .seconds(20)
        case .didBecomeActive: .seconds(10)
        case .willResignActive: .seconds(10)
        case .didEnterBackground: .seconds(5)
        case .willEnterForeground: .seconds(10)
        case .willTerminate: .seconds(5)
        case .didReceiveMemoryWarning: .seconds(10)
        case .configurationForConnecting, .didDiscardSceneSessions: .seconds(10)
        case .willConnectTo, .restoreInteractionState, .sceneWillEnterForeground, .sceneDidBecomeActive,
            .sceneWillResignActive, .sceneDidEnterBackground, .stateRestorationActivity, .sceneDidDisconnect,
            .openURLContexts:
            .seconds(10)
        case .protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable: .seconds(10)
        case .didReceiveRemoteNotification: profile.silentPushBudget ?? .seconds(30)
        case .performBackgroundTask: .seconds(10)
        case .backgroundTaskWillExpire: .seconds(5)
        case .openURL, .didReceiveNotificationResponse, .willPresentNotification: .seconds(10)
        }
    }

    /// The delegate the callback belongs to.
    public var scope: CallbackScope {
        switch self {
        case .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground,
            .willTerminate, .didReceiveMemoryWarning, .configurationForConnecting, .didDiscardSceneSessions,
            .protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable, .didReceiveRemoteNotification,
            .performBackgroundTask, .backgroundTaskWillExpire, .openURL, .didReceiveNotificationResponse,
            .willPresentNotification:
            .application
        case .willConnectTo, .restoreInteractionState, .sceneWillEnterForeground, .sceneDidBecomeActive,
            .sceneWillResignActive, .sceneDidEnterBackground, .stateRestorationActivity, .sceneDidDisconnect,
            .openURLContexts:
            .scene
        }
    }

    /// The callback's position in `allCases` (declaration order), so a table of one value per callback is read by
    /// index, with no hashing (`Budgets`); the compiler turns this switch into the case's own tag.
    /// `CallbackTablesTests` checks every case against `allCases`.
    @inlinable
    public var ordinal: Int {
        switch self {
        case .didFinishLaunching: 0
        case .didBecomeActive: 1
        case .willResignActive: 2
        case .didEnterBackground: 3
        case .willEnterForeground: 4
        case .willTerminate: 5
        case .didReceiveMemoryWarning: 6
        case .configurationForConnecting: 7
        case .didDiscardSceneSessions: 8
        case .willConnectTo: 9
        case .restoreInteractionState: 10
        case .sceneWillEnterForeground: 11
        case .sceneDidBecomeActive: 12
        case .sceneWillResignActive: 13
        case .sceneDidEnterBackground: 14
        case .stateRestorationActivity: 15
        case .sceneDidDisconnect: 16
        case .openURLContexts: 17
        case .protectedDataWillBecomeUnavailable: 18
        case .protectedDataDidBecomeAvailable: 19
        case .didReceiveRemoteNotification: 20
        case .performBackgroundTask: 21
        case .backgroundTaskWillExpire: 22
        case .openURL: 23
        case .didReceiveNotificationResponse: 24
        case .willPresentNotification: 25
        }
    }
}
