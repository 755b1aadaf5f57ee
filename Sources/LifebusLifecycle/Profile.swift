/// The device's behaviour set (an iOS era), chosen when the broker starts. `ios7` is the default. The raw value is
/// the wire spelling; declaration order is era order.
///
/// - `ios3`: no multitasking; leaving the foreground terminates the app.
/// - `ios4`: multitasking; locking the device only resigns the front app.
/// - `ios7`: multitasking; locking also sends the front app to the background.
/// - `ios13`: scenes, optional: an app that adopts them is driven scene by scene; one that does not gets `ios7`'s
///   app-delegate behaviour. Background tasks get 30 s. A switcher swipe resigns, backgrounds, then terminates.
/// - `ios15`: as `ios13`, and a scene with a restoration payload is asked to restore it (`restoreInteractionState`);
///   an incoming call may show as a compact banner (`CallPresentation`).
/// - `ios17`: as `ios15`; a switcher swipe resigns, disconnects the scene and discards its session.
/// - `ios26`: as `ios17`, with scene destruction conditions (an app's declared conditions discard its sessions).
/// - `ios27`: as `ios26`, and scenes are required: an app that does not adopt them fails to launch.
///
/// Background execution and data protection differ too: `beginBackgroundTask`'s time (none, 600 s, 180 s, then 30 s),
/// BGTaskScheduler from `ios13`, continued processing from `ios26`, silent pushes from `ios7`, the protected-data lock
/// from `ios13`, and a tap that launches an app reaches its notification delegate too from `ios13`.
///
/// Every difference between profiles is one of the properties below (`Protocol/lifecycle.md`'s "Profiles", a source
/// for each). Adding one: ARCHITECTURE.md's "Adding a profile"; `ProfileTablesTests` drives every case through the
/// tables.
public enum Profile: String, Sendable, CaseIterable, Hashable {
    case ios3
    case ios4
    case ios7
    case ios13
    case ios15
    case ios17
    case ios26
    case ios27

    /// Whether apps may run in the background at all under this profile (all but `ios3`).
    public var hasMultitasking: Bool {
        self != .ios3
    }

    /// Whether locking the device sends the front app (or its foreground scenes) to the background instead of only
    /// resigning it (`ios7` and later).
    public var lockSendsToBackground: Bool {
        self >= .ios7
    }

    /// Whether apps may adopt scenes, and whether they must.
    public var sceneSupport: SceneSupport {
        switch self {
        case .ios3, .ios4, .ios7: .none
        case .ios13, .ios15, .ios17, .ios26: .optional
        case .ios27: .required
        }
    }

    /// Whether a connecting scene whose session keeps a restoration payload is asked to restore it
    /// (`scene(_:restoreInteractionStateWith:)`, iOS 15+).
    public var restoresInteractionState: Bool {
        self >= .ios15
    }

    /// What a switcher swipe does to a scene app's scene.
    public var switcherClose: SwitcherClose {
        self >= .ios17 ? .disconnectsAndDiscards : .terminates
    }

    /// Whether scenes have destruction conditions (iOS 26+, `SceneDestructionConditions`): a scene app that declares
    /// them has its sessions discarded when the user swipes home or the system ends its process (S42–S44); before,
    /// they are ignored.
    public var hasDestructionConditions: Bool {
        self >= .ios26
    }

    /// Whether an incoming call may show as a compact banner while the device is unlocked (iOS 14+; `ios15` is this
    /// list's first profile after it): `DeviceConfiguration.callPresentation` says whether it does.
    public var hasCompactCallBanner: Bool {
        self >= .ios15
    }

    /// The time a `beginBackgroundTask` gets once the app enters the background (`UIApplication`'s background
    /// time, shared by its open tasks): about 10 min under `ios4`, 180 s under `ios7`, 30 s from `ios13` on; `nil`
    /// under `ios3` (no background execution). `Budgets.defaults(for:)` takes it from here.
    public var backgroundTaskTime: Duration? {
        switch self {
        case .ios3: nil
        case .ios4: .seconds(600)
        case .ios7: .seconds(180)
        case .ios13, .ios15, .ios17, .ios26, .ios27: .seconds(30)
        }
    }

    /// Whether apps may schedule `BGTaskScheduler` tasks (`appRefresh`, `processing`): iOS 13+.
    public var hasBackgroundTasks: Bool {
        self >= .ios13
    }

    /// Whether apps may start continued-processing tasks (`BGContinuedProcessingTaskRequest`): iOS 26+.
    public var hasContinuedProcessing: Bool {
        self >= .ios26
    }

    /// How long after the device locks protected data (`NSFileProtectionComplete`) becomes unavailable: 10 s
    /// (the class key is discarded "10 seconds" after lock with Require Password set to Immediately), under the
    /// modern profiles (`ios13`+); `nil` where the device does not model data protection (no
    /// `protectedDataWillBecomeUnavailable` is sent).
    public var protectedDataLockDelay: Duration? {
        self >= .ios13 ? .seconds(10) : nil
    }

