public import LifebusLifecycle
public import LifebusProtocol

/// What an app does at each lifecycle callback the broker sends: the counterpart of `UIApplicationDelegate`.
///
/// Bound to the main actor, like UIKit: every method runs there, one callback at a time (the broker serialises the
/// callbacks of one app). The broker's answer waits until the method returns, and the time it took is reported as
/// the handler's duration, so a slow method is visible (and a method that outlives its budget gets the app killed,
/// as the iOS watchdog does). Every method has a default that does nothing. In an app that adopts scenes
/// (`SceneDelegate`) UIKit no longer calls `didBecomeActive`, `willResignActive`, `didEnterBackground` or
/// `willEnterForeground`: the broker does not send them.
@MainActor
public protocol ApplicationDelegate: AnyObject {
    /// The app was launched (in the foreground, or in the background when `options.isBackgroundLaunch`).
    ///
    /// - Parameters:
    ///   - application: The app receiving the callback.
    ///   - options: Why and how it was launched: a background launch, the event that launched it, and an installed
    ///     app's relaunch context with its restoration payload.
    func didFinishLaunching(_ application: Application, options: LaunchOptions) async
    /// The app is now active: restart what was paused while it was inactive.
    ///
    /// - Parameter application: The app receiving the callback.
    func didBecomeActive(_ application: Application) async
    /// The app is about to become inactive (an interruption, or the way to the background): pause.
    ///
    /// - Parameter application: The app receiving the callback.
    func willResignActive(_ application: Application) async
    /// The app is now in the background: save state, release shared resources.
    ///
    /// - Parameter application: The app receiving the callback.
    func didEnterBackground(_ application: Application) async
    /// The app is coming back from the background (on its way to active).
    ///
    /// - Parameter application: The app receiving the callback.
    func willEnterForeground(_ application: Application) async
    /// The app is about to end; after this returns the process exits.
    ///
    /// - Parameter application: The app receiving the callback.
    func willTerminate(_ application: Application) async
    /// Memory is short: drop what can be rebuilt. Memory-warning observers run after this returns.
    ///
    /// - Parameter application: The app receiving the callback.
    func didReceiveMemoryWarning(_ application: Application) async
    /// A scene app: a new scene session is being created (not called when a scene reconnects to a kept session).
    ///
    /// - Parameter application: The app receiving the callback.
    func configurationForConnecting(_ application: Application) async
    /// A scene app: the user closed these sessions in the app switcher (or UIKit can no longer show them); release
    /// what was kept for them. Called at the next launch when the app was not running.
    ///
    /// - Parameters:
    ///   - application: The app receiving the callback.
    ///   - sessions: The sessions discarded; they are gone from ``Application/openSessions``.
    func didDiscardSceneSessions(_ application: Application, sessions: [SceneSession]) async
    /// What to hand back at the next launch (`LaunchOptions.restorationState`) should the app be killed meanwhile;
    /// asked after `didEnterBackground` and `willTerminate` return, and sent to the broker when not `nil` (an
    /// installed app only; at most 64 KiB). The default saves nothing.
    ///
    /// - Parameter application: The app being asked.
    /// - Returns: The payload to save (at most 64 KiB of UTF-8), or `nil` to save nothing.
    func restorationState(_ application: Application) -> String?
    /// A silent push (`content-available`) arrived, with its payload (JSON text): fetch what it announces and return
    /// how it went, as the fetch completion handler is called, within its budget (30 s). Called in scene apps too;
    /// the app may have been launched into the background for it. The default fetches nothing (`.noData`).
    ///
    /// - Parameters:
    ///   - application: The app receiving the push.
    ///   - payload: The push's payload, a JSON object as text.
    /// - Returns: How the fetch went (`.newData`, `.noData` or `.failed`), as passed to the fetch completion handler.
    func didReceiveRemoteNotification(_ application: Application, payload: String) async -> BackgroundFetchResult
    /// The device is about to lock: protected files (`ProtectedFile` of class `.complete`) become unreadable and
    /// unwritable shortly after (about 10 s). Save what must be saved now. An app suspended at the lock hears it
    /// when it runs again while the device is locked (the net change since it was suspended), when the files may
    /// already be locked: check `isProtectedDataAvailable` before writing.
    ///
    /// - Parameter application: The app receiving the callback.
    func protectedDataWillBecomeUnavailable(_ application: Application) async
    /// The device was unlocked: protected files can be used again. An app that was suspended hears it when it runs
    /// again, if it last heard `protectedDataWillBecomeUnavailable`.
    ///
    /// - Parameter application: The app receiving the callback.
    func protectedDataDidBecomeAvailable(_ application: Application) async
    /// `application(_:open:options:)`: open `url`. Called in an app that does not use scenes, once it is in the
    /// foreground — for a URL opened while it runs, and after a launch by that URL (also in
    /// `LaunchOptions.url`); a scene app gets `SceneDelegate.openURLContexts` instead. The default opens nothing.
    ///
    /// - Parameters:
    ///   - application: The app receiving the callback.
    ///   - url: The URL to open.
    func open(_ application: Application, url: String) async
    /// `userNotificationCenter(_:didReceive:withCompletionHandler:)`: the user tapped a notification of the app,
    /// which is now in the foreground (either kind of app). A tap that launched the app (or connected its scene) is
    /// delivered here too from iOS 10 (`ios13` on), after its payload came in `LaunchOptions.remoteNotification`
    /// (an app that does not use scenes) or the connecting scene's options: act on one copy. The answer is the
    /// completion handler's call; the default does nothing.
    ///
    /// - Parameters:
    ///   - application: The app receiving the callback.
    ///   - payload: The notification's payload, a JSON object as text.
    func didReceiveNotificationResponse(_ application: Application, payload: String) async
    /// `userNotificationCenter(_:willPresent:withCompletionHandler:)`: a visible notification of the app arrived
    /// while it is in the foreground (either kind of app; iOS 10+, `ios13` on): return how the system should present
    /// it, as the completion handler is called. The default presents nothing (`[]`), as iOS does for an app that does
    /// not implement the method: no banner for the app's own notification while it is in front.
    ///
    /// - Parameters:
    ///   - application: The app receiving the callback.
    ///   - payload: The notification's payload, a JSON object as text.
    /// - Returns: The presentation options (`.banner`, `.list`, `.sound`, `.badge`); `[]` presents nothing.
    func willPresentNotification(_ application: Application, payload: String) async -> NotificationPresentationOptions
}

