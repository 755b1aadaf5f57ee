import LifebusLifecycle

/// What the device knows about one app. Records are never removed: an app that ends keeps its identity
/// (so it can be relaunched) and its flags until it connects again. `reset` forgets an app without a process by
/// dropping it from `index`: its record stays as a tombstone, and a later mention creates a fresh record.
///
/// Each timer the record holds is in `Device.timers` with the purpose that names this app, and only while it is
/// held here (`Device.checkInvariants`).
struct AppRecord: Sendable {
    /// The app's process as the device sees it.
    enum Process: Sendable, Equatable {
        /// No process: never connected, exited, or its connection dropped.
        case none
        case connected
        /// Answered `willTerminate`; its process must exit before the `grace` timer fires.
        case exiting(grace: TimerID)
        /// Killed by the device; waiting for the process to be reported gone.
        case killed
    }

    /// A launch whose budget started before the app's process connected: `didFinishLaunching` gets what is left.
    struct PendingLaunch: Sendable {
        /// The end of the launch budget.
        var deadline: Instant
        /// Armed while the running chain waits for the process to connect; `nil` once it has.
        var timer: TimerID?
    }

    /// The background execution budget, from `didEnterBackground` until the app leaves the background.
    struct BackgroundTime: Sendable {
        var deadline: Instant
        /// Armed while tasks are open and their expiration warning is still to come.
        var warning: TimerID?
        /// Armed while tasks are open: the app is killed when the budget ends.
        var expiry: TimerID?
        /// When the app was last told its tasks expire (`backgroundTaskExpiring`): under the manual clock an advance
        /// waits at that instant for the app's reaction (`Device.hasBackgroundTaskWarned(at:)`).
        var warnedAt: Instant?
    }

    let id: AppID
    var flags = AppFlags()
    /// The kernel's pid of the app's last process (kept after it ends: the caller may still need it).
    var pid: Int32?
    var process = Process.none
    var state = LifecycleState.notRunning
    /// The app's part of the running chain, if it has one.
    var work: Intent?
    var outstanding: Outstanding?
    var launch: PendingLaunch?
    var tasks: [UInt64] = []
    /// Set when the app enters the background where the profile grants background time.
    var background: BackgroundTime?
    var footprint: UInt64 = 0
    /// A scene app's book: its sessions and scenes (empty for an app-delegate app).
    var scenes = SceneBook()
    /// The `BGTask` identifiers the app's process registered a launch handler for (cleared when it ends).
    var registeredTasks: [String] = []
    /// The app's `BGTask`s, pending and running, in submission order; pending ones outlive the process.
    var scheduledTasks: [ScheduledTask] = []
    /// Why the app's next `didFinishLaunching` happens, when it is a background launch for a task or a push.
    var launchReason: LaunchReason?
    /// An app-delegate app launched or resumed into the background for a task or a silent push, not yet sent the
    /// `didEnterBackground` that comes before the event (`Device.wakeInBackground`). Set only while its work for
    /// that event runs: cleared when the callback is sent, the work finishes or the process ends.
    var owesBackgroundEntry = false
    /// Silent pushes: those to hand over, the one handed over and not answered, the instants of the deliveries
    /// within the last hour (the rate limit), the deferred ones, and the window timer armed while any is deferred.
    var pushes = PushBook()
    /// The user force-quit the app (`terminate --by-user`, a switcher close) and has not launched it since; outlives
    /// the process until the user's launch or `reset`: a silent push does not launch it (B42, B43), nor a due task of
    /// a kind `DeviceConfiguration.taskKindsAfterForceQuit` leaves out (B64–B66).
    var forceQuit = false
    /// What the app last heard of protected data (`Device+ProtectedData.swift`): `true` after
    /// `protectedDataDidBecomeAvailable` or a launch on an unlocked device, `false` after
    /// `protectedDataWillBecomeUnavailable` or a launch on a locked one.
    var heardProtectedDataAvailable = true
    /// Set when the app leaves `suspended` and cleared at its next move (or when it suspends or ends again): the
    /// move that owes it the net change of protected data, if any (`deliverQueuedProtectedData`).
    var resumedFromSuspension = false