    /// Whether a suspended app hears, when it runs again, the net change of protected data since it last heard
    /// (one `protectedDataWillBecomeUnavailable` or `protectedDataDidBecomeAvailable`, or none when the device is
    /// as it last heard): the archived App Programming Guide's "Processing Queued Notifications at Wakeup Time"
    /// lists "The status of protected files changes" among the notifications queued for a suspended app and
    /// coalesced to "the net change since your app was suspended"; today's "Processing queued notifications" keeps
    /// the rule but no longer lists them, so this is a knob. On wherever `protectedDataLockDelay` is.
    public var queuesProtectedDataNotifications: Bool {
        protectedDataLockDelay != nil
    }

    /// The `BGTaskScheduler` task kinds whose due task still launches an app the user force-quit (and that has not
    /// run since): `processing` where there are background tasks — an Apple DTS engineer on the Developer Forums
    /// (thread 793189): processing tasks running after a force-quit is "an intentional choice by the engineering
    /// team" [secondary] — and not `appRefresh`, which Apple does not document and is widely reported not to run
    /// until the user launches the app [inference]; nor `continuedProcessing`, which starts in the foreground and
    /// ends at the force-quit. A knob (`DeviceConfiguration.taskKindsAfterForceQuit`); empty before `ios13`.
    public var taskKindsAfterForceQuit: Set<BackgroundTaskKind> {
        hasBackgroundTasks ? [.processing] : []
    }

    /// Whether a scene app launched into the background (a silent push, a `BGTask`, its process connecting into the
    /// background) connects one scene there before the event's handler. Apple says a system-requested scene
    /// "typically moves to the background so that it can process an event" ("Managing your app's life cycle") but not
    /// whether a background launch connects one at all (SCENES.md §2 row 10: [inference]), so this is a knob
    /// (`DeviceConfiguration.connectsSceneAtBackgroundLaunch`): off under every profile.
    public var connectsSceneAtBackgroundLaunch: Bool {
        false
    }

    /// The time a running `appRefresh` task has to call `setTaskCompleted` before it expires: "up to 30 seconds".
    /// Meaningful where `hasBackgroundTasks`.
    public var appRefreshBudget: Duration {
        .seconds(30)
    }

    /// The time a silent push's completion handler has (`didReceiveRemoteNotification`'s budget): "up to 30
    /// seconds", from `ios7` (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` is iOS 7.0+);
    /// `nil` before, where a `content-available` push wakes no app.
    public var silentPushBudget: Duration? {
        self >= .ios7 ? .seconds(30) : nil
    }

    /// How many silent pushes an app is delivered in an hour (on the device's clock); more are deferred until the
    /// window allows ("more than 3/hour is rate-limited": Apple gives no exact figure, so this is a knob).
    public var silentPushesPerHour: Int {
        3
    }

    /// Whether the notification tap that launches an app (or connects its scene) also reaches the app's
    /// `UNUserNotificationCenter` delegate — `didReceiveNotificationResponse`, once the app is in the foreground —
    /// besides the launch options or the connecting scene's options: iOS 10+ (`UNUserNotificationCenter`, whose
    /// delegate must be set "before your app finishes launching" to respond to "all actionable notifications";
    /// `ios13` is this list's first profile after it). Before, "the app does not call this method to handle that
    /// remote notification": the payload is only in the launch options.
    public var tapReachesDelegateAtLaunch: Bool {
        self >= .ios13
    }

    /// Whether a visible notification arriving while the app is in the foreground is first offered to the app's
    /// `UNUserNotificationCenter` delegate (`willPresentNotification`), which says how to present it: iOS 10+
    /// (`UNUserNotificationCenter.delegate`; `ios13` is this list's first profile after it), as for
    /// `tapReachesDelegateAtLaunch`. Before, nothing reaches the app until a tap.
    public var asksDelegateToPresent: Bool {
        self >= .ios13
    }

    /// Era order: declaration order.
    static func >= (lhs: Profile, rhs: Profile) -> Bool {
        lhs.era >= rhs.era
    }

    /// The profile's place in `allCases`.
    private var era: Int {
        switch self {
        case .ios3: 0
        case .ios4: 1
        case .ios7: 2
        case .ios13: 3
        case .ios15: 4
        case .ios17: 5
        case .ios26: 6
        case .ios27: 7
        }
    }
}

/// Whether a profile lets apps adopt scenes. The raw value is the wire spelling.
public enum SceneSupport: String, Sendable, Hashable {
    /// No scenes (before iOS 13): every app is an app-delegate app; one that declares scenes is refused.
    case none
    /// Scenes optional (iOS 13…26): an app that does not adopt them gets the app-delegate behaviour.
    case optional
    /// Scenes required (iOS 27): an app that does not adopt them fails to launch.
    case required
}

/// What a switcher swipe (`terminate --by-user`, `scene close`) does to a scene app. The raw value is the wire
/// spelling.
public enum SwitcherClose: String, Sendable, Hashable {
    /// `ios13`, `ios15`: the scene resigns, enters the background, then the process is terminated.
    case terminates
    /// `ios17`+: the scene resigns and is disconnected, then its session is discarded.
    case disconnectsAndDiscards
}