extension ApplicationDelegate {
    public func didFinishLaunching(_ application: Application, options: LaunchOptions) async {}
    public func didBecomeActive(_ application: Application) async {}
    public func willResignActive(_ application: Application) async {}
    public func didEnterBackground(_ application: Application) async {}
    public func willEnterForeground(_ application: Application) async {}
    public func willTerminate(_ application: Application) async {}
    public func didReceiveMemoryWarning(_ application: Application) async {}
    public func configurationForConnecting(_ application: Application) async {}
    public func didDiscardSceneSessions(_ application: Application, sessions: [SceneSession]) async {}
    public func restorationState(_ application: Application) -> String? { nil }
    public func didReceiveRemoteNotification(_ application: Application, payload: String) async
        -> BackgroundFetchResult
    { .noData }
    public func protectedDataWillBecomeUnavailable(_ application: Application) async {}
    public func protectedDataDidBecomeAvailable(_ application: Application) async {}
    public func open(_ application: Application, url: String) async {}
    public func didReceiveNotificationResponse(_ application: Application, payload: String) async {}
    public func willPresentNotification(_ application: Application, payload: String) async
        -> NotificationPresentationOptions
    { [] }
}

/// Why and how the app was launched: the `launchOptions` of `didFinishLaunching`. A plain value.
public struct LaunchOptions: Sendable, Equatable {
    /// The app was launched straight into the background (it asked to, or an event woke it there).
    public var isBackgroundLaunch: Bool
    /// The controller event that launched the app; `nil` when it launched by connecting.
    public var cause: EventCause?
    /// An installed app's relaunch: why (`afterJetsam`, `afterCrash`, …), its previous process and how it ended,
    /// and the payload it last saved (`Application.saveRestorationState`); `nil` for an app the broker did not
    /// install.
    public var launch: LaunchContext?

    /// Why the app was launched (`user` when the broker did not say).
    public var reason: LaunchContext.Reason { launch?.reason ?? .user }
    /// The payload the app saved before its previous process ended.
    public var restorationState: String? { launch?.restorationState }
    /// Why the process was started: by the user, or into the background for a task or a silent push.
    public var launchReason: LaunchReason = .user
    /// The URL the app was launched to open (`UIApplication.LaunchOptionsKey.url`); `nil` in a scene app, whose
    /// connecting scene gets it.
    public var url: String?
    /// The tapped notification's payload, JSON text, that launched the app
    /// (`UIApplication.LaunchOptionsKey.remoteNotification`); `nil` in a scene app, whose connecting scene gets it.
    public var remoteNotification: String?

    /// Makes launch options, e.g. to call a delegate's ``ApplicationDelegate/didFinishLaunching(_:options:)`` in a
    /// unit test.
    ///
    /// - Parameters:
    ///   - isBackgroundLaunch: Whether the app was launched into the background; `false` by default.
    ///   - cause: The controller event that launched it; `nil` by default.
    ///   - launch: An installed app's relaunch context; `nil` by default.
    public init(isBackgroundLaunch: Bool = false, cause: EventCause? = nil, launch: LaunchContext? = nil) {
        self.isBackgroundLaunch = isBackgroundLaunch
        self.cause = cause
        self.launch = launch
    }

    init(_ callback: CallbackParams) {
        self.init(isBackgroundLaunch: callback.state == .background, cause: callback.cause, launch: callback.launch)
        launchReason = callback.background?.launchReason ?? .user
        url = callback.background?.launchOptions?.url
        remoteNotification = callback.background?.launchOptions?.remoteNotification
    }
}
