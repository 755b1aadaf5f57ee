public import LifebusLifecycle

/// Read-only views of the device, for the broker's status reports and for tests.
extension Device {
    /// The state of `app`; `notRunning` for an app the device has never heard of.
    public func state(of app: AppID) -> LifecycleState {
        index[app].map { apps[$0].state } ?? .notRunning
    }

    /// The app that owns the screen: `active` or `inactive`, or behind the lock (under `ios7`, in the
    /// background). `nil` on the home screen, in a call, or in Messages/Calendar.
    public var foregroundApp: AppID? {
        front.map { apps[$0].id }
    }

    /// The scene sessions of `app`, oldest first, each with its connected scene and that scene's state: what
    /// `status` reports. Empty for an app-delegate app or one the device has never heard of.
    public func sessions(of app: AppID) -> [SceneSessionStatus] {
        guard let i = index[app] else {
            return []
        }
        return apps[i].scenes.sessions.map {
            SceneSessionStatus(session: $0.id, scene: $0.scene, state: $0.state, hasRestoration: $0.restoration != nil)
        }
    }

    public var isLocked: Bool {
        locked
    }

    public var call: CallStatus {
        switch phoneCall {
        case .idle: .none
        case .ringing, .ringingAsBanner: .ringing
        case .inProgress, .answeredFromBanner: .inProgress
        }
    }

    /// The SMS or calendar alert on screen (a ringing call is reported by `call`).
    public var alert: AlertKind? {
        alertOnScreen
    }

    /// Every app the device knows, in the order it first heard of them (apps forgotten by `reset` are not).
    public var appSnapshots: [AppSnapshot] {
        apps.indices.filter { index[apps[$0].id] == $0 }.map { AppSnapshot(apps[$0]) }
    }

    public func snapshot(of app: AppID) -> AppSnapshot? {
        index[app].map { AppSnapshot(apps[$0]) }
    }

    /// The pid of the app's last connection (the kernel's, as given to `appConnected`), without a whole snapshot.
    public func pid(of app: AppID) -> Int32? {
        index[app].flatMap { apps[$0].pid }
    }

    /// The earliest deadline of an armed timer: give `Input.deadlineReached` at (or after) it. `nil`: none armed.
    public var earliestDeadline: Instant? {
        timers.earliestDeadline
    }

    /// The apps the armed timers belong to, one per app timer, in the order the timers fall due (the device's own
    /// timers, as the protected-data lock, belong to none).
    public var timerOwners: [AppID] {
        timers.entries.compactMap { $0.purpose.app.map { apps[$0].id } }
    }

    /// Whether protected data (`NSFileProtectionComplete`) is readable: `false` from
    /// `Profile.protectedDataLockDelay` after a lock until the next wake.
    public var isProtectedDataAvailable: Bool {
        protectedDataAvailable
    }

    /// How many silent pushes to `app` wait for the rate limit's hour (`deferred`): 1 while one is held, else 0.
    public func deferredPushCount(of app: AppID) -> Int {
        index[app].map { apps[$0].pushes.held == nil ? 0 : 1 } ?? 0
    }

    /// The `BGTask`s of `app`, pending and running, in the order they were submitted.
    public func backgroundTasks(of app: AppID) -> [BackgroundTaskStatus] {
        guard let i = index[app] else {
            return []
        }
        return apps[i].scheduledTasks.map {
            if $0.waiting {
                return BackgroundTaskStatus(
                    request: $0.request, state: .waiting, waitingFor: unmetRequirements($0.request))
            }
            return BackgroundTaskStatus(
                request: $0.request, state: $0.phase == .pending || $0.phase == .due ? .pending : .running,
                deadline: $0.deadline)
        }
    }

    /// Whether some app in the background was told at `instant` that its background tasks expire
    /// (`backgroundTaskExpiring`) and still holds one: its reaction — the expiration handler's work, then
    /// `endBackgroundTask` — takes no virtual time, so an advance of the manual clock waits for it at that instant
    /// (`BrokerMachine+Clock.swift`), as for a `BGTask`'s launch.
    public func hasBackgroundTaskWarned(at instant: Instant) -> Bool {
        apps.contains { $0.state == .background && !$0.tasks.isEmpty && $0.background?.warnedAt == instant }
    }

    /// Whether some app's `BGTask` was launched at `instant` and is still running (neither completed nor expiring):
    /// the app's reaction to the launch — work a launch handler starts, then `setTaskCompleted` — takes no virtual
    /// time, so an advance of the manual clock waits for it at that instant (`BrokerMachine+Clock.swift`).
    public func hasTaskLaunched(at instant: Instant) -> Bool {
        apps.contains { app in
            app.scheduledTasks.contains {
                ($0.phase == .running || $0.phase == .expirationDue) && $0.launchedAt == instant
            }
        }
    }

    /// The device's power and network (`fire power`, `fire network`).
    public var deviceConditions: DeviceConditions {
        conditions
    }

    /// How many timers are armed.
    public var armedTimerCount: Int {
        timers.count
    }

    /// Controller events received and not answered yet (running or queued).
    public var unansweredEventCount: Int {
        unanswered.count
    }
}

/// One app as the device sees it at one moment.
public struct AppSnapshot: Sendable, Hashable {
    public var id: AppID
    public var state: LifecycleState
    public var flags: AppFlags
    public var pid: Int32?
    /// Whether a process is attached (connected, exiting after `willTerminate`, or killed and not yet gone).
    public var hasProcess: Bool
    /// The callback the app is running, if any.
    public var outstandingCallback: LifecycleCallback?
    public var outstandingCallbackID: CallbackID?
    public var openBackgroundTasks: [UInt64]
    public var footprint: UInt64
    /// The device asked for this app's process to start and is waiting for it to connect.
    public var isAwaitingLaunch: Bool

    init(_ record: AppRecord) {
        id = record.id
        state = record.state
        flags = record.flags
        pid = record.pid
        hasProcess = record.process != .none
        outstandingCallback = record.outstanding?.callback
        outstandingCallbackID = record.outstanding?.id
        openBackgroundTasks = record.tasks
        footprint = record.footprint
        isAwaitingLaunch = record.launch?.timer != nil
    }
}
