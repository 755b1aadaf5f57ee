public import LifebusLifecycle

/// The watchdog budgets and the other durations the device enforces: plain data, per profile,
/// overridable per broker and scalable by a time factor for fast tests.
///
/// Each callback's budget is one slot of a table read by the callback's `ordinal` (the core reads it for every
/// callback it sends: no hashing), filled from the callback's own declaration (`LifecycleCallback.defaultBudget`), so
/// a new callback needs nothing here. Invariant: the table has one budget per `LifecycleCallback` case; every
/// duration is non-negative; `scaled(by:)` rounds each one to the nearest nanosecond.
public struct Budgets: Sendable, Hashable {
    /// Each callback's watchdog budget, at its `ordinal`. `didFinishLaunching`'s counts from the launch: when the
    /// device must wait for the app's process to connect, the wait counts against it too.
    private var callbacks: [Duration]
    /// Background execution time granted once the app enters the background, shared by all its
    /// background tasks; `nil` where the profile has no background tasks (`ios3`).
    public var backgroundTask: Duration?
    /// How long before the background budget ends the app is told that its tasks are expiring.
    public var expirationWarning: Duration
    /// How long a process may linger after answering `willTerminate` before it is killed (reason `system`).
    public var exitGrace: Duration
    /// A second critical memory warning within this window means pressure stays: background apps are
    /// terminated too.
    public var pressureWindow: Duration
    /// A scene app's launch, from the launch until its first scene is active (FrontBoard's `scene-create`
    /// watchdog, 20 s): the scene callbacks of the launch get what is left of it when that is less than their own
    /// budget.
    public var sceneLaunch: Duration

    /// Budgets with each callback's from `callbackBudget` (by default its own under `ios7`).
    public init(
        callbackBudget: (LifecycleCallback) -> Duration = { $0.defaultBudget(under: .ios7) },
        backgroundTask: Duration? = .seconds(180),
        expirationWarning: Duration = .seconds(5),
        exitGrace: Duration = .seconds(2),
        pressureWindow: Duration = .seconds(10),
        sceneLaunch: Duration = .seconds(20)
    ) {
        self.callbacks = LifecycleCallback.allCases.map(callbackBudget)
        self.backgroundTask = backgroundTask
        self.expirationWarning = expirationWarning
        self.exitGrace = exitGrace
        self.pressureWindow = pressureWindow
        self.sceneLaunch = sceneLaunch
    }

    /// The documented budgets of `profile`: each callback's its own under the profile; background tasks get the
    /// profile's `backgroundTaskTime` (600 s under `ios4`, 180 s under `ios7`, 30 s from `ios13` on, none under
    /// `ios3`).
    public static func defaults(for profile: Profile) -> Budgets {
        Budgets(callbackBudget: { $0.defaultBudget(under: profile) }, backgroundTask: profile.backgroundTaskTime)
    }

    /// The watchdog budget of one callback.
    public subscript(callback: LifecycleCallback) -> Duration {
        get { callbacks[callback.ordinal] }
        set { callbacks[callback.ordinal] = newValue }
    }

    /// Every duration multiplied by `factor` (e.g. `0.01` runs a 5 s budget in 50 ms), rounded to the
    /// nearest nanosecond. A negative or non-finite factor yields zero durations.
    public func scaled(by factor: Double) -> Budgets {
        func scale(_ duration: Duration) -> Duration {
            let product = Double(duration.signedNanoseconds) * factor
            guard product.isFinite, product > 0 else { return .zero }
            // Positive here, so adding one half and truncating rounds to nearest (without libm).
            return product >= Double(Int64.max) ? .nanoseconds(Int64.max) : .nanoseconds(Int64(product + 0.5))
        }
        var copy = self
        copy.callbacks = callbacks.map(scale)
        copy.backgroundTask = backgroundTask.map(scale)
        copy.expirationWarning = scale(expirationWarning)
        copy.exitGrace = scale(exitGrace)
        copy.pressureWindow = scale(pressureWindow)
        copy.sceneLaunch = scale(sceneLaunch)
        return copy
    }
}

/// Everything fixed when a `Device` is created.
public struct DeviceConfiguration: Sendable, Hashable {
    public var profile: Profile
    public var budgets: Budgets
    /// When `false` the watchdog only observes: a callback answered after its budget is recorded `late`
    /// instead of the app being killed (as iOS does while a debugger is attached).
    public var enforcesWatchdog: Bool
    /// Seeds the orders Apple does not document (`Protocol/lifecycle.md`, "Scene order knobs"): which of several
    /// scenes moves first when one event moves them all. The same seed and inputs give the same actions.
    public var sceneOrderSeed: UInt64
    /// How an incoming call shows on an unlocked device under a profile with the compact banner (`seeded` draws it
    /// from `sceneOrderSeed`).
    public var callPresentation: CallPresentation
    /// The device's power and network at start (`lifebusd --power`, `--network`; default plugged in and online).
    public var conditions: DeviceConditions
    /// Whether a suspended app hears the net change of protected data when it runs again
    /// (`Profile.queuesProtectedDataNotifications`, the default); `false`: only the apps running at the lock and
    /// at the wake hear them. Meaningful under a profile with `protectedDataLockDelay`.
    public var queuesProtectedDataNotifications: Bool
    /// The task kinds whose due task launches an app the user force-quit and has not launched since
    /// (`Profile.taskKindsAfterForceQuit`, the default: `processing`); a due task of another kind is `deferred`
    /// instead and stays pending. Meaningful under a profile with `hasBackgroundTasks`.
    public var taskKindsAfterForceQuit: Set<BackgroundTaskKind>
    /// Whether a scene app launched into the background (a silent push, a task, its process connecting with
    /// `launchInBackground` or behind the lock) connects one scene there, its restoration payload withheld while
    /// protected data is unavailable and handed over after the unlock (`Profile.connectsSceneAtBackgroundLaunch`, the
    /// default: no). Meaningful under a profile with scenes.
    public var connectsSceneAtBackgroundLaunch: Bool

    public init(
        profile: Profile = .ios7, budgets: Budgets? = nil, enforcesWatchdog: Bool = true, sceneOrderSeed: UInt64 = 0,
        callPresentation: CallPresentation = .fullScreen, conditions: DeviceConditions = DeviceConditions(),
        knobs: DeviceKnobs = DeviceKnobs()
    ) {
        self.profile = profile
        self.budgets = budgets ?? .defaults(for: profile)
        self.enforcesWatchdog = enforcesWatchdog
        self.sceneOrderSeed = sceneOrderSeed
        self.callPresentation = callPresentation
        self.conditions = conditions
        // The knobs given, else the profile's.
        self.queuesProtectedDataNotifications =
            knobs.queuesProtectedDataNotifications ?? profile.queuesProtectedDataNotifications
        self.taskKindsAfterForceQuit = knobs.taskKindsAfterForceQuit ?? profile.taskKindsAfterForceQuit
        self.connectsSceneAtBackgroundLaunch =
            knobs.connectsSceneAtBackgroundLaunch ?? profile.connectsSceneAtBackgroundLaunch
    }
}