    init(id: AppID) {
        self.id = id
    }
}

/// An app's silent pushes (`Device+Push.swift`) and the visible notifications offered to it in the foreground
/// (`Device+Presentation.swift`). The delivery times and the held push (while no process of the app ends) outlive the
/// process. Invariants: `window` is armed exactly while a push is held behind a delivery of the hour; at most one
/// push is held; `presentingNow` is set exactly while `willPresentNotification` is outstanding.
struct PushBook: Sendable {
    /// Accepted, waiting for the app's `deliverPushes` work (payloads, JSON text).
    var due: [String] = []
    /// Handed over (`didReceiveRemoteNotification` sent), not answered yet.
    var inFlight: String?
    /// The fetch result of the answer being handled (set only by an answer that carries one).
    var result: BackgroundFetchResult?
    /// When pushes were delivered, oldest first, within the last hour.
    var delivered: [Instant] = []
    /// The newest push over the rate limit (B32, B44): a newer one discards it; any end of the app's process
    /// discards it; the window or the user's launch (B45) delivers it.
    var held: String?
    /// Armed while a push is `held`: when the oldest delivery leaves the hour.
    var window: TimerID?
    /// Visible notifications that arrived while the app was in the foreground, waiting for its `deliverPushes` work
    /// to offer each to `willPresentNotification` (payloads, JSON text). Bounded as the device's events are: one per
    /// `push --alert` event, offered within that event's chain, before the device takes its next event.
    var presenting: [String] = []
    /// The visible notification `willPresentNotification` is outstanding for.
    var presentingNow: String?
    /// The presentation options of the answer being handled (set only by an answer that carries them).
    var presentation: NotificationPresentationOptions?

    /// Whether the end of the app's process has something here to drop (`Device.pushesEnded`): a push in flight,
    /// due or held, or a notification offered.
    var endsWithProcess: Bool {
        inFlight != nil || !due.isEmpty || held != nil || presentingNow != nil || !presenting.isEmpty
    }
}

/// One `BGTask` of an app, from its submission until it is completed, expired or cancelled.
struct ScheduledTask: Sendable {
    enum Phase: Sendable, Equatable {
        /// Submitted; falls due at its earliest begin date (`due` armed) or when the controller runs it.
        case pending
        /// Due: the app's `performTasks` work will call its launch handler.
        case due
        /// Its launch handler was called; it runs until completed or expired.
        case running
        /// Running, and its expiration handler is still to be called (`expireTasks`).
        case expirationDue
        /// Its expiration handler was called; it must be completed before `expiry`.
        case expiring
    }

    var request: BackgroundTaskRequest
    var phase = Phase.pending
    /// Armed while pending with an earliest begin date.
    var due: TimerID?
    /// Armed while running with a budget (`appRefresh`): the time of the expiration handler.
    var warning: TimerID?
    /// Armed once running with a budget, or once expiring: the app is killed if the task is not completed by then.
    var expiry: TimerID?
    /// The end of a running task's budget, for `status`.
    var deadline: Instant?
    /// When its launch handler was called (set once running): under the manual clock, an advance waits at that
    /// instant for the app's reaction to the launch (`Device.hasTaskLaunched(at:)`).
    var launchedAt: Instant?
    /// A pending `processing` task whose earliest begin date came while the device's conditions did not let it run
    /// (`Device+Conditions.swift`): it falls due when they do.
    var waiting = false
}

extension AppRecord {
    /// Whether a `BGTask` of the app runs (its launch handler called, not completed): it keeps the app awake.
    var hasRunningScheduledTask: Bool {
        scheduledTasks.contains { $0.phase != .pending && $0.phase != .due }
    }
}

/// The one callback an app is running.
struct Outstanding: Sendable {
    var id: CallbackID
    var callback: LifecycleCallback
    var from: LifecycleState
    var to: LifecycleState
    var sent: Instant
    var budget: Duration
    /// The watchdog; `nil` once it fired while the watchdog only observes.
    var timer: TimerID?
    var late: Bool
}
